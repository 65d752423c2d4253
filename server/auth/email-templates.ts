import type { OutgoingMail } from '../context.ts';

export type AuthEmailKind =
  | 'signup'
  | 'recovery'
  | 'magiclink'
  | 'email_change'
  | 'email_change_current'
  | 'invite'
  | 'reauthentication';

interface Copy {
  subject: string;
  heading: string;
  lead: string;
  button: string;
}

const COPY: Record<AuthEmailKind, Copy> = {
  signup: {
    subject: 'Confirm your Vigil account',
    heading: 'Confirm your e-mail address',
    lead: 'Welcome to Vigil. Confirm this address to activate your account and start protecting your business.',
    button: 'Confirm my account',
  },
  recovery: {
    subject: 'Reset your Vigil password',
    heading: 'Reset your password',
    lead: 'We received a request to reset the password of your Vigil account. Choose a new one with the button below.',
    button: 'Choose a new password',
  },
  magiclink: {
    subject: 'Your Vigil sign-in link',
    heading: 'Sign in to Vigil',
    lead: 'Use this link to sign in to your Vigil account. It works once.',
    button: 'Sign in',
  },
  email_change: {
    subject: 'Confirm your new Vigil e-mail address',
    heading: 'Confirm your new e-mail address',
    lead: 'Confirm that this is the new e-mail address of your Vigil account.',
    button: 'Confirm new address',
  },
  email_change_current: {
    subject: 'Confirm the change of your Vigil e-mail address',
    heading: 'Confirm your e-mail address change',
    lead: 'Someone asked to move your Vigil account to a new e-mail address. Confirm from this address too to complete the change; if it was not you, change your password now.',
    button: 'Confirm the change',
  },
  invite: {
    subject: 'You have been invited to Vigil',
    heading: 'You are invited',
    lead: 'You have been invited to join a Vigil workspace. Accept the invitation to set up your account.',
    button: 'Accept invitation',
  },
  reauthentication: {
    subject: 'Your Vigil verification code',
    heading: 'Confirm it is you',
    lead: 'Enter this code in Vigil to confirm a sensitive change to your account.',
    button: '',
  },
};

const escape = (s: string) =>
  s
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');

/** The branded HTML and plain-text e-mail for an auth action; `link` is absent for code-only mails. */
export function renderAuthEmail(
  kind: AuthEmailKind,
  to: string,
  otp: string,
  link: string | null,
  validMinutes: number,
): OutgoingMail {
  const copy = COPY[kind];
  const expiry = `This ${link ? 'link and code expire' : 'code expires'} in ${validMinutes} minutes.`;
  const ignore =
    'If you did not ask for this, you can ignore this e-mail: nothing changes until the link is used.';
  const text = [
    copy.heading,
    '',
    copy.lead,
    '',
    ...(link ? [`${copy.button}: ${link}`, ''] : []),
    `Your code: ${otp}`,
    expiry,
    '',
    ignore,
    '',
    '— Vigil, autonomous security agents for your business',
  ].join('\n');
  const button = link
    ? `<tr><td style="padding:8px 32px 8px"><a href="${escape(link)}" style="display:inline-block;background:#14b8a6;color:#04111d;font-weight:600;text-decoration:none;padding:12px 22px;border-radius:8px">${escape(copy.button)}</a></td></tr>
       <tr><td style="padding:8px 32px;color:#64748b;font-size:12px">Or paste this link into your browser:<br><a href="${escape(link)}" style="color:#0f766e;word-break:break-all">${escape(link)}</a></td></tr>`
    : '';
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${escape(copy.subject)}</title></head>
<body style="margin:0;background:#f1f5f9;font-family:-apple-system,'Segoe UI',Roboto,Helvetica,Arial,sans-serif;color:#0f172a">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="padding:32px 12px"><tr><td align="center">
<table role="presentation" width="560" cellpadding="0" cellspacing="0" style="max-width:560px;background:#ffffff;border-radius:12px;overflow:hidden;border:1px solid #e2e8f0">
<tr><td style="background:#0b1120;padding:20px 32px;color:#e2e8f0;font-size:20px;font-weight:700;letter-spacing:.5px">&#128737; Vigil</td></tr>
<tr><td style="padding:28px 32px 8px;font-size:22px;font-weight:700">${escape(copy.heading)}</td></tr>
<tr><td style="padding:8px 32px 16px;font-size:15px;line-height:1.6;color:#334155">${escape(copy.lead)}</td></tr>
${button}
<tr><td style="padding:16px 32px 8px;font-size:14px;color:#334155">Your code:</td></tr>
<tr><td style="padding:0 32px 16px"><span style="display:inline-block;font:700 26px/1 ui-monospace,Menlo,monospace;letter-spacing:6px;background:#f1f5f9;padding:10px 14px;border-radius:8px">${escape(otp)}</span></td></tr>
<tr><td style="padding:0 32px 24px;font-size:13px;color:#64748b">${escape(expiry)} ${escape(ignore)}</td></tr>
<tr><td style="background:#f8fafc;padding:16px 32px;font-size:12px;color:#94a3b8">Sent to ${escape(to)} by Vigil, autonomous security agents for your business.</td></tr>
</table></td></tr></table></body></html>`;
  return { to, subject: copy.subject, text, html };
}
