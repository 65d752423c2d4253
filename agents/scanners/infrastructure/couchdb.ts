// CouchDB's HTTP API without credentials, on Apache CouchDB and the servers that implement its API
// (PouchDB Server, Couchbase Sync Gateway, Cloudant). Two harmless reads, each the server's own word:
// GET /_session says what an anonymous request is (in "admin party", no admin configured, as CouchDB
// before 3.0 and PouchDB Server start, its roles hold _admin: anyone may read, write, delete and
// reconfigure everything), and GET /_all_dbs lists every database to anyone (CouchDB before 3.0 and
// PouchDB Server do so even once admins exist). Either one is the finding; a server that refuses both
// is silent.
import type { Finding } from '../../../shared/findings.ts';
import type { CheckContext } from './check-context.ts';
import { grab } from './grab.ts';
import { slowServiceMs } from './identify.ts';
import { infrastructureFinding } from './rules.ts';
import { httpGet } from './wire.ts';

/** Status and JSON body of a GET, or null when the answer is not HTTP with a JSON body. */
async function getJson(ctx: CheckContext, path: string): Promise<{ status: number; body: unknown } | null> {
  const text = (
    await grab(ctx.address, ctx.port, httpGet(ctx.host, path), {
      firstByteMs: Math.max(ctx.timing.firstByteMs * 2, slowServiceMs),
      signal: ctx.signal,
    })
  ).toString('utf8');
  const status = /^HTTP\/\d(?:\.\d)? (\d{3})/.exec(text)?.[1];
  const headerEnd = text.search(/\r?\n\r?\n/);
  if (!status || headerEnd < 0) {
    return null;
  }
  try {
    return { status: Number(status), body: JSON.parse(text.slice(headerEnd).trim()) as unknown };
  } catch {
    // Guard: a truncated or HTML body is no proof.
    return null;
  }
}

/** The anonymous user context of GET /_session when it holds the _admin role. */
async function adminParty(ctx: CheckContext): Promise<string | null> {
  const session = await getJson(ctx, '/_session');
  const userCtx = (session?.body as { userCtx?: { name?: unknown; roles?: unknown } } | undefined)?.userCtx;
  if (session?.status !== 200 || !Array.isArray(userCtx?.roles) || !userCtx.roles.includes('_admin')) {
    return null;
  }
  return JSON.stringify({ name: userCtx.name ?? null, roles: userCtx.roles });
}

export async function couchdbFindings(ctx: CheckContext): Promise<Finding[]> {
  const admin = await adminParty(ctx);
  const listing = await getJson(ctx, '/_all_dbs');
  const databases = listing?.status === 200 && Array.isArray(listing.body) ? listing.body : null;
  const proofs = [
    ...(admin
      ? [
          `GET /_session without credentials answered userCtx ${admin}: every anonymous request is server admin (admin party)`,
        ]
      : []),
    ...(databases
      ? [`GET /_all_dbs answered 200 without credentials: ${JSON.stringify(databases).slice(0, 200)}`]
      : []),
  ];
  return proofs.length
    ? [
        infrastructureFinding('infra.couchdb.unauthenticated', {
          location: ctx.location,
          evidence: proofs.join('; '),
        }),
      ]
    : [];
}
