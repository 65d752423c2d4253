import { describe, expect, it } from 'vitest';

import { bindAccepted, bindRequest, callRequest, reassemble } from './dcerpc.ts';
import { sambaShareEnumAnswer } from './smb-test-data.ts';
import { isDiskShare, parseShareEnum, shareEnumRequest, srvsvcSyntax } from './srvsvc.ts';

const samba = Buffer.from(sambaShareEnumAnswer, 'hex');

const u32 = (...values: number[]) => {
  const b = Buffer.alloc(values.length * 4);
  values.forEach((v, i) => b.writeUInt32LE(v >>> 0, i * 4));
  return b;
};

/** A RESPONSE PDU (C706 §12.6.4.10) carrying stub for call 2. */
function response(stub: Buffer, flags = 3, callId = 2, authLength = 0): Buffer {
  const h = Buffer.alloc(24);
  h.writeUInt8(5, 0);
  h.writeUInt8(2, 2);
  h.writeUInt8(flags, 3);
  h.writeUInt16LE(24 + stub.length, 8);
  h.writeUInt16LE(authLength, 10);
  h.writeUInt32LE(callId, 12);
  return Buffer.concat([h, stub]);
}

describe('NetrShareEnum level 1 in NDR', () => {
  it("reads Samba's answer: names, types, remarks", () => {
    expect(parseShareEnum(samba)).toEqual({
      shares: [
        { name: 'public', type: 0, remark: 'Public files' },
        { name: 'staff', type: 0, remark: '' },
        { name: 'IPC$', type: 0x80000003, remark: 'IPC Service (Samba 4.17.12-Debian)' },
      ],
      total: 3,
      status: 0,
    });
  });

  it('turns every truncation of that answer into an error, never an exception', () => {
    for (let length = 0; length < samba.length; length++) {
      expect(parseShareEnum(samba.subarray(0, length))).toHaveProperty('error');
    }
  });

  it('refuses counts and strings the bytes cannot hold', () => {
    expect(parseShareEnum(u32(1, 1, 0x20000, 0xffffffff, 0x20004))).toEqual({
      error: 'claims 4294967295 shares',
    });
    expect(parseShareEnum(u32(1, 1, 0x20000, 2, 0x20004, 3))).toEqual({
      error: 'share array size differs from its count',
    });
    const entry = u32(1, 1, 0x20000, 1, 0x20004, 1, 0x20008, 0, 0);
    expect(parseShareEnum(Buffer.concat([entry, u32(4, 0, 5), Buffer.alloc(8)]))).toEqual({
      error: 'malformed string',
    });
    expect(parseShareEnum(Buffer.concat([entry, u32(4, 1, 2), Buffer.alloc(8)]))).toEqual({
      error: 'malformed string',
    });
    expect(parseShareEnum(Buffer.concat([entry, u32(0x7fffffff, 0, 0x7fffffff)]))).toEqual({
      error: 'malformed string',
    });
    expect(parseShareEnum(u32(2, 2, 0))).toEqual({ error: 'answered level 2, not 1' });
  });

  it('reads an access-denied answer with no container', () => {
    expect(parseShareEnum(u32(1, 1, 0, 0, 0, 5))).toEqual({ shares: [], total: 0, status: 5 });
  });

  it('asks for level 1 with a unique server name and a zero resume handle', () => {
    const stub = shareEnumRequest('127.0.0.1');
    // \\127.0.0.1 and NUL: 12 UTF-16 code units, already 4-aligned.
    expect(stub.readUInt32LE(4)).toBe(12);
    expect(stub.toString('utf16le', 16, 16 + 22)).toBe('\\\\127.0.0.1');
    expect([...u32(1, 1, 0x20004, 0, 0, 0xffffffff, 0x20008, 0)]).toEqual([...stub.subarray(40)]);
  });

  it('tries disk shares only, not IPC$, print$, printers or administrative shares', () => {
    const share = (name: string, type: number) => ({ name, type, remark: '' });
    expect(isDiskShare(share('public', 0))).toBe(true);
    expect(isDiskShare(share('IPC$', 0x80000003))).toBe(false);
    expect(isDiskShare(share('IPC$', 0))).toBe(false);
    expect(isDiskShare(share('C$', 0x80000000))).toBe(false);
    expect(isDiskShare(share('print$', 0))).toBe(false);
    expect(isDiskShare(share('laser', 1))).toBe(false);
  });
});

describe('DCE/RPC over the pipe', () => {
  it('binds SRVSVC 3.0 with NDR, little-endian UUID fields', () => {
    const bind = bindRequest(1, srvsvcSyntax);
    expect(bind.readUInt16LE(8)).toBe(bind.length);
    expect(bind.subarray(32, 52).toString('hex')).toBe('c84f324b7016d30112785a47bf6ee18803000000');
  });

  it('accepts a BIND_ACK only when its one result is acceptance, and survives short ones', () => {
    const ack = Buffer.alloc(60);
    ack.writeUInt8(5, 0);
    ack.writeUInt8(12, 2);
    ack.writeUInt16LE(4, 24); // secondary address "\0" padded: 26 + 4 = 30, results at 32
    ack.writeUInt8(1, 32);
    expect(bindAccepted(ack)).toBe(true);
    ack.writeUInt16LE(2, 36); // provider rejection
    expect(bindAccepted(ack)).toBe(false);
    ack.writeUInt16LE(0xffff, 24);
    expect(bindAccepted(ack)).toBe(false);
    for (let length = 0; length < 38; length++) {
      expect(bindAccepted(ack.subarray(0, length))).toBe(false);
    }
  });

  it('joins fragments, strips an authentication trailer, waits for the last fragment', () => {
    const first = response(Buffer.from('abcd'), 1);
    const last = response(Buffer.concat([Buffer.from('efgh'), Buffer.alloc(12)]), 2, 2, 4);
    expect(reassemble(first, 2)).toEqual({ state: 'more' });
    expect(reassemble(Buffer.concat([first, last.subarray(0, 10)]), 2)).toEqual({ state: 'more' });
    expect(reassemble(Buffer.concat([first, last]), 2)).toEqual({
      state: 'done',
      stub: Buffer.from('abcdefgh'),
    });
  });

  it('refuses what is not our answer: another call, a short header, a fault', () => {
    expect(reassemble(response(Buffer.alloc(4), 3, 9), 2)).toMatchObject({ state: 'bad' });
    const short = response(Buffer.alloc(0));
    short.writeUInt16LE(16, 8);
    expect(reassemble(short, 2)).toMatchObject({ state: 'bad' });
    const fault = response(u32(0x1c010003));
    fault.writeUInt8(3, 2);
    expect(reassemble(fault, 2)).toEqual({ state: 'fault', status: 0x1c010003 });
    const trailer = response(Buffer.alloc(4), 3, 2, 100);
    expect(reassemble(trailer, 2)).toMatchObject({ state: 'bad' });
  });

  it('sends opnum 15 with the stub length as allocation hint', () => {
    const request = callRequest(2, 15, Buffer.alloc(40));
    expect([request.readUInt32LE(16), request.readUInt16LE(22), request.readUInt16LE(8)]).toEqual([
      40, 15, 64,
    ]);
  });
});
