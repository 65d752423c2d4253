// Databases that let anyone in: MySQL/MariaDB with an anonymous account or root without a password,
// PostgreSQL trusting the network (pg_hba "trust"); CouchDB is in couchdb.ts. Each login is tried with
// no password at all, and proven by one harmless read that the evidence names (SELECT CURRENT_USER(),
// SELECT version()). No password is ever guessed.
import net from 'node:net';

import type { RowDataPacket } from 'mysql2';

import type { Finding } from '../../../shared/findings.ts';
import type { CheckContext } from './check-context.ts';
import { slowServiceMs } from './identify.ts';
import { infrastructureFinding } from './rules.ts';

const loginMs = (ctx: CheckContext) => Math.max(ctx.timing.firstByteMs * 4, slowServiceMs);

/** What an empty-password login as `user` gave: the account SELECT CURRENT_USER() named, or why not. */
type MysqlLogin = { account: string } | 'refused' | 'no answer';

async function mysqlEmptyLogin(ctx: CheckContext, user: string): Promise<MysqlLogin> {
  // Our own socket: mysql2 only half-closes its own, and a server that greets and then stays silent
  // must neither hold the scan nor keep a connection open.
  // The database drivers load with the first database a scan meets, not with every scan.
  const { createConnection } = await import('mysql2');
  const socket = net.connect({ host: ctx.address, port: ctx.port });
  socket.on('error', () => undefined);
  const connection = createConnection({ stream: socket, user, password: '' });
  connection.on('error', () => undefined);
  let timedOut = false;
  const stop = () => {
    timedOut = true;
    socket.destroy();
  };
  const timer = setTimeout(stop, loginMs(ctx));
  ctx.signal?.addEventListener('abort', stop, { once: true });
  try {
    const [rows] = await connection
      .promise()
      .query<RowDataPacket[]>({ sql: 'SELECT CURRENT_USER() AS account', timeout: loginMs(ctx) });
    return { account: String(rows[0]?.account ?? '') };
  } catch {
    // Access denied (the expected answer), or a server that hung up or stayed silent.
    return timedOut ? 'no answer' : 'refused';
  } finally {
    clearTimeout(timer);
    ctx.signal?.removeEventListener('abort', stop);
    socket.destroy();
  }
}

export async function mysqlFindings(ctx: CheckContext): Promise<Finding[]> {
  // One after the other: two failed logins at once look like an attack to some intrusion filters.
  const anonymous = await mysqlEmptyLogin(ctx, '');
  const root = anonymous === 'no answer' ? anonymous : await mysqlEmptyLogin(ctx, 'root');
  const findings: Finding[] = [];
  if (typeof anonymous === 'object') {
    findings.push(
      infrastructureFinding('infra.mysql.anonymous', {
        location: ctx.location,
        evidence: `logged in with an empty user name and no password; SELECT CURRENT_USER() answered '${anonymous.account}'`,
      }),
    );
  }
  if (typeof root === 'object') {
    findings.push(
      infrastructureFinding('infra.mysql.empty-root-password', {
        location: ctx.location,
        evidence: `logged in as root with an empty password; SELECT CURRENT_USER() answered '${root.account}'`,
      }),
    );
  }
  return findings;
}

export async function postgresqlFindings(ctx: CheckContext): Promise<Finding[]> {
  const { default: pg } = await import('pg');
  const client = new pg.Client({
    host: ctx.address,
    port: ctx.port,
    user: 'postgres',
    database: 'postgres',
    ssl: false,
    connectionTimeoutMillis: loginMs(ctx),
    query_timeout: loginMs(ctx),
    application_name: 'vigil-scanner',
    // Guard: a server that asks for a password gets none. Without this, pg would send PGPASSWORD or
    // a ~/.pgpass entry of the machine running the scan to the target.
    password: () => {
      throw new Error('the server asked for a password');
    },
  });
  client.on('error', () => undefined);
  const abort = () => void client.end().catch(() => undefined);
  ctx.signal?.addEventListener('abort', abort, { once: true });
  try {
    await client.connect();
    const result = await client.query<{ version: string }>('SELECT version()');
    return [
      infrastructureFinding('infra.postgresql.trust', {
        location: ctx.location,
        evidence: `logged in as postgres to database postgres without a password (the server sent AuthenticationOk); SELECT version() answered '${result.rows[0]?.version ?? ''}'`,
      }),
    ];
  } catch {
    // A password request, "no pg_hba.conf entry", or a server that hung up: no trust login here.
    return [];
  } finally {
    ctx.signal?.removeEventListener('abort', abort);
    await client.end().catch(() => undefined);
  }
}
