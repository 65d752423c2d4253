// Rules of the web scanner's injection probes and endpoint discovery (OWASP Top 10 2021 categories),
// spread into the scanner's table in rules.ts.
import type { Rule } from '../core/rule.ts';

const A01 = 'A01:2021 Broken Access Control';
const A03 = 'A03:2021 Injection';
const A05 = 'A05:2021 Security Misconfiguration';
const A08 = 'A08:2021 Software and Data Integrity Failures';

const sqlInjection = (technique: string): Rule => ({
  title: `SQL injection (${technique})`,
  cwe: 'CWE-89',
  owasp: A03,
  family: 'code',
  cvss: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:N',
  remediation:
    'Pass every value to the database as a bound parameter (prepared statements, or the ORM query builder), never by building SQL text from input; give the application a database account that may only read and write what it needs.',
});

export const injectionRules = {
  'web.sqli.boolean': sqlInjection('boolean-based blind'),
  'web.sqli.time': sqlInjection('time-based blind'),
  'web.nosqli': {
    title: 'NoSQL injection (query operators in parameters)',
    cwe: 'CWE-943',
    owasp: A03,
    family: 'code',
    cvss: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:N',
    remediation:
      'Never pass a parsed request value to the database as a filter as is: check its type (a string or a number, not an object), cast it (String(value)), or validate the body against a schema; strip keys starting with `$` (express-mongo-sanitize, mongo-sanitize) and turn on strict query filters in the ODM.',
  },
  'web.path-traversal': {
    title: 'Path traversal: files outside the web root can be read',
    cwe: 'CWE-22',
    owasp: A01,
    family: 'code',
    cvss: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:N/A:N',
    remediation:
      'Map the parameter to a file through a fixed allow-list or an identifier, or resolve the joined path and refuse any result outside the intended folder; never join user input to a path as is.',
  },
  'web.ssti': {
    title: 'Server-side template injection',
    cwe: 'CWE-1336',
    owasp: A03,
    family: 'code',
    cvss: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H',
    remediation:
      'Never build template source from input: render a fixed template and pass the input to it as a variable (auto-escaped); where users must write templates, use a sandboxed engine.',
  },
  'web.code-injection': {
    title: 'Server-side code injection: input runs as code',
    cwe: 'CWE-94',
    owasp: A03,
    family: 'code',
    cvss: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H',
    remediation:
      'Never pass input to eval, Function, the vm module or an interpreter: parse the value with a grammar that only knows what is expected (numbers and operators for a calculator), or use a maintained expression library at its current release (math.js 3.17 or later) with its defaults; vm and old sandboxes (safe-eval, static-eval, notevil) are not security boundaries.',
  },
  'web.deserialization': {
    title: 'Insecure deserialization: data the app is sent runs as code',
    cwe: 'CWE-502',
    owasp: A08,
    family: 'code',
    cvss: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H',
    remediation:
      "Never rebuild objects from what a client sends with a deserializer that can run code or make any type: replace node-serialize (unmaintained, it evaluates functions by design) with JSON.parse, Python's pickle and marshal with JSON, and PyYAML's load with safe_load; data that must come back from the client unchanged (a session, a cart) is kept on the server or signed with a key the client never sees, and checked before it is read.",
  },
  'web.command-injection': {
    title: 'OS command injection',
    cwe: 'CWE-78',
    owasp: A03,
    family: 'code',
    cvss: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H',
    remediation:
      'Do not pass input to a shell: call the program directly with an argument list (execFile, subprocess.run([...]), proc_open with an array), validate the value against a strict pattern, or use a library instead of the command.',
  },
  'web.xxe': {
    title: 'XML external entities resolved: files on the server can be read (XXE)',
    cwe: 'CWE-611',
    owasp: A05,
    family: 'code',
    cvss: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:N/A:N',
    remediation:
      'Parse XML with entity substitution and DTD loading off: drop LIBXML_NOENT and LIBXML_DTDLOAD in PHP, use lxml with resolve_entities=False or defusedxml in Python, and set disallow-doctype-decl (or FEATURE_SECURE_PROCESSING with external entities off) on Java parsers; where no DOCTYPE is expected, refuse documents that have one.',
  },
  'web.api.personal-data': {
    title: 'API returns personal data without authentication',
    cwe: 'CWE-359',
    owasp: A01,
    family: 'access',
    cvss: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:N/A:N',
    remediation:
      'Require authentication and per-record authorisation on the endpoint, and return only the fields the caller needs (never password hashes, tokens or other users’ contact details).',
  },
  'web.graphql.introspection': {
    title: 'GraphQL introspection enabled for anonymous clients',
    cwe: 'CWE-200',
    owasp: A05,
    family: 'hardening',
    cvss: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:L/I:N/A:N',
    remediation:
      'Disable introspection in production (or for unauthenticated clients) and publish the schema to your own developers through another channel.',
  },
} satisfies Record<string, Rule>;
