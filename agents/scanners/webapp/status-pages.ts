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

type Extra = Pick<FileProbe, 'cvss' | 'maxBodyBytes'>;
const high = 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:N/A:N';
const heap: Extra = { cvss: high, maxBodyBytes: 64 };
const fpm: Signature = (b) => fpmStatus(b) || fpmJson(b);
const actuatorJson = (key: RegExp): Signature =>
  json((v) => 'contexts' in v && key.test(JSON.stringify(v).slice(0, 5000)));
const status = 'web.exposed.server-status';
const actuator = 'web.exposed.actuator';

/** Path, rule, signature, what the evidence says it is, and what makes it worse than the rule's usual case. */
const pages: [string, WebappRuleId, Signature, string, Extra?][] = [
  [
    'server-status',
    status,
    (b) => apacheStatus(b) || lighttpdStatus(b),
    'server status page (workers, clients and requested URLs)',
  ],
  [
    'server-info',
    status,
    (b) => /Apache Server Information/.test(b),
    'Apache server information (modules and full configuration)',
  ],
  ['server-config', status, lighttpdStatus, 'lighttpd configuration and features'],
  ['server-statistics', status, lighttpdStatus, 'lighttpd module statistics'],
  ...['nginx_status', 'nginx-status', 'stub_status', 'basic_status'].map(
    (path): [string, WebappRuleId, Signature, string] => [
      path,
      status,
      nginxStatus,
      'nginx stub_status counters',
    ],
  ),
  ['status', status, (b) => fpm(b) || nginxStatus(b), 'status page (PHP-FPM pool or nginx counters)'],
  ...['fpm-status', 'php-fpm-status', 'fpm_status'].map((path): [string, WebappRuleId, Signature, string] => [
    path,
    status,
    fpm,
    'PHP-FPM pool status',
  ]),
  ['metrics', 'web.exposed.metrics', prometheus, 'Prometheus metrics'],
  ['actuator/prometheus', 'web.exposed.metrics', prometheus, 'Prometheus metrics of a Spring Boot app'],
  ['actuator/heapdump', actuator, hprof, 'JVM heap dump (HPROF)', heap],
  ['heapdump', actuator, hprof, 'JVM heap dump (HPROF)', heap],
  [
    'actuator/mappings',
    actuator,
    actuatorJson(/dispatcherServlets|mappings/),
    'every request mapping of the application',
  ],
  ['actuator/configprops', actuator, actuatorJson(/"beans"|"properties"/), 'configuration properties'],
  ['actuator/beans', actuator, actuatorJson(/"beans"/), 'application beans'],
  ['actuator/threaddump', actuator, json((v) => Array.isArray(v.threads)), 'thread dump'],
  [
    'actuator/loggers',
    actuator,
    json((v) => Array.isArray(v.levels) && 'loggers' in v),
    'logger levels (writable with POST)',
  ],
  [
    'actuator/httpexchanges',
    actuator,
    json((v) => Array.isArray(v.exchanges)),
    'recent HTTP exchanges (headers, cookies)',
    { cvss: high },
  ],
  [
    'actuator/httptrace',
    actuator,
    json((v) => Array.isArray(v.traces)),
    'recent HTTP requests (headers, cookies)',
    { cvss: high },
  ],
  [
    'actuator/gateway/routes',
    actuator,
    (b) => /^\s*\[\s*\{\s*"route_id"\s*:/.test(b),
    'gateway routes (writable with POST)',
  ],
];

export function statusPageProbes(origin: URL): FileProbe[] {
  return pages.map(([path, rule, signature, what, extra]) => ({
    url: new URL(`/${path}`, origin),
    rule,
    signature,
    describe: () => what,
    ...extra,
  }));
}
