// Server status, metrics and management pages at their usual paths: Apache mod_status/mod_info, nginx
// stub_status, lighttpd mod_status, PHP-FPM's pm.status_path, Prometheus exporters and Spring Boot
// actuators. Each is recognised by the page's own format, never by the status code alone.
import type { FileProbe } from './file-probe.ts';
import { looksHtml } from './file-signatures.ts';
import type { WebappRuleId } from './rules.ts';

type Signature = (body: string) => boolean;

const apacheStatus: Signature = (b) =>
  /Apache Server Status for|<dt>Server uptime:|^ServerUptimeSeconds: \d+|^Total Accesses: \d+/m.test(b);
const nginxStatus: Signature = (b) =>
  /^Active connections:\s*\d+\s*$/m.test(b) && /server accepts handled/.test(b);
const lighttpdStatus: Signature = (b) =>
  /<h1>Server-Status \(lighttpd|<th colspan="2">Server-Features<\/th>/.test(b) ||
  (!looksHtml(b) && (b.match(/^[a-z][\w.-]*\.[\w.-]+: \d+$/gm) ?? []).length >= 2);
const fpmStatus: Signature = (b) =>
  /^pool:\s+\S+/m.test(b) && /^process manager:\s+(static|dynamic|ondemand)/m.test(b);
const fpmJson: Signature = (b) => /"pool"\s*:/.test(b) && /"process manager"\s*:/.test(b);
/** The Prometheus text exposition format: HELP and TYPE comments before samples. */
const prometheus: Signature = (b) =>
  !looksHtml(b) &&
  /^# HELP [a-zA-Z_:][\w:]* /m.test(b) &&
  /^# TYPE [a-zA-Z_:][\w:]* (counter|gauge|histogram|summary|untyped)$/m.test(b);
const json =
  (test: (value: Record<string, unknown>) => boolean): Signature =>
  (b) => {
    try {
      const value: unknown = JSON.parse(b);
      return typeof value === 'object' && value !== null && test(value as Record<string, unknown>);
    } catch {
      return false;
    }
  };
/** An HPROF heap dump (what /actuator/heapdump serves): a JVM's whole memory, secrets included. */
const hprof: Signature = (b) => b.startsWith('JAVA PROFILE 1.0.');

interface StatusPage {
  path: string;
  rule: WebappRuleId;
  signature: Signature;
  describe: string;
  cvss?: string;
  maxBodyBytes?: number;
}

const high = 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:N/A:N';

const pages: StatusPage[] = [
  {
    path: 'server-status',
    rule: 'web.exposed.server-status',
    signature: (b) => apacheStatus(b) || lighttpdStatus(b),
    describe: 'server status page (workers, clients and requested URLs)',
  },
  {
    path: 'server-info',
    rule: 'web.exposed.server-status',
    signature: (b) => /Apache Server Information/.test(b),
    describe: 'Apache server information (modules and full configuration)',
  },
  {
    path: 'server-config',
    rule: 'web.exposed.server-status',
    signature: lighttpdStatus,
    describe: 'lighttpd configuration and features',
  },
  {
    path: 'server-statistics',
    rule: 'web.exposed.server-status',
    signature: lighttpdStatus,
    describe: 'lighttpd module statistics',
  },
  {
    path: 'nginx_status',
    rule: 'web.exposed.server-status',
    signature: nginxStatus,
    describe: 'nginx stub_status counters',
  },
  {
    path: 'nginx-status',
    rule: 'web.exposed.server-status',
    signature: nginxStatus,
    describe: 'nginx stub_status counters',
  },
  {
    path: 'stub_status',
    rule: 'web.exposed.server-status',
    signature: nginxStatus,
    describe: 'nginx stub_status counters',
  },
  {
    path: 'basic_status',
    rule: 'web.exposed.server-status',
    signature: nginxStatus,
    describe: 'nginx stub_status counters',
  },
  {
    path: 'status',
    rule: 'web.exposed.server-status',
    signature: (b) => fpmStatus(b) || fpmJson(b) || nginxStatus(b),
    describe: 'status page (PHP-FPM pool or nginx counters)',
  },
  {
    path: 'fpm-status',
    rule: 'web.exposed.server-status',
    signature: (b) => fpmStatus(b) || fpmJson(b),
    describe: 'PHP-FPM pool status',
  },
  {
    path: 'php-fpm-status',
    rule: 'web.exposed.server-status',
    signature: (b) => fpmStatus(b) || fpmJson(b),
    describe: 'PHP-FPM pool status',
  },
  {
    path: 'fpm_status',
    rule: 'web.exposed.server-status',
    signature: (b) => fpmStatus(b) || fpmJson(b),
    describe: 'PHP-FPM pool status',
  },
  { path: 'metrics', rule: 'web.exposed.metrics', signature: prometheus, describe: 'Prometheus metrics' },
  {
    path: 'actuator/prometheus',
    rule: 'web.exposed.metrics',
    signature: prometheus,
    describe: 'Prometheus metrics of a Spring Boot app',
  },
  {
    path: 'actuator/heapdump',
    rule: 'web.exposed.actuator',
    signature: hprof,
    describe: 'JVM heap dump (HPROF)',
    cvss: high,
    maxBodyBytes: 64,
  },
  {
    path: 'heapdump',
    rule: 'web.exposed.actuator',
    signature: hprof,
    describe: 'JVM heap dump (HPROF)',
    cvss: high,
    maxBodyBytes: 64,
  },
  {
    path: 'actuator/mappings',
    rule: 'web.exposed.actuator',
    signature: json(
      (v) => 'contexts' in v && /dispatcherServlets|mappings/.test(JSON.stringify(v).slice(0, 5000)),
    ),
    describe: 'every request mapping of the application',
  },
  {
    path: 'actuator/configprops',
    rule: 'web.exposed.actuator',
    signature: json((v) => 'contexts' in v && /"beans"|"properties"/.test(JSON.stringify(v).slice(0, 5000))),
    describe: 'configuration properties',
  },
  {
    path: 'actuator/beans',
    rule: 'web.exposed.actuator',
    signature: json((v) => 'contexts' in v && /"beans"/.test(JSON.stringify(v).slice(0, 5000))),
    describe: 'application beans',
  },
  {
    path: 'actuator/threaddump',
    rule: 'web.exposed.actuator',
    signature: json((v) => Array.isArray(v.threads)),
    describe: 'thread dump',
  },
  {
    path: 'actuator/loggers',
    rule: 'web.exposed.actuator',
    signature: json((v) => Array.isArray(v.levels) && 'loggers' in v),
    describe: 'logger levels (writable with POST)',
  },
  {
    path: 'actuator/httpexchanges',
    rule: 'web.exposed.actuator',
    signature: json((v) => Array.isArray(v.exchanges)),
    describe: 'recent HTTP exchanges (headers, cookies)',
    cvss: high,
  },
  {
    path: 'actuator/httptrace',
    rule: 'web.exposed.actuator',
    signature: json((v) => Array.isArray(v.traces)),
    describe: 'recent HTTP requests (headers, cookies)',
    cvss: high,
  },
  {
    path: 'actuator/gateway/routes',
    rule: 'web.exposed.actuator',
    signature: (b) => /^\s*\[\s*\{\s*"route_id"\s*:/.test(b),
    describe: 'gateway routes (writable with POST)',
  },
];

export function statusPageProbes(origin: URL): FileProbe[] {
  return pages.map((page) => ({
    url: new URL(`/${page.path}`, origin),
    rule: page.rule,
    signature: page.signature,
    describe: () => page.describe,
    ...(page.cvss ? { cvss: page.cvss } : {}),
    ...(page.maxBodyBytes ? { maxBodyBytes: page.maxBodyBytes } : {}),
  }));
}
