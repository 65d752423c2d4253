// Rules of the web-application scanner (OWASP Top 10 2021 categories).
import { ruleBook } from '../core/rule.ts';
import type { Rule } from '../core/rule.ts';
import { webappFileRules } from './rules-files.ts';
import { injectionRules } from './rules-injection.ts';
import { spaRules } from './rules-spa.ts';
import { writeRules } from './rules-write.ts';

const A01 = 'A01:2021 Broken Access Control';
const A02 = 'A02:2021 Cryptographic Failures';
const A03 = 'A03:2021 Injection';
const A05 = 'A05:2021 Security Misconfiguration';
const A06 = 'A06:2021 Vulnerable and Outdated Components';

const exposed = (title: string, cwe: Rule['cwe'], cvss: string, remediation: string): Rule => ({
  title,
  cwe,
  cvss,
  owasp: A05,
  remediation,
  family: 'leakage',
});

export const webappRules = {
  ...spaRules,
  ...writeRules,
  'web.header.csp-missing': {
    title: 'Content-Security-Policy header missing',
    cwe: 'CWE-693',
    owasp: A05,
    family: 'hardening',
    cvss: 'CVSS:3.1/AV:N/AC:H/PR:N/UI:R/S:U/C:L/I:L/A:N',
    remediation:
      "Send a Content-Security-Policy that restricts script sources (start with default-src 'self'; object-src 'none'; base-uri 'self').",
  },
  'web.header.hsts-missing': {
    title: 'Strict-Transport-Security header missing on HTTPS',
    cwe: 'CWE-319',
    owasp: A02,
    family: 'transport',
    cvss: 'CVSS:3.1/AV:N/AC:H/PR:N/UI:R/S:U/C:L/I:L/A:N',
    remediation:
      'Send Strict-Transport-Security: max-age=31536000; includeSubDomains on every HTTPS response.',
  },
  'web.header.nosniff-missing': {
    title: 'X-Content-Type-Options: nosniff missing',
    cwe: 'CWE-693',
    owasp: A05,
    family: 'hardening',
    cvss: 'CVSS:3.1/AV:N/AC:H/PR:N/UI:R/S:U/C:L/I:N/A:N',
    remediation: 'Send X-Content-Type-Options: nosniff on every response.',
  },
  'web.header.referrer-policy-missing': {
    title: 'Referrer-Policy header missing',
    cwe: 'CWE-200',
    owasp: A05,
    family: 'hardening',
    cvss: 'CVSS:3.1/AV:N/AC:H/PR:N/UI:R/S:U/C:L/I:N/A:N',
    remediation: 'Send Referrer-Policy: strict-origin-when-cross-origin (or no-referrer).',
  },
  'web.header.permissions-policy-missing': {
    title: 'Permissions-Policy header missing',
    cwe: 'CWE-693',
    owasp: A05,
    family: 'hardening',
    cvss: 'CVSS:3.1/AV:N/AC:H/PR:N/UI:R/S:U/C:N/I:N/A:N',
    remediation:
      'Send a Permissions-Policy that disables features the site does not use (camera=(), microphone=(), geolocation=()).',
  },
  'web.clickjacking': {
    title: 'Page can be framed by other sites (clickjacking)',
    cwe: 'CWE-1021',
    owasp: A05,
    family: 'hardening',
    cvss: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:R/S:U/C:N/I:L/A:N',
    remediation:
      "Send Content-Security-Policy: frame-ancestors 'self' (and X-Frame-Options: DENY or SAMEORIGIN for old browsers).",
  },
  'web.cookie.secure-missing': {
    title: 'Cookie without Secure flag',
    cwe: 'CWE-614',
    owasp: A02,
    family: 'transport',
    cvss: 'CVSS:3.1/AV:N/AC:H/PR:N/UI:R/S:U/C:L/I:N/A:N',
    remediation: 'Set the Secure attribute on every cookie and serve the site only over HTTPS.',
  },
  'web.cookie.httponly-missing': {
    title: 'Cookie without HttpOnly flag',
    cwe: 'CWE-1004',
    owasp: A05,
    family: 'hardening',
    cvss: 'CVSS:3.1/AV:N/AC:H/PR:N/UI:R/S:U/C:L/I:N/A:N',
    remediation: 'Set HttpOnly on session and other cookies that scripts do not need to read.',
  },
  'web.cookie.samesite-missing': {
    title: 'Cookie without SameSite attribute',
    cwe: 'CWE-1275',
    owasp: A01,
    family: 'hardening',
    cvss: 'CVSS:3.1/AV:N/AC:H/PR:N/UI:R/S:U/C:N/I:L/A:N',
    remediation:
      'Set SameSite=Lax (or Strict) on cookies; use SameSite=None only with Secure and a real need.',
  },
  'web.transport.cleartext': {
    title: 'Site served over unencrypted HTTP',
    cwe: 'CWE-319',
    owasp: A02,
    family: 'transport',
    cvss: 'CVSS:3.1/AV:A/AC:H/PR:N/UI:R/S:U/C:H/I:L/A:N',
    remediation: 'Serve the site over HTTPS only and redirect every HTTP request to HTTPS.',
  },
  'web.transport.no-https-redirect': {
    title: 'HTTP does not redirect to HTTPS',
    cwe: 'CWE-319',
    owasp: A02,
    family: 'transport',
    cvss: 'CVSS:3.1/AV:A/AC:H/PR:N/UI:R/S:U/C:L/I:L/A:N',
    remediation: 'Answer every plain-HTTP request with a 301 redirect to the HTTPS URL, and send HSTS.',
  },
  'web.mixed-content': {
    title: 'HTTPS page loads resources over HTTP (mixed content)',
    cwe: 'CWE-319',
    owasp: A02,
    family: 'transport',
    cvss: 'CVSS:3.1/AV:A/AC:H/PR:N/UI:R/S:U/C:L/I:L/A:N',
    remediation: 'Load every script, style, image and frame over HTTPS (or protocol-relative to the page).',
  },
  'web.disclosure.server-version': {
    title: 'Server software version disclosed',
    cwe: 'CWE-200',
    owasp: A05,
    family: 'hardening',
    cvss: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:L/I:N/A:N',
    remediation:
      'Hide version numbers in the Server header (nginx: server_tokens off; Apache: ServerTokens Prod).',
  },
  'web.disclosure.powered-by': {
    title: 'Framework disclosed in X-Powered-By',
    cwe: 'CWE-200',
    owasp: A05,
    family: 'hardening',
    cvss: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:L/I:N/A:N',
    remediation:
      'Remove the X-Powered-By header (Express: app.disable("x-powered-by"); PHP: expose_php = Off).',
  },
  'web.disclosure.generator': {
    title: 'Generator meta tag discloses software version',
    cwe: 'CWE-200',
    owasp: A05,
    family: 'hardening',
    cvss: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:L/I:N/A:N',
    remediation: 'Remove the <meta name="generator"> tag or its version number.',
  },
  'web.exposed.git': exposed(
    'Git repository exposed',
    'CWE-527',
    'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:N/A:N',
    'Deny access to /.git/ in the web server and deploy build artefacts, not the working tree.',
  ),
  'web.exposed.env': exposed(
    'Environment file (.env) exposed',
    'CWE-538',
    'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:N',
    'Remove .env files from the web root, deny dotfiles in the web server, and rotate every secret it held.',
  ),
  'web.exposed.ds-store': exposed(
    '.DS_Store file exposed',
    'CWE-538',
    'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:L/I:N/A:N',
    'Delete .DS_Store files from the web root and deny dotfiles in the web server.',
  ),
  'web.exposed.backup': exposed(
    'Backup or editor file exposed',
    'CWE-530',
    'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:N/A:N',
    'Remove backup, swap and temporary files from the web root and deny them by extension.',
  ),
  'web.exposed.server-status': exposed(
    'Server status page exposed',
    'CWE-200',
    'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:L/I:N/A:N',
    'Restrict server-status/server-info to administrators (Require ip / auth) or disable the module.',
  ),
  'web.exposed.phpinfo': exposed(
    'phpinfo() page exposed',
    'CWE-200',
    'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:L/I:N/A:N',
    'Delete phpinfo pages from production.',
  ),
  'web.exposed.debug': exposed(
    'Debug page or console exposed',
    'CWE-489',
    'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:L/A:N',
    'Disable debug mode and debug endpoints in production.',
  ),
  'web.directory-listing': exposed(
    'Directory listing enabled',
    'CWE-548',
    'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:L/I:N/A:N',
    'Disable automatic directory indexes (nginx: autoindex off; Apache: Options -Indexes).',
  ),
  'web.cors.reflected-origin': {
    title: 'CORS reflects any Origin with credentials',
    cwe: 'CWE-942',
    owasp: A05,
    family: 'access',
    cvss: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:R/S:U/C:H/I:L/A:N',
    remediation:
      'Allow only an explicit list of trusted origins; never echo the request Origin with Access-Control-Allow-Credentials: true.',
  },
  'web.cors.null-origin': {
    title: 'CORS trusts the null origin',
    cwe: 'CWE-942',
    owasp: A05,
    family: 'access',
    cvss: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:R/S:U/C:H/I:L/A:N',
    remediation: 'Never allow Origin: null (sandboxed iframes and local files send it).',
  },
  'web.xss.reflected': {
    title: 'Reflected cross-site scripting',
    cwe: 'CWE-79',
    owasp: A03,
    family: 'code',
    cvss: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:R/S:C/C:L/I:L/A:N',
    remediation:
      'HTML-encode user input on output (use the template engine auto-escaping) and send a strict CSP.',
  },
  'web.sqli.error': {
    title: 'SQL error disclosed on injected input (possible SQL injection)',
    cwe: 'CWE-89',
    owasp: A03,
    family: 'code',
    cvss: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:N',
    remediation:
      'Use parameterised queries for every database access and hide database errors from responses.',
  },
  'web.open-redirect': {
    title: 'Open redirect',
    cwe: 'CWE-601',
    owasp: A01,
    family: 'code',
    cvss: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:R/S:C/C:L/I:L/A:N',
    remediation:
      'Redirect only to relative paths or an allow-list of hosts; never to a URL taken from the request as is.',
  },
  'web.secret.aws-key': {
    title: 'AWS access key in a response',
    cwe: 'CWE-798',
    owasp: A02,
    family: 'secrets',
    cvss: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:N',
    remediation:
      'Remove the key from the response, revoke it in IAM now, and load credentials from the server environment only.',
  },
  'web.secret.private-key': {
    title: 'Private key in a response',
    cwe: 'CWE-321',
    owasp: A02,
    family: 'secrets',
    cvss: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:N',
    remediation:
      'Remove the key from the web root, replace the key pair and revoke certificates issued for it.',
  },
  'web.secret.token': {
    title: 'API token in a response',
    cwe: 'CWE-798',
    owasp: A02,
    family: 'secrets',
    cvss: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:L/A:N',
    remediation:
      'Remove the token from client-visible content, revoke it with its provider, and proxy calls through the server.',
  },
  'web.vulnerable-library': {
    title: 'Front-end library with known vulnerabilities',
    cwe: 'CWE-1395',
    owasp: A06,
    family: 'patching',
    cvss: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:R/S:C/C:L/I:L/A:N',
    remediation:
      'Upgrade the library to a fixed version (see evidence) and keep front-end dependencies under automated updates.',
  },
  ...injectionRules,
  ...webappFileRules,
} satisfies Record<string, Rule>;

export type WebappRuleId = keyof typeof webappRules;
export const webappFinding = ruleBook<WebappRuleId>(webappRules);
