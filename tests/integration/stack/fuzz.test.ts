// docs/product.md §17.6: bad input gets a clear 4xx, never a 500, a dropped connection or a hang. A few thousand
// generated requests over REST (tables, select, filters, order, paging, bodies, Prefer, RPC), auth, storage
// and functions, from a seeded generator so that a failure reproduces: the failing request and the seed
// are printed (VIGIL_TEST_FUZZ_SEED=<seed> runs the same requests again).
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningStack } from '../../../server/stack.ts';
import { budget } from '../../helpers/budget.ts';
import { startTestStack } from '../../helpers/stack.ts';
import { signedInUser, type TestUser } from '../../helpers/users.ts';

const SEED = Number(process.env.VIGIL_TEST_FUZZ_SEED ?? Date.now() % 1_000_000_007);
const PER_AREA = 700;
const TIMEOUT_MS = 15_000;

/** mulberry32: small, fast, good enough to drive a fuzzer reproducibly. */
function prng(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (n: number) => Math.floor(next() * n);
  const pick = <T>(xs: readonly T[]): T => xs[int(xs.length)]!;
  return { next, int, pick, chance: (p: number) => next() < p };
}
type Rng = ReturnType<typeof prng>;

const TABLES = [
  'agent_roles',
  'pricing_plans',
  'profiles',
  'user_settings',
  'security_events',
  'scan_targets',
  'findings',
  'monitoring_metrics',
  'report_configurations',
  'jobs',
  'nope',
  'pg_catalog.pg_class',
  '"weird name"',
  'agent_roles;drop',
];
const COLUMNS = [
  'id',
  'name',
  'price_monthly',
  'description',
  'user_id',
  'created_at',
  'status',
  'value',
  'metadata',
  'features',
  'nope',
  '*',
];
const OPERATORS = [
  'eq',
  'neq',
  'gt',
  'gte',
  'lt',
  'lte',
  'like',
  'ilike',
  'match',
  'imatch',
  'in',
  'is',
  'isdistinct',
  'fts',
  'plfts',
  'phfts',
  'wfts',
  'cs',
  'cd',
  'ov',
  'sl',
  'sr',
  'nxr',
  'nxl',
  'adj',
  'not.eq',
  'not.in',
  'any',
  'all',
  'eq(any)',
  'like(all)',
  'bogus',
];
const FUNCTIONS = [
  'application-logger',
  'two-factor-auth',
  'security-scanner-integration',
  'security-tool-orchestration',
  'create-checkout-session',
  'billing-portal',
  'stripe-webhook',
  'nope',
  '..',
  'a'.repeat(300),
];
const RPCS = [
  'billing_summary',
  'request_report',
  'resolve_security_event',
  'mark_recommendation_implemented',
  'is_time_zone',
  'agent_coverage',
  'claim_jobs',
  'nope',
];

/** Text that tends to break parsers and databases: NUL, unicode, quotes, long runs, numbers, dates. */
function nastyText(r: Rng): string {
  const pieces = [
    '',
    '\u0000',
    'a\u0000b',
    "'",
    '"',
    '\\',
    '%',
    '%00',
    '%zz',
    '()',
    '(',
    ')',
    ',',
    '.',
    ':',
    '::',
    '!',
    '->',
    '->>',
    '*',
    'null',
    'true',
    'NaN',
    '-1',
    '1e309',
    '9223372036854775808',
    '2026-13-45',
    '{"a":1}',
    '[1,2',
    '{a,b}',
    '😀',
    '\u202e',
    '\ud800',
    'ǅ',
    '<script>',
    'ab'.repeat(r.int(3) ? 3 : 5000),
    '(a|b)*c',
    '[[:alpha:]]+',
    '\\d{2,}',
    ' ',
    '\t',
    '\n',
  ];
  let out = '';
  const n = 1 + r.int(3);
  for (let i = 0; i < n; i++) {
    out += r.pick(pieces);
  }
  return out;
}

/**
 * encodeURIComponent, and for a lone surrogate the bytes of one (invalid UTF-8: the server must cope). A
 * dot segment is encoded too: a client's URL parser would resolve `.` and `..` before sending.
 */
function enc(text: string): string {
  if (text === '.' || text === '..') {
    return text.replaceAll('.', '%2E');
  }
  return [...text]
    .map((ch) => {
      try {
        return encodeURIComponent(ch);
      } catch {
        return '%ED%A0%80';
      }
    })
    .join('');
}

function nastyJson(r: Rng, depth = 0): unknown {
  const kind = r.int(depth > 3 ? 5 : 8);
  switch (kind) {
    case 0:
      return nastyText(r);
    case 1:
      return r.pick([0, -1, 1.5, 1e308, -1e308, 2 ** 53 + 1, Number.MAX_SAFE_INTEGER]);
    case 2:
      return r.pick([true, false, null]);
    case 3:
      return r.pick(['', 'x', 'a'.repeat(70_000)]);
    case 4:
      return r.pick([{}, [], [[]]]);
    case 5:
      return Array.from({ length: r.int(4) }, () => nastyJson(r, depth + 1));
    default: {
      const o: Record<string, unknown> = {};
      for (let i = 0; i < r.int(5); i++) {
        o[
          r.chance(0.7)
            ? r.pick([
                ...COLUMNS,
                'email',
                'password',
                'data',
                'action',
                'toolType',
                'target',
                'code',
                'challenge_id',
                'factor_type',
                'type',
                'token',
                'token_hash',
                'refresh_token',
                'level',
                'message',
              ])
            : nastyText(r)
        ] = nastyJson(r, depth + 1);
      }
      return o;
    }
  }
}

function bodyText(r: Rng): string {
  const v = r.int(10);
  if (v === 0) {
    return '{"unterminated": ';
  }
  if (v === 1) {
    return '\u0000';
  }
  if (v === 2) {
    return 'not json at all';
  }
  return JSON.stringify(nastyJson(r));
}

function selectParam(r: Rng, depth = 0): string {
  const items: string[] = [];
  for (let i = 0; i < 1 + r.int(3); i++) {
    const v = r.int(10);
    if (v < 4) {
      items.push(
        r.pick(COLUMNS) + (r.chance(0.2) ? `::${r.pick(['text', 'int', 'json', 'nope', 'int4[]'])}` : ''),
      );
    } else if (v < 6 && depth < 3) {
      items.push(
        `${r.pick(TABLES)}${r.chance(0.3) ? `!${r.pick(['inner', 'left', 'fk_nope', 'user_id'])}` : ''}(${selectParam(r, depth + 1)})`,
      );
    } else if (v < 7) {
      items.push(`${r.pick(['count()', 'id.count()', 'price_monthly.sum()', 'x.avg()'])}`);
    } else if (v < 8) {
      items.push(`alias:${r.pick(COLUMNS)}`);
    } else {
      items.push(nastyText(r));
    }
  }
  return items.join(',');
}

/** Real tables and their columns, so that many requests get past the parser to the database. */
const SCHEMA: Record<string, string[]> = {
  agent_roles: [
    'id',
    'name',
    'description',
    'role_type',
    'price_monthly',
    'features',
    'display_order',
    'created_at',
  ],
  pricing_plans: ['id', 'name', 'tier', 'description', 'price_monthly', 'features', 'created_at'],
  profiles: ['id', 'full_name', 'company_name', 'industry_type', 'created_at'],
  security_events: [
    'id',
    'user_id',
    'event_type',
    'description',
    'severity',
    'status',
    'details',
    'created_at',
  ],
  scan_targets: ['id', 'kind', 'value', 'openapi_url', 'verified_at', 'rate_limit', 'created_at'],
  report_configurations: [
    'id',
    'name',
    'report_type',
    'schedule_type',
    'is_enabled',
    'time_zone',
    'next_run_at',
  ],
  monitoring_metrics: ['id', 'metric_name', 'value', 'metadata', 'timestamp'],
};

/** A request a client could plausibly send: a real table, real columns, real operators, nasty values. */
function plausibleRestRequest(r: Rng): FuzzRequest {
  const table = r.pick(Object.keys(SCHEMA));
  const cols = SCHEMA[table]!;
  const q = new URLSearchParams();
  q.set('select', Array.from({ length: 1 + r.int(3) }, () => r.pick(cols)).join(','));
  for (let i = 0; i < 1 + r.int(3); i++) {
    const col = r.pick(cols) + (r.chance(0.15) ? r.pick(['->a', '->>a', '->0']) : '');
    const op = r.pick(OPERATORS);
    const value = r.chance(0.2) ? `(${nastyText(r)},${nastyText(r)})` : nastyText(r);
    q.append(col, `${op}.${value}`);
  }
  if (r.chance(0.4)) {
    q.set('order', `${r.pick(cols)}.${r.pick(['asc', 'desc'])}.${r.pick(['nullsfirst', 'nullslast'])}`);
  }
  if (r.chance(0.3)) {
    q.set('limit', String(r.int(5)));
  }
  const method = r.pick(['GET', 'GET', 'HEAD', 'POST', 'PATCH', 'DELETE']);
  const row: Record<string, unknown> = {};
  for (let i = 0; i < 1 + r.int(3); i++) {
    row[r.pick(cols)] = nastyJson(r, 3);
  }
  return {
    method,
    path: `/rest/v1/${table}?${q.toString()}`,
    headers: {
      ...(method === 'POST' || method === 'PATCH' ? { 'content-type': 'application/json' } : {}),
      ...(r.chance(0.5)
        ? { prefer: r.pick(['return=representation', 'count=exact', 'return=minimal']) }
        : {}),
    },
    body:
      method === 'POST' || method === 'PATCH' ? JSON.stringify(r.chance(0.3) ? [row, row] : row) : undefined,
    auth: r.pick(['anon', 'user', 'user', 'service']),
  };
}

function restRequest(r: Rng): FuzzRequest {
  if (r.chance(0.5)) {
    return plausibleRestRequest(r);
  }
  const table = r.pick(TABLES);
  const q = new URLSearchParams();
  if (r.chance(0.7)) {
    q.set('select', selectParam(r));
  }
  for (let i = 0; i < r.int(4); i++) {
    q.append(r.chance(0.8) ? r.pick(COLUMNS) : nastyText(r), `${r.pick(OPERATORS)}.${nastyText(r)}`);
  }
  if (r.chance(0.3)) {
    q.set('or', `(${r.pick(COLUMNS)}.${r.pick(OPERATORS)}.${nastyText(r)},${nastyText(r)})`);
  }
  if (r.chance(0.3)) {
    q.set(
      'order',
      `${r.pick(COLUMNS)}.${r.pick(['asc', 'desc', 'nullsfirst', 'x'])}${r.chance(0.3) ? '.nullslast' : ''}`,
    );
  }
  if (r.chance(0.3)) {
    q.set(r.pick(['limit', 'offset']), r.pick(['0', '-1', '10', 'abc', '99999999999999999999', '1.5']));
  }
  if (r.chance(0.1)) {
    q.set('on_conflict', r.pick([...COLUMNS, nastyText(r)]));
  }
  if (r.chance(0.1)) {
    q.set('columns', r.pick([...COLUMNS, nastyText(r)]));
  }
  const method = r.pick(['GET', 'GET', 'GET', 'HEAD', 'POST', 'PATCH', 'DELETE', 'PUT', 'OPTIONS']);
  const rpc = r.chance(0.15);
  const target = rpc ? `/rest/v1/rpc/${enc(r.pick([...RPCS, nastyText(r)]))}` : `/rest/v1/${enc(table)}`;
  const headers: Record<string, string> = {};
  if (r.chance(0.3)) {
    headers.prefer = r.pick([
      'return=representation',
      'return=minimal',
      'count=exact',
      'count=planned',
      'count=estimated',
      'resolution=merge-duplicates',
      'missing=default',
      'tx=rollback',
      'handling=strict',
      'params=single-object',
      nastyText(r),
    ]);
  }
  if (r.chance(0.15)) {
    headers.accept = r.pick([
      'text/csv',
      'application/vnd.pgrst.object+json',
      'application/geo+json',
      'application/vnd.pgrst.plan',
      'x/y',
      '*/*;q=0',
    ]);
  }
  if (r.chance(0.1)) {
    headers.range = r.pick(['0-9', '5-1', 'items=0-1', 'bytes=x', '-1']);
  }
  if (r.chance(0.1)) {
    headers['accept-profile'] = r.pick(['public', 'private', 'auth', nastyText(r)]);
  }
  return {
    method,
    path: `${target}?${q.toString()}`,
    headers: {
      ...headers,
      ...(method === 'GET' || method === 'HEAD' || method === 'DELETE'
        ? {}
        : {
            'content-type': r.pick(['application/json', 'text/plain', 'application/x-www-form-urlencoded']),
          }),
    },
    body:
      method === 'GET' || method === 'HEAD' || method === 'DELETE' || method === 'OPTIONS'
        ? undefined
        : bodyText(r),
    auth: r.pick(['anon', 'user', 'service']),
  };
}

function authRequest(r: Rng): FuzzRequest {
  const routes: [string, string][] = [
    ['POST', '/auth/v1/signup'],
    [
      'POST',
      `/auth/v1/token?grant_type=${enc(r.pick(['password', 'refresh_token', 'pkce', 'id_token', '', nastyText(r)]))}`,
    ],
    ['POST', '/auth/v1/recover'],
    ['POST', '/auth/v1/otp'],
    ['POST', '/auth/v1/resend'],
    [
      'GET',
      `/auth/v1/verify?token=${enc(nastyText(r))}&type=${enc(r.pick(['signup', 'recovery', 'magiclink', 'email_change', 'invite', nastyText(r)]))}&redirect_to=${enc(r.pick(['http://localhost:5173', 'javascript:alert(1)', nastyText(r)]))}`,
    ],
    ['POST', '/auth/v1/verify'],
    ['GET', '/auth/v1/user'],
    ['PUT', '/auth/v1/user'],
    ['POST', `/auth/v1/logout?scope=${enc(r.pick(['global', 'local', 'others', nastyText(r)]))}`],
    ['POST', '/auth/v1/factors'],
    [
      'POST',
      `/auth/v1/factors/${enc(r.pick(['00000000-0000-0000-0000-000000000000', nastyText(r)]))}/challenge`,
    ],
    [
      'POST',
      `/auth/v1/factors/${enc(r.pick(['00000000-0000-0000-0000-000000000000', nastyText(r)]))}/verify`,
    ],
    ['DELETE', `/auth/v1/factors/${enc(nastyText(r))}`],
    [
      'GET',
      `/auth/v1/admin/users?page=${enc(r.pick(['', '1', '-1', 'x', nastyText(r)]))}&per_page=${enc(r.pick(['', '50', '0', '100000']))}`,
    ],
    ['POST', '/auth/v1/admin/users'],
    ['PUT', `/auth/v1/admin/users/${enc(nastyText(r))}`],
    ['POST', '/auth/v1/admin/generate_link'],
    ['GET', '/auth/v1/reauthenticate'],
    ['GET', `/auth/v1/${enc(nastyText(r))}`],
    ['GET', '/auth/v1/settings'],
  ];
  const [method, path] = r.pick(routes);
  return {
    method: r.chance(0.1) ? r.pick(['PATCH', 'DELETE', 'PUT', 'POST', 'GET']) : method,
    path,
    headers: { 'content-type': 'application/json' },
    body: method === 'GET' ? undefined : bodyText(r),
    auth: r.pick(['anon', 'user', 'service', 'bad']),
  };
}

function storageRequest(r: Rng): FuzzRequest {
  // A bucket of the fuzzer's own: with the service key it may delete what it finds, and the product's
  // 'reports' bucket is shared with the suites that run after this one on PostgreSQL.
  const bucket = r.pick(['fuzz', 'nope', '..', '', nastyText(r)]);
  const object = r
    .pick(['x.pdf', 'a/b/c.pdf', '../../etc/passwd', '%2e%2e/x', 'a\u0000b', 'a'.repeat(2000), nastyText(r)])
    .split('/')
    .map(enc)
    .join('/');
  const routes: [string, string][] = [
    ['GET', '/storage/v1/bucket'],
    ['POST', '/storage/v1/bucket'],
    ['GET', `/storage/v1/bucket/${enc(bucket)}`],
    ['PUT', `/storage/v1/bucket/${enc(bucket)}`],
    ['DELETE', `/storage/v1/bucket/${enc(bucket)}`],
    ['POST', `/storage/v1/object/${enc(bucket)}/${object}`],
    ['PUT', `/storage/v1/object/${enc(bucket)}/${object}`],
    ['GET', `/storage/v1/object/${enc(bucket)}/${object}`],
    ['GET', `/storage/v1/object/authenticated/${enc(bucket)}/${object}`],
    ['GET', `/storage/v1/object/public/${enc(bucket)}/${object}`],
    ['GET', `/storage/v1/object/sign/${enc(bucket)}/${object}?token=${enc(nastyText(r))}`],
    ['POST', `/storage/v1/object/sign/${enc(bucket)}/${object}`],
    ['POST', `/storage/v1/object/sign/${enc(bucket)}`],
    ['POST', `/storage/v1/object/list/${enc(bucket)}`],
    ['DELETE', `/storage/v1/object/${enc(bucket)}`],
    ['POST', '/storage/v1/object/move'],
    ['POST', '/storage/v1/object/copy'],
    ['GET', `/storage/v1/object/info/${enc(bucket)}/${object}`],
    ['POST', `/storage/v1/object/upload/sign/${enc(bucket)}/${object}`],
    ['PUT', `/storage/v1/object/upload/sign/${enc(bucket)}/${object}?token=${enc(nastyText(r))}`],
  ];
  const [method, path] = r.pick(routes);
  const json =
    method === 'POST' &&
    (path.includes('/sign') ||
      path.includes('/list') ||
      path.endsWith('/bucket') ||
      path.includes('/move') ||
      path.includes('/copy'));
  return {
    method,
    path,
    headers: {
      'content-type': json
        ? 'application/json'
        : r.pick(['application/pdf', 'text/csv', 'application/octet-stream', 'x/y', '']),
      ...(r.chance(0.2) ? { 'x-upsert': r.pick(['true', 'false', 'maybe']) } : {}),
      ...(r.chance(0.2) ? { 'cache-control': nastyText(r) } : {}),
    },
    body: method === 'GET' || method === 'DELETE' ? undefined : json ? bodyText(r) : nastyText(r),
    auth: r.pick(['anon', 'user', 'service']),
  };
}

function functionRequest(r: Rng): FuzzRequest {
  const name = r.pick(FUNCTIONS);
  return {
    method: r.pick(['POST', 'POST', 'POST', 'GET', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'HEAD']),
    path: `/functions/v1/${enc(name)}${r.chance(0.1) ? `/${enc(nastyText(r))}` : ''}`,
    headers: {
      'content-type': r.pick(['application/json', 'text/plain', 'application/x-www-form-urlencoded']),
      ...(name === 'stripe-webhook' && r.chance(0.5) ? { 'stripe-signature': nastyText(r) } : {}),
      ...(r.chance(0.2)
        ? { origin: r.pick(['http://localhost:5173', 'https://evil.example', nastyText(r)]) }
        : {}),
    },
    body: bodyText(r),
    auth: r.pick(['anon', 'user', 'service', 'bad', 'none']),
  };
}

interface FuzzRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: string | undefined;
  auth: 'anon' | 'user' | 'service' | 'bad' | 'none';
}

interface Ctx {
  stack: RunningStack;
  user: TestUser;
}

let ctx: Ctx;
let webDir = '';
beforeAll(async () => {
  // A web build of its own: paths outside the API (a `..` resolved by the server's URL parser) reach the
  // web app, which would otherwise answer 503 "not built" in a checkout without one.
  webDir = await mkdtemp(path.join(tmpdir(), 'vigil-fuzz-web-'));
  await writeFile(path.join(webDir, 'index.html'), '<!doctype html><title>Vigil</title>');
  const stack = await startTestStack({ webDir });
  ctx = { stack, user: await signedInUser(stack, `fuzz-${Date.now()}@example.com`) };
  await stack.ctx.db.query(
    `insert into storage.buckets (id, name, public) values ('fuzz', 'fuzz', false) on conflict (id) do nothing`,
  );
  console.log(`fuzz seed ${SEED} (VIGIL_TEST_FUZZ_SEED=${SEED} repeats these requests)`);
  // A stack started and a user signed up: seconds on a quiet machine, over a minute at load 15.
}, budget(10_000));
afterAll(async () => {
  await ctx?.stack.close();
  await rm(webDir, { recursive: true, force: true });
});

/** Header values fetch refuses to send (a NUL or a newline): the request is sent without that header. */
// eslint-disable-next-line no-control-regex -- the point: NUL and newlines cannot go in a header value
const sendable = (v: string) => !/[\u0000\r\n]/.test(v) && !/[^\u0000-\u00ff]/.test(v);

/**
 * One request over a raw HTTP/1.1 connection: node:http sends the path exactly as generated (fetch would
 * resolve `..` and `%2E%2E` segments first, so the server would never see them).
 */
async function send(req: FuzzRequest): Promise<{ status: number } | { failure: string }> {
  const { stack, user } = ctx;
  const keys = {
    anon: stack.status.anon_key,
    user: stack.status.anon_key,
    service: stack.status.service_role_key,
    bad: 'x.y.z',
    none: '',
  };
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(req.headers)) {
    if (sendable(v)) {
      headers[k] = v;
    }
  }
  if (req.auth !== 'none') {
    headers.apikey = keys[req.auth];
  }
  if (req.auth === 'user') {
    headers.authorization = `Bearer ${user.accessToken}`;
  } else if (req.auth === 'bad') {
    headers.authorization = 'Bearer x.y.z';
  }
  const body =
    req.method === 'GET' || req.method === 'HEAD' || req.body === undefined ? null : Buffer.from(req.body);
  if (body) {
    headers['content-length'] = String(body.length);
  }
  const url = new URL(stack.url);
  return new Promise((resolve) => {
    const request = http.request(
      {
        host: url.hostname,
        port: url.port,
        method: req.method,
        path: req.path,
        headers,
        timeout: TIMEOUT_MS,
      },
      (res) => {
        res.on('data', () => undefined);
        res.on('end', () => resolve({ status: res.statusCode ?? 0 }));
        res.on('error', (e) => resolve({ failure: `response: ${e.message}` }));
      },
    );
    request.on('timeout', () => {
      request.destroy();
      resolve({ failure: `no answer within ${TIMEOUT_MS} ms` });
    });
    request.on('error', (e: NodeJS.ErrnoException) => resolve({ failure: `${e.code ?? ''} ${e.message}` }));
    request.end(body ?? undefined);
  });
}

const describeRequest = (req: FuzzRequest) =>
  JSON.stringify({
    ...req,
    body:
      req.body && req.body.length > 300 ? `${req.body.slice(0, 300)}… (${req.body.length} chars)` : req.body,
  });

describe(`fuzzing every service (seed ${SEED})`, () => {
  it.each([
    ['REST', restRequest],
    ['auth', authRequest],
    ['storage', storageRequest],
    ['functions', functionRequest],
  ] as const)(
    '%s answers every generated request with a status below 500, without a reset or a hang',
    async (area, generate) => {
      const r = prng(SEED + area.length * 7919);
      const problems: string[] = [];
      const statuses = new Map<number, number>();
      for (let i = 0; i < PER_AREA && problems.length < 5; i++) {
        const req = generate(r);
        const outcome = await send(req);
        if ('status' in outcome) {
          statuses.set(outcome.status, (statuses.get(outcome.status) ?? 0) + 1);
        }
        if ('failure' in outcome) {
          problems.push(`#${i} ${outcome.failure}\n    ${describeRequest(req)}`);
        } else if (outcome.status >= 500) {
          problems.push(`#${i} HTTP ${outcome.status}\n    ${describeRequest(req)}`);
        }
      }
      console.log(
        `${area}: ${[...statuses]
          .sort((a, b) => a[0] - b[0])
          .map(([s, n]) => `${s}×${n}`)
          .join(' ')}`,
      );
      expect(problems, `seed ${SEED}`).toEqual([]);
      // The requests reached the handlers: answers of several kinds, successes among them.
      expect([...statuses.keys()].some((s) => s >= 400)).toBe(true);
      expect([...statuses.keys()].some((s) => s < 300)).toBe(true);
    },
    240_000,
  );
});
