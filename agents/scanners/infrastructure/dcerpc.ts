// Connection-oriented DCE/RPC PDUs (C706 §12.6, [MS-RPCE] §2.2.2) over a named pipe: BIND one interface
// with the NDR transfer syntax, send a REQUEST, and take the stub of the RESPONSE back from its fragments.
// Little-endian data representation throughout; no authentication (the null session has no key).

const PTYPE = { request: 0, response: 2, fault: 3, bind: 11, bindAck: 12 } as const;
const PFC_FIRST_FRAG = 0x01;
const PFC_LAST_FRAG = 0x02;
/** The fragment size we offer and accept (Windows' default). */
export const maxFragment = 4280;
/** A stub larger than this is not a share list; reassembly stops there. */
const maxStub = 1 << 20;

export interface Syntax {
  uuid: string;
  major: number;
  minor: number;
}

export const ndrSyntax: Syntax = { uuid: '8a885d04-1ceb-11c9-9fe8-08002b104860', major: 2, minor: 0 };

/** A UUID in its wire form: the first three fields little-endian ([MS-DTYP] §2.3.4.2). */
function uuidBytes(uuid: string): Buffer {
  const hex = Buffer.from(uuid.replace(/-/g, ''), 'hex');
  return Buffer.concat([
    Buffer.from(hex.subarray(0, 4)).reverse(),
    Buffer.from(hex.subarray(4, 6)).reverse(),
    Buffer.from(hex.subarray(6, 8)).reverse(),
    hex.subarray(8),
  ]);
}

function syntax(s: Syntax): Buffer {
  const version = Buffer.alloc(4);
  version.writeUInt16LE(s.major, 0);
  version.writeUInt16LE(s.minor, 2);
  return Buffer.concat([uuidBytes(s.uuid), version]);
}

function pdu(type: number, callId: number, body: Buffer): Buffer {
  const h = Buffer.alloc(16);
  h.writeUInt8(5, 0); // version 5.0
  h.writeUInt8(type, 2);
  h.writeUInt8(PFC_FIRST_FRAG | PFC_LAST_FRAG, 3);
  h.writeUInt32LE(0x10, 4); // data representation: little-endian, ASCII, IEEE floats
  h.writeUInt16LE(16 + body.length, 8);
  h.writeUInt32LE(callId, 12);
  return Buffer.concat([h, body]);
}

export function bindRequest(callId: number, abstract: Syntax): Buffer {
  const b = Buffer.alloc(12);
  b.writeUInt16LE(maxFragment, 0); // max transmit fragment
  b.writeUInt16LE(maxFragment, 2); // max receive fragment
  b.writeUInt8(1, 8); // one presentation context
  const context = Buffer.from([0, 0, 1, 0]); // context id 0, one transfer syntax
  return pdu(PTYPE.bind, callId, Buffer.concat([b, context, syntax(abstract), syntax(ndrSyntax)]));
}

/** Whether a BIND_ACK accepted our one presentation context. */
export function bindAccepted(reply: Buffer): boolean {
  if (reply.length < 26 || reply[0] !== 5 || reply[2] !== PTYPE.bindAck) {
    return false;
  }
  // After the 24 bytes of header and sizes: the secondary address (length, string), padded to 4.
  const addressLength = reply.readUInt16LE(24);
  const results = 26 + addressLength + ((4 - ((26 + addressLength) % 4)) % 4);
  return results + 6 <= reply.length && reply[results]! >= 1 && reply.readUInt16LE(results + 4) === 0;
}

/** One REQUEST of a stub small enough for a single fragment (ours are a few dozen bytes). */
export function callRequest(callId: number, opnum: number, stub: Buffer): Buffer {
  const b = Buffer.alloc(8);
  b.writeUInt32LE(stub.length, 0); // allocation hint
  b.writeUInt16LE(opnum, 6);
  return pdu(PTYPE.request, callId, Buffer.concat([b, stub]));
}

export type Reassembly =
  | { state: 'more' }
  | { state: 'done'; stub: Buffer }
  | { state: 'fault'; status: number }
  | { state: 'bad'; why: string };

/**
 * Reads the RESPONSE fragments received so far for callId: the stub once the last fragment is in, "more"
 * while it is not. Every length comes from the server, so each is checked against what is there.
 */
export function reassemble(received: Buffer, callId: number): Reassembly {
  const parts: Buffer[] = [];
  let total = 0;
  for (let at = 0; at < received.length;) {
    if (received.length - at < 16) {
      return { state: 'more' };
    }
    const type = received[at + 2]!;
    const flags = received[at + 3]!;
    const length = received.readUInt16LE(at + 8);
    const authLength = received.readUInt16LE(at + 10);
    if (received[at] !== 5 || length < 24 || received.readUInt32LE(at + 12) !== callId) {
      return { state: 'bad', why: 'not a DCE/RPC answer to our call' };
    }
    if (received.length - at < length) {
      return { state: 'more' };
    }
    if (type === PTYPE.fault) {
      return { state: 'fault', status: length >= 28 ? received.readUInt32LE(at + 24) : 0 };
    }
    // The stub ends before the authentication trailer (8 bytes of header, then the token), if any.
    const end = at + length - (authLength ? authLength + 8 : 0);
    if (type !== PTYPE.response || end < at + 24) {
      return { state: 'bad', why: `unexpected PDU type ${type}` };
    }
    parts.push(received.subarray(at + 24, end));
    total += end - at - 24;
    if (total > maxStub) {
      return { state: 'bad', why: 'answer larger than 1 MiB' };
    }
    if (flags & PFC_LAST_FRAG) {
      return { state: 'done', stub: Buffer.concat(parts) };
    }
    at += length;
  }
  return { state: 'more' };
}
