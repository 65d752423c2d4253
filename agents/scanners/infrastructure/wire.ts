// Protocol messages the service probes send: each is the smallest harmless opener of its protocol.
import { BSON } from 'bson';

/** MongoDB OP_MSG carrying one command document (wire protocol, opcode 2013). */
export function mongoCommand(command: Record<string, unknown>, requestId = 1): Buffer {
  const body = Buffer.from(BSON.serialize(command));
  const header = Buffer.alloc(21);
  header.writeInt32LE(21 + body.length, 0);
  header.writeInt32LE(requestId, 4);
  header.writeInt32LE(0, 8);
  header.writeInt32LE(2013, 12);
  header.writeUInt32LE(0, 16);
  header.writeUInt8(0, 20);
  return Buffer.concat([header, body]);
}

/** The command document of an OP_MSG reply, or null when `data` is not one. */
export function parseMongoReply(data: Buffer): Record<string, unknown> | null {
  if (data.length < 26 || data.readInt32LE(12) !== 2013 || data.readUInt8(20) !== 0) {
    return null;
  }
  try {
    return BSON.deserialize(data.subarray(21, data.readInt32LE(0)));
  } catch {
    // Guard: a truncated or foreign reply is "not MongoDB", not a scanner crash.
    return null;
  }
}

/** PostgreSQL SSLRequest: the server answers a single byte, S or N. */
export const postgresSslRequest = Buffer.from([0, 0, 0, 8, 0x04, 0xd2, 0x16, 0x2f]);

/** X.224 Connection Request with an RDP negotiation request (TLS | CredSSP). */
export const rdpConnectionRequest = Buffer.from('030000130ee000000000000100080003000000', 'hex');

/** SMB1 NEGOTIATE offering NT LM 0.12 and SMB 2.x; SMB1 and SMB2 servers both answer it. */
export const smbNegotiate = (() => {
  const dialects = Buffer.concat(
    ['NT LM 0.12', 'SMB 2.002', 'SMB 2.???'].map((d) =>
      Buffer.concat([Buffer.from([2]), Buffer.from(`${d}\0`, 'latin1')]),
    ),
  );
  const header = Buffer.from(
    'ff534d4272000000001853c8000000000000000000000000ffff fffe00000000'.replace(/ /g, ''),
    'hex',
  );
  const words = Buffer.from([0, dialects.length & 0xff, dialects.length >> 8]);
  const smb = Buffer.concat([header, words, dialects]);
  const netbios = Buffer.from([0, 0, smb.length >> 8, smb.length & 0xff]);
  return Buffer.concat([netbios, smb]);
})();

export function httpGet(host: string, path = '/'): string {
  return `GET ${path} HTTP/1.0\r\nHost: ${host}\r\nUser-Agent: Vigil-Scanner/0.1\r\nAccept: */*\r\n\r\n`;
}

/**
 * MySQL initial handshake (protocol 10): the server version, or null. The packet header must agree with
 * what arrived (a length the greeting fits in, sequence 0) and the version must read as one, so that bytes
 * which merely start like a greeting name no database.
 */
export function mysqlGreeting(data: Buffer): string | null {
  if (data.length < 5 || data[3] !== 0) {
    return null;
  }
  const length = data.readUIntLE(0, 3);
  if (length > data.length - 4 || length < 2) {
    return null;
  }
  if (data[4] === 0x0a) {
    const end = data.indexOf(0, 5);
    const version = end > 5 && end < 4 + length ? data.subarray(5, end).toString('latin1') : '';
    return /^\d+\.\d+[\x20-\x7e]{0,80}$/.test(version) ? version : null;
  }
  // An error packet (0xff) such as "Host is not allowed to connect" is MySQL too.
  return data[4] === 0xff && /MySQL|MariaDB|not allowed to connect/i.test(data.toString('latin1'))
    ? 'unknown'
    : null;
}
