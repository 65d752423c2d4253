// SNMP over UDP (RFC 3416, RFC 1157): one GetRequest for sysDescr.0 per default community string and
// version. An agent answers only a community it accepts (a wrong one is dropped silently), so any
// GetResponse proves the community. The connect scan is TCP: this is the scanner's only UDP path,
// bounded to the SNMP ports asked for, a few datagrams each.
import { randomInt } from 'node:crypto';
import dgram from 'node:dgram';

import type { Finding } from '../../../shared/findings.ts';
import { tlv } from './ber-tlv.ts';
import { infrastructureFinding } from './rules.ts';

const sysDescr = '1.3.6.1.2.1.1.1.0';
export const snmpCommunities = ['public', 'private'] as const;
const versions = [
  { wire: 1, name: 'SNMPv2c' },
  { wire: 0, name: 'SNMPv1' },
] as const;

function integer(value: number): Buffer {
  const bytes: number[] = [];
  let rest = value;
  do {
    bytes.unshift(rest & 0xff);
    rest = Math.floor(rest / 256);
  } while (rest > 0);
  if (bytes[0]! & 0x80) {
    bytes.unshift(0);
  }
  return tlv(0x02, Buffer.from(bytes));
}

function oid(dotted: string): Buffer {
  const [first, second, ...rest] = dotted.split('.').map(Number);
  const bytes = [first! * 40 + second!];
  for (const arc of rest) {
    const chunk = [arc & 0x7f];
    for (let value = arc >> 7; value > 0; value >>= 7) {
      chunk.unshift((value & 0x7f) | 0x80);
    }
    bytes.push(...chunk);
  }
  return tlv(0x06, Buffer.from(bytes));
}

/** A GetRequest for sysDescr.0. */
export function snmpGetRequest(version: number, community: string, requestId: number): Buffer {
  const varbind = tlv(0x30, Buffer.concat([oid(sysDescr), Buffer.from([0x05, 0x00])]));
  const pdu = tlv(0xa0, Buffer.concat([integer(requestId), integer(0), integer(0), tlv(0x30, varbind)]));
  return tlv(0x30, Buffer.concat([integer(version), tlv(0x04, Buffer.from(community, 'latin1')), pdu]));
}

/** Reads one BER element at `at`: its tag, value and where the next one starts. */
function element(data: Buffer, at: number): { tag: number; value: Buffer; next: number } {
  const tag = data[at]!;
  let length = data[at + 1]!;
  let start = at + 2;
  if (length & 0x80) {
    const count = length & 0x7f;
    if (count < 1 || count > 2) {
      throw new RangeError('BER length out of range');
    }
    length = data.readUIntBE(start, count);
    start += count;
  }
  if (start + length > data.length) {
    throw new RangeError('BER element truncated');
  }
  return { tag, value: data.subarray(start, start + length), next: start + length };
}

const children = (value: Buffer) => {
  const out: { tag: number; value: Buffer }[] = [];
  for (let at = 0; at < value.length;) {
    const item = element(value, at);
    out.push(item);
    at = item.next;
  }
  return out;
};

/** The request id and sysDescr text of a GetResponse, or null for anything else. */
export function parseSnmpResponse(
  data: Buffer,
): { requestId: number; community: string; value: string } | null {
  try {
    const message = element(data, 0);
    const [version, community, pdu] = children(message.value);
    if (message.tag !== 0x30 || version?.tag !== 0x02 || community?.tag !== 0x04 || pdu?.tag !== 0xa2) {
      return null;
    }
    const [requestId, errorStatus, , bindings] = children(pdu.value);
    const value = children(children(bindings!.value)[0]!.value)[1];
    return {
      requestId: requestId!.value.readUIntBE(0, Math.min(requestId!.value.length, 6)),
      community: community.value.toString('latin1'),
      // An error status or a non-string value still proves the community; the text is then empty.
      value:
        errorStatus!.value.readUIntBE(0, 1) === 0 && value?.tag === 0x04 ? value.value.toString('utf8') : '',
    };
  } catch {
    // Guard: a truncated or foreign datagram is no answer.
    return null;
  }
}

export interface SnmpAnswer {
  community: string;
  version: string;
  sysDescr: string;
}

/**
 * Sends the GetRequests to address:port (and once more after a pause, UDP being lossy) and collects
 * the answers within `timeoutMs`, or until every request is answered. Silence is the only answer a
 * closed or filtered UDP port gives (Node does not report ICMP unreachable), so it costs the timeout.
 */
export function snmpDefaultCommunities(
  address: string,
  port: number,
  timeoutMs: number,
  signal?: AbortSignal,
): Promise<SnmpAnswer[]> {
  // Guard: a stopped scan sends nothing.
  if (signal?.aborted) {
    return Promise.resolve([]);
  }
  const requests = new Map<number, { community: string; version: string }>();
  const datagrams = snmpCommunities.flatMap((community) =>
    versions.map((version) => {
      const id = randomInt(1, 0x7fffffff);
      requests.set(id, { community, version: version.name });
      return snmpGetRequest(version.wire, community, id);
    }),
  );
  return new Promise((resolve) => {
    const answers = new Map<number, SnmpAnswer>();
    const socket = dgram.createSocket(address.includes(':') ? 'udp6' : 'udp4');
    const timers: NodeJS.Timeout[] = [];
    const finish = () => {
      timers.forEach(clearTimeout);
      signal?.removeEventListener('abort', finish);
      socket.removeAllListeners();
      socket.on('error', () => undefined);
      socket.close();
      resolve([...answers.values()]);
    };
    const sendAll = () => datagrams.forEach((datagram) => socket.send(datagram));
    socket.on('message', (data) => {
      const reply = parseSnmpResponse(data);
      const request = reply && requests.get(reply.requestId);
      if (reply && request && request.community === reply.community) {
        answers.set(reply.requestId, { ...request, sysDescr: reply.value });
      }
      if (answers.size === datagrams.length) {
        finish();
      }
    });
    // Guard: a socket error (no route, a refused send) ends the probe with what it has.
    socket.on('error', finish);
    signal?.addEventListener('abort', finish, { once: true });
    socket.connect(port, address, () => {
      sendAll();
      timers.push(setTimeout(sendAll, Math.min(400, timeoutMs / 3)), setTimeout(finish, timeoutMs));
    });
  });
}

/** The finding for a UDP port whose agent answers a default community, or none. */
export async function snmpFindings(
  address: string,
  port: number,
  location: string,
  timeoutMs: number,
  signal?: AbortSignal,
): Promise<Finding[]> {
  const answers = await snmpDefaultCommunities(address, port, timeoutMs, signal);
  if (answers.length === 0) {
    return [];
  }
  const accepted = snmpCommunities
    .map((community) => ({ community, versions: answers.filter((a) => a.community === community) }))
    .filter(({ versions }) => versions.length > 0)
    .map(({ community, versions }) => `"${community}" (${versions.map((v) => v.version).join(', ')})`);
  const description = answers.find((a) => a.sysDescr)?.sysDescr;
  return [
    infrastructureFinding('infra.snmp.default-community', {
      location,
      evidence: `GetRequest for sysDescr.0 (${sysDescr}) answered with community ${accepted.join(' and ')}${description ? `: "${description.slice(0, 160)}"` : ''}`,
    }),
  ];
}
