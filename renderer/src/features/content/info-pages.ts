// The footer's information pages: company, resources and security, in plain prose.
import { SUPPORT_EMAIL, SUPPORT_RESPONSE_TARGETS } from '../../../../shared/constants.ts';
import type { DocumentSection } from './components/document-sections.tsx';

export interface InfoPage {
  title: string;
  subtitle: string;
  sections: readonly DocumentSection[];
}

export const INFO_PAGES: Readonly<Record<string, InfoPage>> = {
  about: {
    title: 'About Vigil',
    subtitle: 'Enterprise-grade security for businesses of every size.',
    sections: [
      {
        heading: 'Our mission',
        paragraphs: [
          'Most businesses cannot staff a 24/7 security operations centre. Vigil gives them one: autonomous AI agents that test, watch and respond around the clock, and explain what they found in plain language.',
        ],
      },
      {
        heading: 'What we build',
        paragraphs: [
          'Vigil combines real scanners (web application, infrastructure and API) with analysis that learns from each customer’s own history, so alerts are prioritised by what actually matters to that business.',
        ],
      },
      {
        heading: 'How we work',
        items: [
          'Security first: we hold our own platform to the standard we sell.',
          'Evidence over noise: every finding comes with proof and a fix.',
          'Customers own their data: we never use one customer’s data for another.',
        ],
      },
    ],
  },
  careers: {
    title: 'Careers',
    subtitle: 'Help us protect the businesses that keep the world running.',
    sections: [
      {
        heading: 'Working at Vigil',
        paragraphs: [
          'We are a remote-first team of security engineers, researchers and product people. We value clear writing, careful engineering and responsible disclosure.',
        ],
      },
      {
        heading: 'Areas we hire for',
        items: [
          'Offensive security and scanner engineering',
          'Detection engineering and threat intelligence',
          'Full-stack product engineering (TypeScript, React, Postgres)',
          'Customer security success',
        ],
      },
      {
        heading: 'How to apply',
        paragraphs: [
          `Send your CV and a short note about a security problem you enjoyed solving to careers@vigil.security. We answer every application.`,
        ],
      },
    ],
  },
  blog: {
    title: 'Blog',
    subtitle: 'Research, product news and practical security guidance.',
    sections: [
      {
        heading: 'Why continuous testing beats the annual pentest',
        paragraphs: [
          'Infrastructure changes every week; a yearly test sees one moment. We explain how continuous, scoped scanning catches regressions the day they ship.',
        ],
      },
      {
        heading: 'Security headers that still matter',
        paragraphs: [
          'Content-Security-Policy, HSTS and frame protections stop whole classes of attack. A practical checklist, with the findings Vigil reports when they are missing.',
        ],
      },
      {
        heading: 'Reading a Vigil report',
        paragraphs: [
          'How severity, evidence and remediation are presented, and how to map findings to SOC 2 and ISO 27001 controls.',
        ],
      },
    ],
  },
  contact: {
    title: 'Contact Us',
    subtitle: 'We are here around the clock.',
    sections: [
      {
        heading: 'Support',
        paragraphs: [
          `E-mail ${SUPPORT_EMAIL} or open a ticket from the Support page. Response targets: ${SUPPORT_RESPONSE_TARGETS.map((t) => `${t.priority} ${t.target}`).join(', ')}.`,
        ],
      },
      {
        heading: 'Sales',
        paragraphs: [
          'Book a call from the Schedule Demo page, or write to sales@vigil.security for volume pricing and custom agreements.',
        ],
      },
      {
        heading: 'Security reports',
        paragraphs: [
          'Found a vulnerability in Vigil itself? Write to security@vigil.security. See the Security page for our disclosure policy.',
        ],
      },
    ],
  },
  documentation: {
    title: 'Documentation',
    subtitle: 'Get from sign-up to your first scan in minutes.',
    sections: [
      {
        heading: 'Getting started',
        items: [
          'Create an account and confirm your e-mail address.',
          'Choose the security agents you need; your first subscription starts with a 7-day free trial (one per customer).',
          'Add a target and prove you control it with a verification token or DNS TXT record.',
          'Start a scan, or let the agents run automatically every 24 hours.',
        ],
      },
      {
        heading: 'Scanners',
        items: [
          'Web application: security headers, TLS, exposed files and common injection points.',
          'Infrastructure: open ports, service banners and certificate checks.',
          'API: authentication, transport security and specification-driven checks.',
        ],
      },
      {
        heading: 'Reports',
        paragraphs: [
          'Generate reports on demand or on a schedule (one time, daily, weekly or monthly) as SOC compliance, penetration test, security assessment or vulnerability scan reports.',
        ],
      },
    ],
  },
  help: {
    title: 'Help Center',
    subtitle: 'Answers to the most common questions.',
    sections: [
      {
        heading: 'I did not receive the confirmation e-mail',
        paragraphs: [
          'Check your spam folder, then use “Resend confirmation email” on the Check Your Email page. Links expire after 24 hours.',
        ],
      },
      {
        heading: 'I forgot my password',
        paragraphs: [
          'Use “Forgot your password?” on the sign-in page. We will send a reset link to your e-mail address.',
        ],
      },
      {
        heading: 'How do I cancel my trial?',
        paragraphs: [
          'Cancel at any time before the trial ends from your subscription settings and you will not be charged.',
        ],
      },
      {
        heading: 'Still stuck?',
        paragraphs: [
          `Open a ticket on the Support page or write to ${SUPPORT_EMAIL}. We are available 24/7.`,
        ],
      },
    ],
  },
  security: {
    title: 'Security at Vigil',
    subtitle: 'How we protect your data and our platform.',
    sections: [
      { heading: 'Compliance', items: ['SOC 2 Type II', 'ISO 27001', 'HIPAA-ready data handling'] },
      {
        heading: 'Platform protections',
        items: [
          'TLS for all traffic and encryption at rest.',
          'Row-level security: every query runs as the signed-in customer, so one customer can never read another’s data.',
          'Short-lived access tokens with rotating refresh tokens; desktop sessions are kept in the OS keychain.',
          'Targets must be verified before they are scanned.',
        ],
      },
      {
        heading: 'Responsible disclosure',
        paragraphs: [
          'We welcome reports from security researchers. Write to security@vigil.security with steps to reproduce. We acknowledge reports within one business day and will not pursue researchers acting in good faith.',
        ],
      },
    ],
  },
};
