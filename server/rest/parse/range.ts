import { RestError } from '../errors.ts';
import type { NodeOptions } from './query.ts';

/**
 * The rows a request asks for, as PostgREST 12/13 computes them (ApiRequest getRanges, RangeQuery.hs): the
 * `Range: <first>-[<last>]` header (GET only; any other form is ignored) intersected with limit/offset,
 * then capped by db-max-rows. An empty result is 416 PGRST103, except `limit=0`, which asks for no rows.
 */
interface Interval {
  lower: number;
  /** Inclusive; Infinity when open. */
  upper: number;
}

const ALL: Interval = { lower: 0, upper: Infinity };

const intersect = (a: Interval, b: Interval): Interval => ({
  lower: Math.max(a.lower, b.lower),
  upper: Math.min(a.upper, b.upper),
});

const isEmpty = (r: Interval) => r.lower > r.upper;

function headerRange(header: string | undefined): Interval {
  const m = /^(\d+)-(\d*)$/.exec(header ?? '');
  if (!m) {
    return ALL;
  }
  return { lower: Number(m[1]), upper: m[2] === '' ? Infinity : Number(m[2]) };
}

/** limit/offset as PostgREST merges them: [offset, offset + limit - 1]. */
function queryRange(root: NodeOptions): Interval {
  const offset = root.offset ?? 0;
  if (root.limit === null) {
    return root.offset === null ? ALL : { lower: offset, upper: Infinity };
  }
  return { lower: offset, upper: offset + root.limit - 1 };
}

const rangeError = (details: string) => new RestError('PGRST103', 'Requested range not satisfiable', details);

/**
 * Sets the root's limit and offset to the rows asked for (the Range header applies to GET only; db-max-rows,
 * `maxRows`, to reads and function calls, never to writes).
 */
export function applyTopLevelRange(
  root: NodeOptions,
  method: string,
  header: string | undefined,
  maxRows: number | null,
): void {
  const fromHeader = method === 'GET' ? headerRange(header) : ALL;
  const fromQuery = queryRange(root);
  const limitZero = fromQuery.upper === -1;
  let range = limitZero ? { lower: 0, upper: -1 } : intersect(fromHeader, fromQuery);
  if (isEmpty(range) && !limitZero) {
    throw rangeError(
      isEmpty(fromHeader)
        ? 'The lower boundary must be lower than or equal to the upper boundary in the Range header.'
        : 'Limit should be greater than or equal to zero.',
    );
  }
  if (maxRows !== null) {
    range = intersect(range, { lower: -Infinity, upper: range.lower + maxRows - 1 });
  }
  root.offset = range.lower === 0 ? null : range.lower;
  root.limit = range.upper === Infinity ? null : range.upper - range.lower + 1;
}
