import { RestError } from '../errors.ts';
import type { RestFunction, SchemaCache } from '../schema-cache.ts';
import { ident, qualified, type Params } from '../sql.ts';

const notFound = (cache: SchemaCache, name: string, keys: string[]) =>
  new RestError(
    404,
    'PGRST202',
    `Could not find the function ${cache.schema}.${name}${keys.length > 0 ? `(${keys.join(', ')})` : ' without parameters'} in the schema cache`,
    `Searched for the function ${cache.schema}.${name}${keys.length > 0 ? ` with parameters ${keys.join(', ')}` : ' without parameters'} or with a single unnamed json/jsonb parameter, but no matches were found in the schema cache.`,
  );

const singleJsonArg = (f: RestFunction) =>
  f.inArgs.length === 1 && f.inArgs[0]!.name === '' && ['json', 'jsonb'].includes(f.inArgs[0]!.type);

/** Picks the overload whose named arguments the request supplies (PGRST202 none, PGRST203 several). */
export function chooseFunction(cache: SchemaCache, name: string, keys: string[]): RestFunction {
  const overloads = cache.functions.get(name) ?? [];
  const matches = overloads.filter((f) => {
    const names = f.inArgs.map((a) => a.name);
    const required = names.slice(0, names.length - f.defaults);
    return keys.every((k) => names.includes(k)) && required.every((r) => keys.includes(r));
  });
  const chosen = matches.length > 0 ? matches : overloads.filter(singleJsonArg);
  if (chosen.length === 0) {
    throw notFound(cache, name, keys);
  }
  if (chosen.length > 1) {
    throw new RestError(
      300,
      'PGRST203',
      `Could not choose the best candidate function between: ${chosen.map((f) => `${cache.schema}.${name}(${f.inArgs.map((a) => `${a.name} => ${a.type}`).join(', ')})`).join(', ')}`,
      null,
      'Try renaming the parameters or the function itself in the database so function overloading can be resolved',
    );
  }
  return chosen[0]!;
}

/**
 * The FROM item that calls the function with named arguments. Arguments arrive as one JSON bind
 * parameter typed by json_to_record with the declared types (from pg_catalog), never as SQL text.
 */
export function callSql(
  cache: SchemaCache,
  fn: RestFunction,
  args: Record<string, unknown>,
  params: Params,
): { from: string; call: string } {
  const name = qualified(cache.schema, fn.name);
  if (fn.inArgs.length === 1 && fn.inArgs[0]!.name === '' && !(fn.inArgs[0]!.name in args)) {
    return { from: '', call: `${name}(${params.add(JSON.stringify(args))}::${fn.inArgs[0]!.type})` };
  }
  const given = fn.inArgs.filter((a) => a.name in args);
  if (given.length === 0) {
    return { from: '', call: `${name}()` };
  }
  const record = `json_to_record(${params.add(JSON.stringify(args))}::json) as pgrst_args(${given.map((a) => `${ident(a.name)} ${a.type}`).join(', ')})`;
  return {
    from: record,
    call: `${name}(${given.map((a) => `${ident(a.name)} := pgrst_args.${ident(a.name)}`).join(', ')})`,
  };
}
