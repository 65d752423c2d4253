import { RestError } from '../errors.ts';
import { closest, NAME_HINT_MIN_SCORE } from '../fuzzy.ts';
import type { SchemaCache } from '../schema-cache.ts';
import type { FnArg, RestFunction } from '../introspection.ts';
import { ident, qualified, type Params } from '../sql.ts';

/**
 * How a POST body reaches a function: named arguments (a JSON object, or null for GET parameters and
 * form fields), or whole as its one argument (text/plain, text/xml, application/octet-stream).
 */
export type BodyKind = 'json' | 'text' | 'xml' | 'bytea' | null;

/** The single-argument type a raw body of each kind may be passed as (PostgREST's findProc). */
const RAW_TYPES: Record<'json' | 'text' | 'xml' | 'bytea', readonly string[]> = {
  json: ['json', 'jsonb'],
  text: ['text'],
  xml: ['xml'],
  bytea: ['bytea'],
};

/** A body that is only ever one argument: it names no parameters. */
const onlyRaw = (body: BodyKind) => body === 'text' || body === 'xml' || body === 'bytea';

const required = (f: RestFunction) => f.inArgs.slice(0, f.inArgs.length - f.defaults);
const optional = (f: RestFunction) => f.inArgs.slice(f.inArgs.length - f.defaults);
const names = (args: FnArg[]) => new Set(args.map((a) => a.name));
const sameSet = (a: Set<string>, b: Set<string>) => a.size === b.size && [...a].every((x) => b.has(x));

/** PostgREST's findProc: the overload whose parameters the given keys name exactly (required ⊆ keys ⊆ all). */
function matchesKeys(f: RestFunction, keys: Set<string>, body: BodyKind): boolean {
  if (f.inArgs.length === 0) {
    return keys.size === 0 && !onlyRaw(body);
  }
  const opt = names(optional(f));
  return sameSet(new Set([...keys].filter((k) => !opt.has(k))), names(required(f)));
}

const takesRawBody = (f: RestFunction, body: BodyKind) =>
  body !== null && f.inArgs.length === 1 && RAW_TYPES[body].includes(f.inArgs[0]!.type);

function notFound(cache: SchemaCache, name: string, keys: string[], body: BodyKind): RestError {
  const fn = `${cache.schema}.${name}`;
  const sorted = [...keys].sort();
  const raw = onlyRaw(body);
  const params = sorted.length === 0 ? ' without parameters' : `(${sorted.join(', ')})`;
  const withParams =
    sorted.length === 0
      ? ' without parameters'
      : ` with parameter${sorted.length > 1 ? 's' : ''} ${sorted.join(', ')}`;
  const searched = raw
    ? ` with a single unnamed ${body} parameter`
    : body === 'json'
      ? `${withParams} or with a single unnamed json/jsonb parameter`
      : withParams;
  const overloads = cache.functions.get(name) ?? [];
  const list = (ks: string[]) => `(${[...ks].sort().join(', ')})`;
  const suggestion =
    overloads.length === 0
      ? closest([...cache.functions.keys()], name, NAME_HINT_MIN_SCORE)
      : (() => {
          const best = closest(
            overloads.map((f) => list(f.inArgs.map((a) => a.name))),
            list(sorted),
          );
          return best === null ? null : `${name}${best}`;
        })();
  return new RestError(
    'PGRST202',
    `Could not find the function ${fn}${raw ? '' : params} in the schema cache`,
    `Searched for the function ${fn}${searched}, but no matches were found in the schema cache.`,
    raw || suggestion === null
      ? null
      : `Perhaps you meant to call the function ${cache.schema}.${suggestion}`,
  );
}

/** Fewer parameters first, then by parameter names and types (PostgREST's order of overloads). */
const signature = (f: RestFunction) => f.inArgs.map((a) => `${a.name}\u0001${a.type}`).join('\u0000');
const byArity = (a: RestFunction, b: RestFunction) =>
  a.inArgs.length - b.inArgs.length ||
  (signature(a) < signature(b) ? -1 : signature(a) > signature(b) ? 1 : 0);

/**
 * Picks the overload a call means, as PostgREST does: the one whose named parameters the keys match, else
 * (POST only) the one taking the raw body as its single argument; PGRST202 none, PGRST203 several.
 */
export function chooseFunction(
  cache: SchemaCache,
  name: string,
  keys: string[],
  body: BodyKind,
): RestFunction {
  const overloads = [...(cache.functions.get(name) ?? [])].sort(byArity);
  const keySet = new Set(keys);
  const named = overloads.filter((f) => matchesKeys(f, keySet, body));
  const chosen = named.length > 0 ? named : overloads.filter((f) => takesRawBody(f, body));
  if (chosen.length === 0) {
    throw notFound(cache, name, keys, body);
  }
  if (chosen.length > 1) {
    throw new RestError(
      'PGRST203',
      `Could not choose the best candidate function between: ${chosen.map((f) => `${cache.schema}.${name}(${f.inArgs.map((a) => `${a.name} => ${a.type}`).join(', ')})`).join(', ')}`,
      null,
      'Try renaming the parameters or the function itself in the database so function overloading can be resolved',
    );
  }
  return chosen[0]!;
}

/**
 * The call: with named arguments typed by json_to_record with the declared types (from pg_catalog),
 * or with the raw body as the one argument. Every value is a bind parameter, never SQL text.
 */
export function callSql(
  cache: SchemaCache,
  fn: RestFunction,
  args: Record<string, unknown>,
  rawBody: string | Uint8Array | null,
  params: Params,
): { from: string; call: string } {
  const name = qualified(cache.schema, fn.name);
  // A lone unnamed parameter takes the body as sent, or a GET's parameters as one JSON object (PostgREST's
  // OnePosParam), whichever way the call found the function.
  if (fn.inArgs.length === 1 && fn.inArgs[0]!.name === '') {
    const whole = rawBody ?? JSON.stringify(args);
    return { from: '', call: `${name}(${params.add(whole)}::${fn.inArgs[0]!.type})` };
  }
  const given = fn.inArgs.filter((a) => a.name in args);
  if (given.length === 0) {
    return { from: '', call: `${name}()` };
  }
  const record = `json_to_record(${params.add(JSON.stringify(args))}::json) as pgrst_args(${given.map((a) => `${ident(a.name)} ${a.type}`).join(', ')})`;
  const call = given.map(
    (a) => `${a.mode === 'v' ? 'variadic ' : ''}${ident(a.name)} := pgrst_args.${ident(a.name)}`,
  );
  return { from: record, call: `${name}(${call.join(', ')})` };
}
