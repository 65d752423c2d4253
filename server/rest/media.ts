import { RestError } from './errors.ts';

/**
 * The Accept header as PostgREST 12/13 reads it: split and ordered by wai-extra's parseHttpAccept (spaces
 * removed, by quality then specificity, ties kept in header order, `;q=` and what follows it dropped), each
 * entry decoded as MediaType.hs decodes it, then the first one with a handler is chosen.
 */
export type PlanOption = 'analyze' | 'verbose' | 'settings' | 'buffers' | 'wal';

type Kind =
  | 'json'
  | 'array-stripped'
  | 'object'
  | 'csv'
  | 'geojson'
  | 'any'
  | 'plan'
  | 'text'
  | 'xml'
  | 'openapi'
  | 'urlencoded'
  | 'octet-stream'
  | 'other';

export interface MediaType {
  kind: Kind;
  /** `nulls=stripped` on an object. */
  stripped: boolean;
  /** The text of an unknown media type, as PostgREST repeats it. */
  text: string;
  plan: { format: 'json' | 'text'; options: PlanOption[]; for: MediaType } | null;
}

const PLAN_OPTIONS: readonly PlanOption[] = ['analyze', 'verbose', 'settings', 'buffers', 'wal'];

const SIMPLE: Record<string, Kind> = {
  'application/json': 'json',
  'application/geo+json': 'geojson',
  'text/csv': 'csv',
  'text/plain': 'text',
  'text/xml': 'xml',
  'application/openapi+json': 'openapi',
  'application/x-www-form-urlencoded': 'urlencoded',
  'application/octet-stream': 'octet-stream',
  '*/*': 'any',
};

const MIME: Partial<Record<Kind, string>> = {
  json: 'application/json',
  'array-stripped': 'application/vnd.pgrst.array+json;nulls=stripped',
  geojson: 'application/geo+json',
  csv: 'text/csv',
  text: 'text/plain',
  xml: 'text/xml',
  openapi: 'application/openapi+json',
  urlencoded: 'application/x-www-form-urlencoded',
  'octet-stream': 'application/octet-stream',
  any: '*/*',
};

/** PostgREST's name for a media type (toMime), used in errors and in a plan's `for`. */
export function toMime(m: MediaType): string {
  if (m.kind === 'object') {
    return `application/vnd.pgrst.object+json${m.stripped ? ';nulls=stripped' : ''}`;
  }
  if (m.plan) {
    const options = m.plan.options.length > 0 ? `; options=${m.plan.options.join('|')}` : '';
    return `application/vnd.pgrst.plan+${m.plan.format}; for="${toMime(m.plan.for)}"${options}`;
  }
  return MIME[m.kind] ?? m.text;
}

/** MediaType.hs tokenizeMediaType: type/subtype and `; key=value` parameters; anything after is ignored. */
function tokenize(text: string): { type: string; params: Map<string, string> } | null {
  const head = /^([A-Za-z0-9.*]+)\/([A-Za-z0-9.*+-]+)/.exec(text);
  if (!head) {
    return null;
  }
  const params = new Map<string, string>();
  const param = /^\s*;\s*([A-Za-z0-9-]+)\s*=\s*(?:"([^"]*)"|([A-Za-z0-9|-]+))/;
  let rest = text.slice(head[0].length);
  for (let m = param.exec(rest); m; m = param.exec(rest)) {
    params.set(m[1]!.toLowerCase(), m[2] ?? m[3]!);
    rest = rest.slice(m[0].length);
  }
  return { type: `${head[1]}/${head[2]}`.toLowerCase(), params };
}

export function decodeMediaType(text: string): MediaType {
  const base: MediaType = { kind: 'other', stripped: false, text, plan: null };
  const t = tokenize(text);
  if (!t) {
    return base;
  }
  const stripped = t.params.get('nulls') === 'stripped';
  const simple = SIMPLE[t.type];
  if (simple) {
    return { ...base, kind: simple };
  }
  if (t.type === 'application/vnd.pgrst.object+json' || t.type === 'application/vnd.pgrst.object') {
    return { ...base, kind: 'object', stripped };
  }
  if (t.type === 'application/vnd.pgrst.array+json' || t.type === 'application/vnd.pgrst.array') {
    return { ...base, kind: stripped ? 'array-stripped' : 'json' };
  }
  const plan = /^application\/vnd\.pgrst\.plan(\+text|\+json)?$/.exec(t.type);
  if (plan) {
    const given = (t.params.get('options') ?? '').split('|');
    return {
      ...base,
      kind: 'plan',
      plan: {
        format: plan[1] === '+json' ? 'json' : 'text',
        options: PLAN_OPTIONS.filter((o) => given.includes(o)),
        for: decodeMediaType(t.params.get('for') ?? 'application/json'),
      },
    };
  }
  return base;
}

/** wai-extra's parseHttpAccept: the entries, best first. */
export function parseAccept(header: string): string[] {
  return header
    .split(',')
    .map((raw, index) => {
      const entry = raw.replace(/ /g, '');
      const at = entry.indexOf(';q=');
      const text = at < 0 ? entry : entry.slice(0, at);
      const q = at < 0 ? null : /^-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/.exec(entry.slice(at + 3));
      const specificity = (text.match(/;/g)?.length ?? 0) - (text.match(/\*/g)?.length ?? 0);
      return { text, q: q ? Number(q[0]) : 1, specificity, index };
    })
    .sort((a, b) => b.q - a.q || b.specificity - a.specificity || a.index - b.index)
    .map((e) => e.text);
}

/** What a response is rendered as. */
export type Representation = 'json' | 'object' | 'csv' | 'geojson';

export interface PlanRequest {
  format: 'json' | 'text';
  options: PlanOption[];
  /** The response Content-Type, as PostgREST names the plan. */
  contentType: string;
}

export interface Negotiated {
  media: Representation;
  stripNulls: boolean;
  plan: PlanRequest | null;
}

/** The representations every table, view and function has (PostgREST's initial media handlers). */
function handled(m: MediaType): Omit<Negotiated, 'plan'> | null {
  switch (m.kind) {
    case 'json':
    case 'any':
      return { media: 'json', stripNulls: false };
    case 'array-stripped':
      return { media: 'json', stripNulls: true };
    case 'object':
      return { media: 'object', stripNulls: m.stripped };
    case 'csv':
      return { media: 'csv', stripNulls: false };
    case 'geojson':
      return { media: 'geojson', stripNulls: false };
    default:
      return null;
  }
}

/**
 * The first acceptable media type (no Accept header: any). A plan is acceptable only while
 * `db-plan-enabled` is on and its `for` is; otherwise PostgREST's 406 PGRST107 names every type asked for.
 */
export function negotiate(accept: string | undefined, planEnabled: boolean): Negotiated {
  const types = accept === undefined ? [decodeMediaType('*/*')] : parseAccept(accept).map(decodeMediaType);
  for (const m of types) {
    if (m.plan) {
      const inner = planEnabled ? handled(m.plan.for) : null;
      if (inner) {
        const { format, options } = m.plan;
        return { ...inner, plan: { format, options, contentType: `${toMime(m)}; charset=utf-8` } };
      }
      continue;
    }
    const found = handled(m);
    if (found) {
      return { ...found, plan: null };
    }
  }
  throw new RestError('PGRST107', `None of these media types are available: ${types.map(toMime).join(', ')}`);
}
