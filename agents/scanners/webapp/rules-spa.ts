// Rules of what only a rendering, logging-in crawl can see: the API a single-page app calls, its answers'
// headers, what the login session protects (or fails to), and what the app's JavaScript gives away.
import type { Rule } from '../core/rule.ts';

const A01 = 'A01:2021 Broken Access Control';
const A02 = 'A02:2021 Cryptographic Failures';
const A03 = 'A03:2021 Injection';
const A04 = 'A04:2021 Insecure Design';
const A05 = 'A05:2021 Security Misconfiguration';
const A07 = 'A07:2021 Identification and Authentication Failures';

export const spaRules = {
  'web.auth.no-login-rate-limit': {
    title: 'Login form without a limit on failed attempts',
    cwe: 'CWE-307',
    owasp: A07,
    family: 'access',
    cvss: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:L/I:L/A:N',
    remediation:
      'Limit failed logins per account and per client address (express-rate-limit or @fastify/rate-limit on the login route, nginx limit_req, a WAF rule): answer 429 with Retry-After, slow down, or ask for a CAPTCHA after a few failures, and alert on bursts.',
  },
  'web.auth.no-reset-rate-limit': {
    title: 'Password-reset form without a limit on requests',
    cwe: 'CWE-307',
    owasp: A07,
    family: 'access',
    cvss: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:N/I:L/A:L',
    remediation:
      'Limit password-reset requests per account and per client address (express-rate-limit or @fastify/rate-limit on the reset route, nginx limit_req, a WAF rule): answer 429 with Retry-After or ask for a CAPTCHA after a few requests, send at most one reset e-mail per account in a window, and alert on bursts.',
  },
  'web.csrf.missing-token': {
    title: 'Form open to cross-site request forgery (no token, session cookie sent cross-site)',
    cwe: 'CWE-352',
    owasp: A01,
    family: 'access',
    cvss: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:R/S:U/C:N/I:H/A:N',
    remediation:
      "Give every state-changing form an anti-forgery token bound to the session and check it on the server (csrf-csrf or csrf-sync for Express, @fastify/csrf-protection, your framework's built-in protection), and set SameSite=Lax or Strict on the session cookie as a second line.",
  },
  'web.csrf.json-simple-request': {
    title:
      'JSON API open to cross-site request forgery (a text/plain request with the session cookie is accepted)',
    cwe: 'CWE-352',
    owasp: A01,
    family: 'access',
    cvss: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:R/S:U/C:N/I:H/A:N',
    remediation:
      "Parse JSON only from requests whose Content-Type is application/json (express.json() and most parsers do by default: remove a type: '*/*' or text/plain option), so that another site's page must ask first and CORS refuses it; check an anti-forgery token or the Origin header on every state-changing request, and set SameSite=Lax or Strict on the session cookie.",
  },
  'web.api.nosniff-missing': {
    title: 'API responses without X-Content-Type-Options: nosniff',
    cwe: 'CWE-693',
    owasp: A05,
    family: 'hardening',
    cvss: 'CVSS:3.1/AV:N/AC:H/PR:N/UI:R/S:U/C:L/I:N/A:N',
    remediation:
      'Send X-Content-Type-Options: nosniff on every API response, so that browsers never read JSON as HTML or script.',
  },
  'web.api.cache-control-missing': {
    title: 'Logged-in API responses may be cached',
    cwe: 'CWE-525',
    owasp: A04,
    family: 'leakage',
    cvss: 'CVSS:3.1/AV:N/AC:H/PR:N/UI:R/S:U/C:L/I:N/A:N',
    remediation:
      "Send Cache-Control: no-store on responses that carry a user's data, so that browsers and proxies do not keep them.",
  },
  'web.auth.api-without-session': {
    title: 'API the app calls only when logged in answers without a session',
    cwe: 'CWE-306',
    owasp: A07,
    family: 'access',
    cvss: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:N/A:N',
    remediation:
      "Check the session (cookie or token) on every API route that serves a user's data, server-side, before anything else; deny by default.",
  },
  'web.auth.idor': {
    title: "Another user's record readable by changing its id (IDOR)",
    cwe: 'CWE-639',
    owasp: A01,
    family: 'access',
    cvss: 'CVSS:3.1/AV:N/AC:L/PR:L/UI:N/S:U/C:H/I:N/A:N',
    remediation:
      'Authorise every object access against the logged-in user (owner or role), not only the login; prefer unguessable ids as a second line.',
  },
  'web.auth.jwt-unverified': {
    title: 'JSON Web Token accepted without a valid signature',
    cwe: 'CWE-347',
    owasp: A02,
    family: 'access',
    cvss: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:N',
    remediation:
      'Verify every token\'s signature with a fixed algorithm list (never "none", never the algorithm the token names) before reading its claims.',
  },
  'web.auth.jwt-unsigned': {
    title: 'The app issues JSON Web Tokens without a signature ("alg": "none")',
    cwe: 'CWE-347',
    owasp: A02,
    family: 'access',
    cvss: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:N',
    remediation:
      'Sign every token the app issues (RS256, ES256 or EdDSA with a private key, or HS256 with a random key of 32 bytes or more) and verify with a fixed algorithm list that never contains "none".',
  },
  'web.auth.jwt-weak-secret': {
    title: 'The app signs JSON Web Tokens with a well-known key',
    cwe: 'CWE-798',
    owasp: A02,
    family: 'secrets',
    cvss: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:N',
    remediation:
      'Replace the signing key with one of 32 random bytes or more (openssl rand -base64 48) kept out of the source, or move to an asymmetric algorithm (RS256, ES256, EdDSA); every token signed with the old key must then be refused.',
  },
  'web.auth.session-cookie-forgeable': {
    title: 'Session cookie signed with a well-known key: anyone can write a session',
    cwe: 'CWE-798',
    owasp: A02,
    family: 'secrets',
    cvss: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:N',
    remediation:
      "Set the app's secret key to 32 random bytes or more (python -c 'import secrets; print(secrets.token_hex(32))', openssl rand -base64 48), kept out of the source and read from the environment or a secrets store: Flask's SECRET_KEY, cookie-session's and Koa's keys. Every session signed with the old key is then refused; keep sessions server-side where they carry roles.",
  },
  'web.auth.cookie-weak-secret': {
    title: 'The app signs its cookies with a well-known key',
    cwe: 'CWE-798',
    owasp: A02,
    family: 'secrets',
    cvss: 'CVSS:3.1/AV:N/AC:H/PR:N/UI:R/S:U/C:L/I:L/A:N',
    remediation:
      "Set the cookie-signing secret (express-session's and cookie-parser's secret) to 32 random bytes or more (openssl rand -base64 48), kept out of the source and read from the environment or a secrets store; list the old secret after the new one for a while if live sessions must survive the change.",
  },
  'web.api.password-hashes': {
    title: "API answer gives a logged-in user accounts' passwords or password hashes",
    cwe: 'CWE-200',
    owasp: A01,
    family: 'access',
    cvss: 'CVSS:3.1/AV:N/AC:L/PR:L/UI:N/S:U/C:H/I:N/A:N',
    remediation:
      "Never send a password or its hash to a client: select only the fields the page shows (Sequelize attributes, Mongoose select('-password'), a serializer or DTO that leaves the hash out, toJSON that deletes it), and check the caller's role on user-listing endpoints.",
  },
  'web.auth.predictable-reset-token': {
    title: 'Password-reset token computed from the account name',
    cwe: 'CWE-640',
    owasp: A07,
    family: 'access',
    cvss: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:N',
    remediation:
      'Make each reset token 32 random bytes or more (crypto.randomBytes, secrets.token_urlsafe), store only its hash with the account and an expiry of an hour or less, accept it once, and look the account up by the token, never by a name the link carries.',
  },
  'web.auth.token-in-storage': {
    title: 'Session token kept in web storage, readable by any script on the site',
    cwe: 'CWE-922',
    owasp: A04,
    family: 'secrets',
    cvss: 'CVSS:3.1/AV:N/AC:H/PR:N/UI:R/S:U/C:H/I:L/A:N',
    remediation:
      'Keep the session in an HttpOnly, Secure, SameSite cookie instead of localStorage or sessionStorage, so that one injected script cannot steal it.',
  },
  'web.xss.dom': {
    title: 'DOM-based cross-site scripting: the page writes a URL value into its HTML',
    cwe: 'CWE-79',
    owasp: A03,
    family: 'code',
    cvss: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:R/S:C/C:L/I:L/A:N',
    remediation:
      "Write values taken from the URL (query, hash route) with textContent or the framework's escaping bindings; never pass them to innerHTML, document.write, jQuery .html(), Angular's bypassSecurityTrustHtml or React's dangerouslySetInnerHTML (sanitise with DOMPurify where HTML is truly needed), never into location or a frame's src unchecked, and send a strict CSP with Trusted Types.",
  },
  'web.exposed.source-map': {
    title: 'JavaScript source map exposed',
    cwe: 'CWE-540',
    owasp: A05,
    family: 'leakage',
    cvss: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:L/I:N/A:N',
    remediation:
      'Do not deploy .map files to production (or serve them only to your error tracker): they hand out the original source code.',
  },
} satisfies Record<string, Rule>;
