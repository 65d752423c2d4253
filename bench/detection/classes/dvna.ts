// DVNA, the Damn Vulnerable NodeJS Application (appsecco/dvna at 9ba473a: Express 4, Sequelize, MySQL),
// which nobody on the team configured: our scan logged out, and logged in as a regular user, beside wapiti
// (logged out; given the session cookie logged in) and sqlmap (given the user search the running app posts).
// It runs when VIGIL_BENCH_DVNA names a checkout built by bench/detection/dvna-build.sh, on Debian's
// MariaDB (on MySQL's port 3306, inside the bench's private network namespace), and is skipped otherwise:
// it cannot be fetched without the internet.
//
// The planted lists were written from DVNA's source and its own documented solutions (docs/solution/*.md)
// before our scanner ran on it: each problem a black-box scanner can see, with the line that causes it.
// Some have no rule of ours yet (node-serialize, an id in a form that edits another account): they are
// planted all the same and count as misses.
// Header and cookie problems are server-wide: one issue each, at "*", in a class of their own.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

import { runScan } from '../../../agents/scanners/run-scan.ts';
import type { TargetLogin } from '../../../shared/target-login.ts';
import type { PlantedIssue, RunningFixture } from '../../../tests/fixtures/planted.ts';
import { startMariaDb } from '../../../tests/fixtures/web/injection/mariadb.ts';
import { runTool } from '../tool-process.ts';
import type { DetectionFixture, ReferenceTool, ToolRun } from '../types.ts';
import { wapitiScan } from './spa.ts';
import { sqlmapInjectionPoints } from './web-injection.ts';

export const dvnaPort = 18196;
const home = process.env.VIGIL_BENCH_DVNA ?? '';
const node = process.env.VIGIL_BENCH_DVNA_NODE ?? process.execPath;
const bootstrapCdn = 'https://maxcdn.bootstrapcdn.com/bootstrap/3.3.7/js/bootstrap.min.js';
/** The regular user the logged-in scan uses, and the administrator whose records the users API gives it. */
const regular = { login: 'user', password: 'a regular user password 41' };
const admin = { login: 'admin', password: 'the administrator password 97' };

const headers: PlantedIssue[] = [
  // server.js: no helmet, plain HTTP, express-session's cookie without SameSite.
  { rule_id: 'web.transport.cleartext', location: '*' },
  { rule_id: 'web.header.csp-missing', location: '*' },
  { rule_id: 'web.header.referrer-policy-missing', location: '*' },
  { rule_id: 'web.header.permissions-policy-missing', location: '*' },
  { rule_id: 'web.header.nosniff-missing', location: '*' },
  { rule_id: 'web.clickjacking', location: '*' },
  { rule_id: 'web.cookie.samesite-missing', location: '*' },
];

/** What anyone sees: the login, registration and reset pages, and what every page carries. */
const loggedOut: PlantedIssue[] = [
  ...headers,
  // Express's X-Powered-By, left on (docs/solution/a6: "X-Powered-By header").
  { rule_id: 'web.disclosure.powered-by', location: '*' },
  // No NODE_ENV=production: Express's default error handler prints the stack of every error (a6: the
  // calculator's; also a malformed path's URIError and an upload without a file). One cause, wherever seen.
  { rule_id: 'web.error.verbose', location: '*' },
  // server.js: session({ secret: 'keyboard cat' }), express-session's README secret (a2: "Insecure Session Secret").
  { rule_id: 'web.auth.cookie-weak-secret', location: '*' },
  // views/common/head.ejs: jQuery 3.2.1 (CVE-2019-11358, CVE-2020-11022/11023), Bootstrap 3.3.7 (CVE-2019-8331).
  { rule_id: 'web.vulnerable-library', location: '/assets/jquery-3.2.1.min.js' },
  { rule_id: 'web.vulnerable-library', location: bootstrapCdn },
  // routes/main.js: passport's login and the reset request, with no limit at all.
  { rule_id: 'web.auth.no-login-rate-limit', location: '/login' },
  { rule_id: 'web.auth.no-reset-rate-limit', location: '/forgotpw' },
  // routes/app.js: /app/redirect is the one app route without isAuthenticated (ax: unvalidated redirects).
  { rule_id: 'web.open-redirect', location: '/app/redirect?url=' },
];

/**
 * What the logged-out scan (consent to intrusive checks given) found beyond the list above, added after the
 * scan in round three: its form exercise sends DVNA's sign-up form, which logs the browser in as the new
 * account, and the admin page's script then fetches the users API. A true problem, reached as anyone can.
 */
const loggedOutScan: PlantedIssue[] = [
  ...loggedOut,
  { rule_id: 'web.api.nosniff-missing', location: '/app/admin/usersapi' },
];

/** Logged in as a regular user: every page of the app besides. */
const loggedIn: PlantedIssue[] = [
  ...loggedOut,
  // core/appHandler.js userSearch: the login is concatenated into SQL (a1).
  { rule_id: 'web.sqli', location: 'POST /app/usersearch?login=' },
  // ping: exec('ping -c 2 ' + address) (a1).
  { rule_id: 'web.command-injection', location: 'POST /app/ping?address=' },
  // views/app/products.ejs: <%- output.searchTerm %> (a7, reflected) and the products' fields (a7, stored).
  { rule_id: 'web.xss.reflected', location: 'POST /app/products?name=' },
  { rule_id: 'web.xss.stored', location: '/app/modifyproduct' },
  // No anti-forgery token on the product and account forms (ax: CSRF).
  { rule_id: 'web.csrf.missing-token', location: '/app/modifyproduct' },
  { rule_id: 'web.csrf.missing-token', location: '/app/useredit' },
  // Added after a logged-in scan reported them, checked against views/app/*.ejs and appHandler.js: the other
  // POST forms carry no token either, and a cross-site page can submit each in the session. The two imports
  // write products; ping, the calculator and the POST search carry the command injection, mathjs's code
  // execution and the reflected XSS to a victim's session (DVNA's CSRF page names only the two above).
  { rule_id: 'web.csrf.missing-token', location: '/app/bulkproducts' },
  { rule_id: 'web.csrf.missing-token', location: '/app/bulkproductslegacy' },
  { rule_id: 'web.csrf.missing-token', location: '/app/ping' },
  { rule_id: 'web.csrf.missing-token', location: '/app/calc' },
  { rule_id: 'web.csrf.missing-token', location: '/app/products' },
  // calc: mathjs 3.10.1's eval runs code (a9); web.code-injection since round three. (Its stack trace on a bad equation, a6, is
  // the server-wide error handler's, above.)
  { rule_id: 'web.code-injection', location: 'POST /app/calc?eqn=' },
  // listUsersAPI's JSON, fetched by the admin page's script: no nosniff, no no-store on a session's answer.
  { rule_id: 'web.api.nosniff-missing', location: '/app/admin/usersapi' },
  { rule_id: 'web.api.cache-control-missing', location: '/app/admin/usersapi' },
  // bulkProducts: libxmljs with noent: true; the entity's text shows on /app/products (a4).
  { rule_id: 'web.xxe', location: 'POST /app/bulkproducts' },
  // bulkProductsLegacy: node-serialize's unserialize of the upload (a8). No rule yet.
  { rule_id: 'web.deserialization', location: 'POST /app/bulkproductslegacy' },
  // listUsersAPI: every user's whole record, bcrypt hash included, to any logged-in user (a3, a5).
  { rule_id: 'web.api.password-hashes', location: '/app/admin/usersapi' },
  // modifyProduct: Sequelize 4's string operator aliases take id[$ne]=x from the query (qs) as an operator,
  // and another product comes back. Added after our first logged-in scan reported it, checked against
  // appHandler.js and Sequelize 4's default operatorsAliases (DVNA's docs do not list it).
  { rule_id: 'web.nosqli', location: '/app/modifyproduct?id=' },
  // userEditSubmit: the account edited is the form's hidden id, not the session's user (a5).
  { rule_id: 'web.auth.idor', location: 'POST /app/useredit?id=' },
  // core/authHandler.js resetPw: the token is md5(login) (a2: "Insecure Reset Password"). Only an account
  // name makes it visible: logged out, a scan knows none.
  { rule_id: 'web.auth.predictable-reset-token', location: '/resetpw' },
];

const serverWide = new Set([
  ...headers.map((h) => h.rule_id),
  'web.disclosure.powered-by',
  'web.auth.cookie-weak-secret',
  'web.error.verbose',
]);
/** Header problems, counted in a class of their own: the server's and its API answers'. */
const headerRules = new Set([
  ...headers.map((h) => h.rule_id),
  'web.api.nosniff-missing',
  'web.api.cache-control-missing',
]);

/** A finding in the planted lists' terms: server-wide problems at "*", paths without the origin, SQL injection by family. */
function collapse<T extends PlantedIssue>(issue: T): T {
  if (serverWide.has(issue.rule_id)) {
    return { ...issue, location: '*' };
  }
  const rule = issue.rule_id.startsWith('web.sqli.') ? 'web.sqli' : issue.rule_id;
  const location =
    issue.rule_id === 'web.vulnerable-library' && issue.location.startsWith('https://')
      ? issue.location
      : issue.location.replace(/^(POST )?https?:\/\/[^/]+/, '$1');
  return { ...issue, rule_id: rule, location };
}

const key = (issue: PlantedIssue) => `${issue.rule_id} @ ${issue.location}`;

function judge(
  planted: PlantedIssue[],
  found: PlantedIssue[],
  falseRule: (rule: string) => boolean,
): Omit<ToolRun, 'ms'> {
  const keys = new Set(planted.map(key));
  const unique = [...new Map(found.map(collapse).map((f) => [key(f), f])).values()];
  return {
    found: unique.filter((f) => keys.has(key(f))),
    falsePositives: unique.filter((f) => !keys.has(key(f)) && falseRule(f.rule_id)).map(key),
  };
}

const databaseSeed = `
CREATE DATABASE dvna;
CREATE USER 'dvna'@'localhost' IDENTIFIED BY 'dvna-bench-password';
CREATE USER 'dvna'@'127.0.0.1' IDENTIFIED BY 'dvna-bench-password';
GRANT ALL ON dvna.* TO 'dvna'@'localhost';
GRANT ALL ON dvna.* TO 'dvna'@'127.0.0.1';
`;
/** DVNA's models/index.js passes its database host but not its port: MySQL's own, in the bench's namespace. */
const mysqlPort = 3306;
/** Every request of the set-up has a deadline: a DVNA whose database is unreachable never answers. */
const setupRequestMs = 15_000;

async function post(
  target: string,
  path: string,
  form: Record<string, string>,
  cookie = '',
): Promise<Response> {
  return fetch(`${target}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...(cookie ? { cookie } : {}) },
    body: new URLSearchParams(form),
    redirect: 'manual',
    signal: AbortSignal.timeout(setupRequestMs),
  });
}

/** A session cookie of `who`, logged in through DVNA's own form. */
async function logIn(target: string, who: { login: string; password: string }): Promise<string> {
  const answer = await post(target, '/login', { username: who.login, password: who.password });
  const cookie = (answer.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
  if (answer.headers.get('location') !== '/learn' || !cookie) {
    throw new Error(`DVNA: ${who.login} could not log in (HTTP ${answer.status})`);
  }
  return cookie;
}

/** DVNA on a fresh MariaDB: its two users registered through its own form, the admin made one, two products. */
async function startDvna(): Promise<RunningFixture> {
  const db = await startMariaDb(databaseSeed, mysqlPort);
  const child = spawn(node, ['server.js'], {
    cwd: home,
    env: {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      // config/db.js reads these.
      MYSQL_USER: 'dvna',
      MYSQL_PASSWORD: 'dvna-bench-password',
      MYSQL_DATABASE: 'dvna',
      MYSQL_HOST: '127.0.0.1',
      APP_LISTEN: '127.0.0.1',
      APP_PORT: String(dvnaPort),
    },
    stdio: 'ignore',
  });
  const close = async () => {
    child.kill();
    if (child.exitCode === null) {
      await new Promise((resolve) => child.once('exit', resolve));
    }
    await db.close();
  };
  const target = `http://127.0.0.1:${dvnaPort}`;
  try {
    const deadline = Date.now() + 60_000;
    while (
      !(await fetch(`${target}/login`).then(
        (r) => r.ok,
        () => false,
      ))
    ) {
      if (Date.now() > deadline || child.exitCode !== null) {
        throw new Error(`DVNA in ${home} did not start within a minute`);
      }
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    // Sequelize creates the tables just after the server listens.
    const tablesBy = Date.now() + 30_000;
    while (
      !(await runAsAdmin(db.socket, 'SELECT 1 FROM dvna.Users, dvna.Products LIMIT 1;').then(
        () => true,
        () => false,
      ))
    ) {
      if (Date.now() > tablesBy) {
        throw new Error("DVNA's tables were not created within 30 s (is its database reachable?)");
      }
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    for (const who of [admin, regular]) {
      await post(target, '/register', {
        name: who.login === 'admin' ? 'Ada Admin' : 'Ursula User',
        username: who.login,
        email: `${who.login}@dvna.test`,
        password: who.password,
        cpassword: who.password,
      });
    }
    await runAsAdmin(db.socket, "UPDATE dvna.Users SET role = 'admin' WHERE login = 'admin';");
    const adminCookie = await logIn(target, admin);
    for (const [name, code] of [
      ['Playstation 4', 'PS4'],
      ['Nintendo Switch', 'NSW'],
    ] as const) {
      await post(
        target,
        '/app/modifyproduct',
        { name, code, tags: 'gaming', description: `A ${name}.` },
        adminCookie,
      );
    }
  } catch (error) {
    await close();
    throw error;
  }
  return { target, planted: loggedOutScan, close };
}

async function runAsAdmin(socket: string, sql: string): Promise<void> {
  const run = await runTool('mariadb', ['--no-defaults', '-S', socket, '-u', 'root', '-e', sql], {
    timeoutMs: 30_000,
  });
  if (run.code !== 0) {
    throw new Error(`mariadb: ${run.stderr || run.stdout}`);
  }
}

const login = (target: string): TargetLogin => ({
  kind: 'form',
  login_url: `${target}/login`,
  username_field: 'username',
  password_field: 'password',
  username: regular.login,
  password: regular.password,
  logged_in_marker: 'Logout',
});

function wapiti(planted: PlantedIssue[], loggedInAs: boolean): ReferenceTool {
  return {
    name: loggedInAs ? 'wapiti (given the session cookie)' : 'wapiti',
    command: 'wapiti',
    aptPackage: 'wapiti',
    covers: (issue) =>
      [
        'web.header.csp-missing',
        'web.clickjacking',
        'web.header.nosniff-missing',
        'web.xss.reflected',
        'web.xss.stored',
        'web.open-redirect',
        'web.csrf.missing-token',
        'web.command-injection',
        'web.xxe',
      ].includes(issue.rule_id) || issue.rule_id === 'web.sqli',
    async run(fixture) {
      // wapiti 3.0.4 takes a session as a header; it is kept away from the logout link as a person would keep it.
      const extra = loggedInAs
        ? [
            ...['-H', `Cookie: ${await logIn(fixture.target, regular)}`],
            ...['-s', `${fixture.target}/learn`, '-x', `${fixture.target}/logout`],
          ]
        : [];
      const { run, found, toolOnly } = await wapitiScan(fixture.target, extra, 600);
      return {
        ...judge(planted, found, (rule) => /sqli|xss|redirect|command|xxe/.test(rule)),
        toolOnly,
        ms: run.ms,
      };
    },
  };
}

/** sqlmap has no discovery of its own: it is given the user search as the app posts it, in the session. */
const sqlmap: ReferenceTool = {
  name: 'sqlmap --batch --level 2 (given the user search)',
  command: 'sqlmap',
  aptPackage: 'sqlmap',
  covers: (issue) => issue.rule_id === 'web.sqli',
  async run(fixture) {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'vigil-sqlmap-'));
    const cookie = await logIn(fixture.target, regular);
    const run = await runTool(
      'sqlmap',
      [
        ...['-u', `${fixture.target}/app/usersearch`, '--data', 'login=user', '--cookie', cookie],
        ...['--batch', '--level', '2', '--flush-session', '--output-dir', dir, '--disable-coloring'],
      ],
      { timeoutMs: 300_000, env: { ...process.env, HOME: dir } },
    ).finally(() => rm(dir, { recursive: true, force: true }));
    const found = sqlmapInjectionPoints(run.stdout).map((point) => ({
      rule_id: 'web.sqli',
      location: `POST /app/usersearch?${point.param}=`,
    }));
    return { ...judge(loggedIn, found, (rule) => rule === 'web.sqli'), ms: run.ms };
  },
};

const available = home !== '' && existsSync(path.join(home, 'node_modules/libxmljs2'));
if (!available) {
  console.error('dvna: skipped (set VIGIL_BENCH_DVNA to a checkout built by bench/detection/dvna-build.sh)');
}

const classOf = (issue: PlantedIssue) => (headerRules.has(issue.rule_id) ? 'dvna: headers' : 'dvna');

async function ourScan(fixture: RunningFixture, loggedInAs: boolean) {
  const result = await runScan('webapp', {
    target: fixture.target,
    mode: 'local',
    allowIntrusive: true,
    ...(loggedInAs ? { login: login(fixture.target) } : {}),
  });
  const findings = [...new Map(result.findings.map((f) => [key(collapse(f)), collapse(f)])).values()];
  return {
    ...result,
    findings,
    detail: `${result.crawl?.engine ?? 'html'} crawl, login ${result.crawl?.login?.status ?? 'none'}`,
  };
}

export const fixtures: DetectionFixture[] = available
  ? [
      {
        name: 'DVNA (Express 4 + Sequelize + MariaDB), not logged in',
        classOf,
        start: startDvna,
        scan: (f) => ourScan(f, false),
        tools: [wapiti(loggedOutScan, false)],
      },
      {
        name: 'DVNA, logged in as a regular user',
        classOf,
        start: async () => ({ ...(await startDvna()), planted: loggedIn }),
        scan: (f) => ourScan(f, true),
        tools: [wapiti(loggedIn, true), sqlmap],
      },
    ]
  : [];
