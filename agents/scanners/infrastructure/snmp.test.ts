import dgram from 'node:dgram';

import { afterEach, describe, expect, it } from 'vitest';

import { parseSnmpResponse, snmpDefaultCommunities, snmpGetRequest } from './snmp.ts';

const tlv = (tag: number, body: Buffer) => Buffer.concat([Buffer.from([tag, body.length]), body]);

/** The agent's side: the version, community and request id of a short GetRequest, read by offsets. */
function readRequest(request: Buffer) {
  const version = request[4]!;
  const communityLength = request[6]!;
  const community = request.subarray(7, 7 + communityLength);
  const idAt = 7 + communityLength + 2; // after the PDU's tag and length
  const requestId = request.subarray(idAt, idAt + 2 + request[idAt + 1]!);
  return { version, community, requestId };
}

/** A GetResponse to `request` carrying sysDescr.0 = value, as an agent builds it. */
function responseTo(request: Buffer, value: string): Buffer {
  const { version, community, requestId } = readRequest(request);
  const oid = Buffer.from('06082b06010201010100', 'hex');
  const binding = tlv(0x30, tlv(0x30, Buffer.concat([oid, tlv(0x04, Buffer.from(value))])));
  const pdu = tlv(0xa2, Buffer.concat([requestId, Buffer.from('020100020100', 'hex'), binding]));
  return tlv(0x30, Buffer.concat([Buffer.from([2, 1, version]), tlv(0x04, community), pdu]));
}

const sockets: dgram.Socket[] = [];
afterEach(() => sockets.splice(0).forEach((socket) => socket.close()));

describe('SNMP GetRequest', () => {
  it('encodes sysDescr.0 and reads a GetResponse back', () => {
    const request = snmpGetRequest(1, 'public', 4242);
    expect(request.toString('hex')).toContain('06082b06010201010100'); // OID 1.3.6.1.2.1.1.1.0
    expect(request.toString('latin1')).toContain('public');
    expect(parseSnmpResponse(responseTo(request, 'Linux fixture 6.1'))).toEqual({
      requestId: 4242,
      community: 'public',
      value: 'Linux fixture 6.1',
    });
    expect(parseSnmpResponse(request)).toBeNull(); // a GetRequest is no answer
    expect(parseSnmpResponse(Buffer.from('3005020101', 'hex'))).toBeNull();
    expect(parseSnmpResponse(Buffer.alloc(0))).toBeNull();
  });

  it('reports only the communities an agent answers, and gives up on silence within its time', async () => {
    const agent = dgram.createSocket('udp4');
    sockets.push(agent);
    agent.on('message', (message, from) => {
      // Like net-snmp: a wrong community gets no answer at all.
      if (message.includes(Buffer.from('public'))) {
        agent.send(responseTo(message, 'Acme router'), from.port, from.address);
      }
    });
    await new Promise<void>((resolve) => agent.bind(0, '127.0.0.1', resolve));
    const port = agent.address().port;
    const started = Date.now();
    const answers = await snmpDefaultCommunities('127.0.0.1', port, 800);
    expect(answers.map((a) => `${a.community} ${a.version} ${a.sysDescr}`).sort()).toEqual([
      'public SNMPv1 Acme router',
      'public SNMPv2c Acme router',
    ]);
    expect(Date.now() - started).toBeLessThan(1500);
  });

  it('answers nothing for a closed port within its time, and nothing at all when the scan is stopped', async () => {
    const closed = dgram.createSocket('udp4');
    await new Promise<void>((resolve) => closed.bind(0, '127.0.0.1', resolve));
    const port = closed.address().port;
    closed.close();
    const started = Date.now();
    expect(await snmpDefaultCommunities('127.0.0.1', port, 600)).toEqual([]);
    expect(Date.now() - started).toBeLessThan(1500);
    expect(await snmpDefaultCommunities('127.0.0.1', port, 3000, AbortSignal.abort())).toEqual([]);
  });
});
