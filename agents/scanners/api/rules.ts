// Rules of the API scanner (OWASP API Security Top 10 2023 categories).
import { ruleBook } from '../core/rule.ts';
import type { Rule } from '../core/rule.ts';

const API2 = 'API2:2023 Broken Authentication';
const API4 = 'API4:2023 Unrestricted Resource Consumption';
const API5 = 'API5:2023 Broken Function Level Authorization';
const API8 = 'API8:2023 Security Misconfiguration';

export const apiRules = {
  'api.auth.missing': {
    title: 'Secured API operation answers without credentials',
    cwe: 'CWE-306',
    owasp: API2,
    family: 'access',
    cvss: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:N/A:N',
    remediation:
      'Enforce authentication in the server for every operation the OpenAPI document marks as secured (middleware on the route, deny by default).',
  },
  'api.method.unsafe-unauthenticated': {
    title: 'State-changing methods allowed on an unauthenticated endpoint',
    cwe: 'CWE-749',
    owasp: API5,
    family: 'access',
    cvss: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:N/I:H/A:N',
    remediation:
      'Require authentication and authorisation for PUT, PATCH and DELETE, and do not advertise methods a route does not serve.',
  },
  'api.method.trace': {
    title: 'HTTP TRACE enabled',
    cwe: 'CWE-693',
    owasp: API8,
    family: 'hardening',
    cvss: 'CVSS:3.1/AV:N/AC:H/PR:N/UI:R/S:U/C:L/I:N/A:N',
    remediation: 'Disable TRACE (and TRACK) in the server or gateway.',
  },
  'api.error.verbose': {
    title: 'Stack trace or internal error details in API response',
    cwe: 'CWE-209',
    owasp: API8,
    family: 'leakage',
    cvss: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:L/I:N/A:N',
    remediation:
      'Return generic error bodies (e.g. RFC 9457 problem details) and log the details server-side only.',
  },
  'api.rate-limit.missing': {
    title: 'No rate limiting on API endpoint',
    cwe: 'CWE-770',
    owasp: API4,
    family: 'availability',
    cvss: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:N/I:N/A:L',
    remediation:
      'Rate-limit per client and per credential (answer 429 with RateLimit / Retry-After headers) at the gateway or in the app.',
  },
  'api.sqli.error': {
    title: 'SQL error disclosed on injected API parameter (possible SQL injection)',
    cwe: 'CWE-89',
    owasp: 'A03:2021 Injection',
    family: 'code',
    cvss: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:N',
    remediation: 'Use parameterised queries for every database access and return generic errors.',
  },
  'api.cors.reflected-origin': {
    title: 'API CORS reflects any Origin with credentials',
    cwe: 'CWE-942',
    owasp: API8,
    family: 'access',
    cvss: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:R/S:U/C:H/I:L/A:N',
    remediation:
      'Allow only an explicit list of trusted origins; never echo the request Origin with credentials.',
  },
  'api.cors.null-origin': {
    title: 'API CORS trusts the null origin',
    cwe: 'CWE-942',
    owasp: API8,
    family: 'access',
    cvss: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:R/S:U/C:H/I:L/A:N',
    remediation: 'Never allow Origin: null.',
  },
  'api.header.nosniff-missing': {
    title: 'JSON responses without X-Content-Type-Options: nosniff',
    cwe: 'CWE-693',
    owasp: API8,
    family: 'hardening',
    cvss: 'CVSS:3.1/AV:N/AC:H/PR:N/UI:R/S:U/C:L/I:N/A:N',
    remediation: 'Send X-Content-Type-Options: nosniff on every API response.',
  },
  'api.header.cache-control-missing': {
    title: 'Authenticated API data cacheable',
    cwe: 'CWE-525',
    owasp: API8,
    family: 'leakage',
    cvss: 'CVSS:3.1/AV:N/AC:H/PR:N/UI:R/S:U/C:L/I:N/A:N',
    remediation: 'Send Cache-Control: no-store on responses that carry per-user or authenticated data.',
  },
} satisfies Record<string, Rule>;

export type ApiRuleId = keyof typeof apiRules;
export const apiFinding = ruleBook<ApiRuleId>(apiRules);
