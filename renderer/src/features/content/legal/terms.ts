import { SUPPORT_EMAIL, TRIAL_DAYS } from '../../../../../shared/constants.ts';
import type { DocumentSection } from '../components/document-sections.tsx';

export const TERMS_SECTIONS: readonly DocumentSection[] = [
  {
    heading: '1. Agreement',
    paragraphs: [
      'These Terms of Service govern your use of the Vigil website, desktop application and security agent service. By creating an account or using the service on behalf of an organisation, you accept these terms and confirm that you are authorised to bind that organisation.',
    ],
  },
  {
    heading: '2. The service',
    paragraphs: [
      'Vigil provides AI security agents that scan, monitor and analyse systems you designate, and report findings, alerts and recommendations. The service supports but does not replace your own security programme, and no security service can guarantee that every vulnerability or attack will be detected.',
    ],
  },
  {
    heading: '3. Authorised targets',
    paragraphs: [
      'You may point Vigil only at systems that you own or are explicitly authorised in writing to test. Before a target is scanned you must prove control of it (for example with a verification token or DNS record). Scanning third-party systems without permission is prohibited and may be unlawful; we will suspend accounts that attempt it.',
    ],
  },
  {
    heading: '4. Accounts',
    paragraphs: [
      'You are responsible for keeping your credentials secure, for enabling a second factor where appropriate, and for all activity under your account. Tell us immediately at ' +
        SUPPORT_EMAIL +
        ' if you suspect unauthorised access.',
    ],
  },
  {
    heading: '5. Subscriptions, trial and billing',
    items: [
      `Your first subscription starts with a ${TRIAL_DAYS}-day free trial; each customer, and each payment card, gets one trial. You may cancel at any time during the trial and will not be charged.`,
      'After the trial, each activated agent is billed monthly in advance at the price shown at checkout, less any bundle discount.',
      'You may cancel at any time; cancellation takes effect at the end of the current billing period and fees already paid are not refunded except where the law requires.',
      'We may change prices with at least 30 days’ notice; changes apply from your next billing period.',
    ],
  },
  {
    heading: '6. Acceptable use',
    items: [
      'Do not use the service to attack, disrupt or gain unauthorised access to any system.',
      'Do not attempt to probe, overload or circumvent the security of the Vigil platform itself outside our published disclosure programme.',
      'Do not resell the service or use it to build a competing product without our written consent.',
    ],
  },
  {
    heading: '7. Your data',
    paragraphs: [
      'You keep all rights to the data you provide and the results produced for you. You grant us the limited rights needed to operate the service. Our handling of personal data is described in the Privacy Policy.',
    ],
  },
  {
    heading: '8. Availability and support',
    paragraphs: [
      'We aim for continuous availability and provide 24/7 support, with response targets of under 15 minutes for critical, 1 hour for high and 4 hours for normal priority tickets. Planned maintenance is announced in advance where possible.',
    ],
  },
  {
    heading: '9. Warranties and liability',
    paragraphs: [
      'The service is provided “as is” to the extent permitted by law. Except for liability that cannot be limited by law, our total liability for any claim is limited to the fees you paid in the 12 months before the claim, and we are not liable for indirect or consequential losses.',
    ],
  },
  {
    heading: '10. Termination',
    paragraphs: [
      'You may close your account at any time. We may suspend or terminate accounts that breach these terms, in particular the rules on authorised targets and acceptable use. On termination you may export your reports for 30 days.',
    ],
  },
  {
    heading: '11. Changes and governing law',
    paragraphs: [
      'We may update these terms; material changes are notified by e-mail at least 30 days before they take effect. These terms are governed by the laws of the State of Delaware, USA, unless the law of your country requires otherwise.',
    ],
  },
];
