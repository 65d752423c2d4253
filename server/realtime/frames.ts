/**
 * Phoenix channel framing as realtime-js 2.119 speaks it (docs/reference/realtime.md §2): vsn 2.0.0 sends JSON arrays
 * `[join_ref, ref, topic, event, payload]` and kind-3 binary broadcast pushes; vsn 1.0.0 sends JSON objects.
 * The server answers in text frames, plus kind-4 binary frames for binary broadcast payloads.
 */
export type Vsn = '1.0.0' | '2.0.0';

export interface PhxMessage {
  joinRef: string | null;
  ref: string | null;
  topic: string;
  event: string;
  payload: unknown;
}

/** A user broadcast: `payload` is a Buffer when the sender sent raw bytes, else parsed JSON. */
export interface BroadcastPayload {
  type: 'broadcast';
  event: string;
  payload: unknown;
}

export class FrameError extends Error {}

const KIND_USER_BROADCAST_PUSH = 3;
const KIND_USER_BROADCAST = 4;
const ENCODING_BINARY = 0;
const ENCODING_JSON = 1;

const refOrNull = (v: unknown): string | null => {
  if (v === null || v === undefined) {
    return null;
  }
  if (typeof v === 'string' || typeof v === 'number') {
    return String(v);
  }
  throw new FrameError('refs must be strings or null');
};

function fromParts(
  joinRef: unknown,
  ref: unknown,
  topic: unknown,
  event: unknown,
  payload: unknown,
): PhxMessage {
  // Topic and event route the message; anything else there is a malformed frame, not a message.
  if (typeof topic !== 'string' || typeof event !== 'string') {
    throw new FrameError('topic and event must be strings');
  }
  return { joinRef: refOrNull(joinRef), ref: refOrNull(ref), topic, event, payload: payload ?? {} };
}

function decodeText(text: string, vsn: Vsn): PhxMessage {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new FrameError('frame is not JSON');
  }
  if (vsn === '2.0.0') {
    if (!Array.isArray(parsed) || parsed.length !== 5) {
      throw new FrameError('a vsn 2.0.0 frame is a 5-element array');
    }
    const [joinRef, ref, topic, event, payload] = parsed as unknown[];
    return fromParts(joinRef, ref, topic, event, payload);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new FrameError('a vsn 1.0.0 frame is a JSON object');
  }
  const o = parsed as Record<string, unknown>;
  return fromParts(o.join_ref, o.ref, o.topic, o.event, o.payload);
}

/** Decodes a kind-3 user broadcast push: [3][joinRefLen][refLen][topicLen][eventLen][metaLen][enc][...]. */
function decodeBinary(buf: Buffer): PhxMessage {
  // Every length below is read from the frame itself; bounds are checked before any slice is trusted.
  if (buf.length < 7 || buf[0] !== KIND_USER_BROADCAST_PUSH) {
    throw new FrameError('unsupported binary frame');
  }
  const lens = [buf[1], buf[2], buf[3], buf[4], buf[5]] as number[];
  const encoding = buf[6];
  let offset = 7;
  const parts = lens.map((len) => {
    if (offset + len > buf.length) {
      throw new FrameError('binary frame shorter than its header says');
    }
    const s = buf.subarray(offset, offset + len).toString('utf8');
    offset += len;
    return s;
  });
  const [joinRef, ref, topic, userEvent] = parts as [string, string, string, string];
  const body = buf.subarray(offset);
  let payload: unknown;
  if (encoding === ENCODING_JSON) {
    try {
      payload = JSON.parse(body.toString('utf8'));
    } catch {
      throw new FrameError('binary broadcast payload is not JSON');
    }
  } else if (encoding === ENCODING_BINARY) {
    payload = Buffer.from(body);
  } else {
    throw new FrameError('unknown payload encoding');
  }
  const broadcast: BroadcastPayload = { type: 'broadcast', event: userEvent, payload };
  return { joinRef: joinRef || null, ref: ref || null, topic, event: 'broadcast', payload: broadcast };
}

export function decodeFrame(data: Buffer, isBinary: boolean, vsn: Vsn): PhxMessage {
  if (isBinary) {
    if (vsn !== '2.0.0') {
      throw new FrameError('binary frames need vsn 2.0.0');
    }
    return decodeBinary(data);
  }
  return decodeText(data.toString('utf8'), vsn);
}

export function encodeFrame(m: PhxMessage, vsn: Vsn): string {
  if (vsn === '2.0.0') {
    return JSON.stringify([m.joinRef, m.ref, m.topic, m.event, m.payload]);
  }
  return JSON.stringify({
    topic: m.topic,
    event: m.event,
    payload: m.payload,
    ref: m.ref,
    join_ref: m.joinRef,
  });
}

/** Kind-4 user broadcast with a raw binary payload: [4][topicLen][eventLen][metaLen][0][topic][event][payload]. */
export function encodeBinaryBroadcast(topic: string, event: string, payload: Buffer): Buffer {
  const t = Buffer.from(topic, 'utf8');
  const e = Buffer.from(event, 'utf8');
  // The client's header fields are uint8; longer names cannot be framed.
  if (t.length > 255 || e.length > 255) {
    throw new FrameError('topic or event longer than 255 bytes');
  }
  return Buffer.concat([
    Buffer.from([KIND_USER_BROADCAST, t.length, e.length, 0, ENCODING_BINARY]),
    t,
    e,
    payload,
  ]);
}
