import { SUPPORT_EMAIL } from '../../../../../shared/constants.ts';
import type { DocumentSection } from '../components/document-sections.tsx';

export const PRIVACY_SECTIONS: readonly DocumentSection[] = [
  {
    heading: '1. Who we are',
    paragraphs: [
      'Vigil provides autonomous AI security agents that monitor, test and protect the systems of business customers. This policy explains what personal data we process when you visit our website, create an account or use the Vigil service, why we process it, and the choices you have.',
    ],
  },
  {
    heading: '2. Information we collect',
    items: [
      'Account data: your full name, company name, industry, e-mail address and a salted hash of your password (we never store your password in readable form).',
      'Security factors: if you register a biometric factor, we store only the public key credential identifier created by your device; biometric data never leaves your device.',
      'Service data: the targets you ask us to scan, scan results, security events, reports and the configuration of your agents.',
      'Billing data: subscription status and identifiers from our payment provider. Card numbers are handled by the payment provider and never reach our servers.',
      'Technical data: IP address, browser type, device information, error reports and usage logs needed to operate and secure the service.',
      'Support data: the content of tickets and chat messages you send us.',
    ],
  },
  {
    heading: '3. How we use information',
    items: [
      'To provide the service: run the security agents you activate, produce findings, alerts and reports, and notify you of threats.',
      'To secure accounts and the platform: authenticate you, detect abuse and fraud, and keep audit logs.',
      'To bill you and manage your subscription and free trial.',
      'To answer support requests and send essential service messages (for example e-mail confirmation and password reset).',
      'To improve the service using aggregated, de-identified statistics. We do not use your scan data to train models for other customers.',
    ],
  },
  {
    heading: '4. Legal bases',
    paragraphs: [
      'Where the GDPR or similar laws apply, we process personal data to perform our contract with you, to comply with legal obligations, and for our legitimate interests in operating a secure and reliable service. Where we rely on consent (for example optional marketing e-mail), you may withdraw it at any time.',
    ],
  },
  {
    heading: '5. Sharing',
    paragraphs: [
      'We do not sell personal data. We share it only with processors that help us run the service (cloud hosting, e-mail delivery, payment processing), under written agreements that require confidentiality and appropriate security, and with authorities when the law requires it. If Vigil is involved in a merger or acquisition, data may transfer subject to this policy.',
    ],
  },
  {
    heading: '6. Security',
    paragraphs: [
      'Data is encrypted in transit with TLS and at rest. Access is restricted by role and row-level security so that each customer can read only their own data. Session tokens on the desktop app are kept in your operating system keychain. We test our own platform continuously and maintain controls aligned with SOC 2 Type II and ISO 27001.',
    ],
  },
  {
    heading: '7. Retention',
    paragraphs: [
      'We keep account and service data for as long as your account is active. After you close your account we delete or anonymise it within 90 days, except where we must keep records longer for legal, tax or security reasons.',
    ],
  },
  {
    heading: '8. Your rights',
    paragraphs: [
      `Depending on where you live, you may have the right to access, correct, export or delete your personal data, to object to or restrict processing, and to complain to a data protection authority. To exercise these rights, write to ${SUPPORT_EMAIL}. We will answer within 30 days.`,
    ],
  },
  {
    heading: '9. International transfers',
    paragraphs: [
      'Where data is transferred outside your country, we use safeguards such as the European Commission’s Standard Contractual Clauses.',
    ],
  },
  {
    heading: '10. Changes and contact',
    paragraphs: [
      `We will post any change to this policy on this page and, for material changes, notify you by e-mail. Questions about privacy can be sent to ${SUPPORT_EMAIL}.`,
    ],
  },
];
