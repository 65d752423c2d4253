// Rules of the web scanner's intrusive write checks (webapp/write/): what only a write can prove. They
// run only with the target owner's consent, write markers of their own and clean up where the app lets
// them (docs/scanners/checks.md). Spread into the scanner's table in rules.ts.
import type { Rule } from '../core/rule.ts';

const A01 = 'A01:2021 Broken Access Control';
const A03 = 'A03:2021 Injection';
const A04 = 'A04:2021 Insecure Design';

export const writeRules = {
  'web.xss.stored': {
    title: 'Stored cross-site scripting: input kept and shown to others unescaped',
    cwe: 'CWE-79',
    owasp: A03,
    family: 'code',
    cvss: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:R/S:C/C:L/I:L/A:N',
    remediation:
      'Escape every stored value for the context it is written into when the page is built (let the template engine auto-escape; never mark user input as safe or raw), and where users may write markup, pass it through an allow-list sanitiser such as DOMPurify; add a Content-Security-Policy without unsafe-inline as a second line.',
  },
  'web.auth.unauth-write': {
    title: 'API records can be changed or deleted without authentication',
    cwe: 'CWE-306',
    owasp: A01,
    family: 'access',
    cvss: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:N/I:H/A:H',
    remediation:
      'Require a session or token on every PUT, PATCH and DELETE route (one authentication middleware on the router, not per route), and check that the caller owns the record or holds a role that may change it.',
  },
  'web.auth.unauth-create': {
    title: 'API accepts new records without authentication although it requires it for reading',
    cwe: 'CWE-306',
    owasp: A01,
    family: 'access',
    cvss: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:N/I:L/A:N',
    remediation:
      'Put the POST route behind the same authentication as the collection it writes to (a router-level middleware covers every method alike); if anonymous submissions are intended, keep them in a separate, moderated collection.',
  },
  'web.auth.mass-assignment': {
    title: 'Mass assignment: a new account can give itself a privileged field',
    cwe: 'CWE-915',
    owasp: A04,
    family: 'access',
    cvss: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:N',
    remediation:
      'Build the record from an explicit list of the fields a user may set (a DTO or schema with unknown keys stripped, e.g. zod .strict(), Joi stripUnknown, Rails strong parameters), and set roles and flags such as isAdmin only on the server.',
  },
} satisfies Record<string, Rule>;
