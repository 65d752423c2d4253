// Rules of the web scanner's file, method and server-page checks (docs/scanners/checks.md): WebDAV writes, TRACE,
// status and metrics pages, actuators, robots.txt entries, verbose errors, wildcard CORS on APIs and
// paths advertised in headers. Spread into the scanner's table in rules.ts.
import type { Rule } from '../core/rule.ts';

const A01 = 'A01:2021 Broken Access Control';
const A05 = 'A05:2021 Security Misconfiguration';

export const webappFileRules = {
  'web.exposed.api-docs': {
    title: 'API documentation published to anyone (OpenAPI / Swagger document or UI)',
    cwe: 'CWE-200',
    owasp: A05,
    family: 'leakage',
    cvss: 'CVSS:3.1/AV:N/AC:H/PR:N/UI:N/S:U/C:L/I:N/A:N',
    remediation:
      'Serve the OpenAPI document and its Swagger UI / ReDoc page only to people who need them: leave the route out of production builds (swagger-ui-express, @fastify/swagger-ui, springdoc: springdoc.api-docs.enabled=false) or put it behind authentication; an attacker otherwise gets every endpoint, parameter and model, internal ones included.',
  },
  'web.webdav.write': {
    title: 'Anyone can write files on the server (WebDAV / HTTP PUT)',
    cwe: 'CWE-284',
    owasp: A01,
    family: 'access',
    cvss: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:L/I:H/A:L',
    remediation:
      'Turn WebDAV off where it is not needed (Apache: remove "Dav On"; lighttpd: webdav.activate = "disable"; nginx: no dav_methods) or require authentication for every method but GET, HEAD and OPTIONS, and delete files you did not put there.',
  },
  'web.webdav.listing': {
    title: 'WebDAV lists a collection without authentication (PROPFIND)',
    cwe: 'CWE-548',
    owasp: A01,
    family: 'access',
    cvss: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:L/I:N/A:N',
    remediation:
      'Require authentication for PROPFIND (Apache: <LimitExcept GET HEAD OPTIONS> Require valid-user; lighttpd: auth.require on the WebDAV path) or turn WebDAV off.',
  },
  'web.auth.method-bypass': {
    title: 'Access rule bypassed with another HTTP method',
    cwe: 'CWE-650',
    owasp: A01,
    family: 'access',
    cvss: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:L/I:L/A:N',
    remediation:
      'Apply access rules to every method (Apache: Require outside <Limit>, or <LimitExcept> listing the allowed methods; nginx: limit_except with deny all) and refuse methods the application does not serve.',
  },
  'web.method.trace': {
    title: 'HTTP TRACE enabled (cross-site tracing)',
    cwe: 'CWE-693',
    owasp: A05,
    family: 'hardening',
    cvss: 'CVSS:3.1/AV:N/AC:H/PR:N/UI:R/S:U/C:L/I:N/A:N',
    remediation: 'Disable TRACE (Apache: TraceEnable off; IIS: deny the TRACE verb; proxies: drop it).',
  },
  'web.exposed.metrics': {
    title: 'Prometheus metrics exposed to anyone',
    cwe: 'CWE-200',
    owasp: A05,
    family: 'leakage',
    cvss: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:L/I:N/A:N',
    remediation:
      'Serve /metrics on an internal interface or port only, or behind authentication (node_exporter: --web.config.file with basic auth or TLS client certificates).',
  },
  'web.exposed.actuator': {
    title: 'Spring Boot actuator endpoint exposed',
    cwe: 'CWE-215',
    owasp: A05,
    family: 'leakage',
    cvss: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:L/I:N/A:N',
    remediation:
      'Expose only health and info over HTTP (management.endpoints.web.exposure.include=health,info), move the rest to a management port bound to localhost, and protect it with Spring Security.',
  },
  'web.robots.sensitive-path': {
    title: 'robots.txt names a sensitive path that anyone can open',
    cwe: 'CWE-200',
    owasp: A05,
    family: 'leakage',
    cvss: 'CVSS:3.1/AV:N/AC:H/PR:N/UI:N/S:U/C:L/I:N/A:N',
    remediation:
      'robots.txt is public and hides nothing: protect the path with authentication or remove it from the web root, then drop it from robots.txt.',
  },
  'web.error.verbose': {
    title: 'Error page discloses a stack trace or internals',
    cwe: 'CWE-209',
    owasp: A05,
    family: 'leakage',
    cvss: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:L/I:N/A:N',
    remediation:
      'Show generic error pages in production and log the details server-side (PHP: display_errors = Off; Spring: server.error.include-stacktrace=never; Django/Flask: DEBUG off; Express: NODE_ENV=production).',
  },
  'web.cors.wildcard': {
    title: 'API responses allow any origin (Access-Control-Allow-Origin: *)',
    cwe: 'CWE-942',
    owasp: A05,
    family: 'access',
    cvss: 'CVSS:3.1/AV:N/AC:H/PR:N/UI:R/S:U/C:L/I:N/A:N',
    remediation:
      'Send Access-Control-Allow-Origin only for the origins that need the API (an allow-list echoed per request with Vary: Origin); keep * for data that is truly public.',
  },
  'web.disclosure.header-path': {
    title: 'Response header advertises a path the site does not link',
    cwe: 'CWE-200',
    owasp: A05,
    family: 'leakage',
    cvss: 'CVSS:3.1/AV:N/AC:H/PR:N/UI:N/S:U/C:L/I:N/A:N',
    remediation:
      'Drop debug and internal headers in production (X-Debug-Token-Link, SourceMap, internal Link relations) and protect the paths they named.',
  },
} satisfies Record<string, Rule>;
