// The null-session probe against a scripted SMB2 server on loopback that grants the anonymous session
// and then misbehaves: every answer is bounded, every wait ends, and what was proven stays proven.
import net from 'node:net';
import type { AddressInfo } from 'node:net';

import { afterEach, describe, expect, it } from 'vitest';

import { commonShareNames, noSuchShare } from './smb-hidden-shares.ts';
import { smbNullSession } from './smb-session.ts';
import { sambaShareEnumAnswer } from './smb-test-data.ts';
import { Command } from './smb2-wire.ts';

const servers: net.Server[] = [];
afterEach(() => servers.splice(0).forEach((server) => server.close()));

type Reply = { status?: number; body: Buffer } | 'silence' | Buffer;
type Handler = (command: number, body: Buffer) => Reply | undefined;

function reply(messageId: bigint, command: number, status: number, body: Buffer): Buffer {
  const h = Buffer.alloc(64);
  h.write('\xfeSMB', 0, 'latin1');
  h.writeUInt16LE(64, 4);
  h.writeUInt32LE(status, 8);
  h.writeUInt16LE(command, 12);
  h.writeUInt16LE(1, 14);
  h.writeUInt32LE(1, 16); // a response
  h.writeBigUInt64LE(messageId, 24);
  h.writeUInt32LE(command === Command.treeConnect ? 7 : 0, 36);
  h.writeBigUInt64LE(0x1234n, 40);
  const length = Buffer.alloc(4);
  length.writeUInt32BE(64 + body.length);
  return Buffer.concat([length, h, body]);
}

const sized = (length: number, fill: (b: Buffer) => void) => {
  const b = Buffer.alloc(length);
  fill(b);
  return b;
};

/** Grants NEGOTIATE, the anonymous SESSION_SETUP and TREE_CONNECT; the rest is the scenario's. */
const granting: Handler = (command) => {
  switch (command) {
    case Command.negotiate:
      return { body: sized(65, (b) => (b.writeUInt16LE(65, 0), b.writeUInt16LE(0x0311, 4))) };
    case Command.sessionSetup:
      return {
        body: Buffer.concat([
          Buffer.alloc(8),
          Buffer.from('NTLMSSP\0\x02\0\0\0', 'latin1'),
          Buffer.alloc(24),
        ]),
      };
    case Command.treeConnect:
      return { body: sized(16, (b) => b.writeUInt8(2, 2)) };
    case Command.create:
      return { body: Buffer.alloc(88) };
    default:
      return { body: Buffer.alloc(8) };
  }
};

async function server(scenario: Handler): Promise<number> {
  let setups = 0;
  const srv = net.createServer((socket) => {
    socket.on('error', () => undefined);
    let buffer = Buffer.alloc(0);
    socket.on('data', (chunk: Buffer) => {
      buffer = Buffer.concat([buffer, chunk]);
      while (buffer.length >= 4 && buffer.length >= 4 + buffer.readUInt32BE(0)) {
        const smb = buffer.subarray(4, 4 + buffer.readUInt32BE(0));
        buffer = buffer.subarray(4 + smb.length);
        const command = smb.readUInt16LE(12);
        const answer = scenario(command, smb.subarray(64)) ?? granting(command, smb.subarray(64))!;
        if (answer === 'silence') {
          continue;
        }
        if (Buffer.isBuffer(answer)) {
          socket.write(answer);
          continue;
        }
        const first = command === Command.sessionSetup && setups++ % 2 === 0;
        const status = answer.status ?? (first ? 0xc0000016 : 0);
        socket.write(reply(smb.readBigUInt64LE(24), command, status, answer.body));
      }
    });
  });
  servers.push(srv);
  await new Promise<void>((resolve) => srv.listen(0, '127.0.0.1', resolve));
  return (srv.address() as AddressInfo).port;
}

/** An IOCTL answer carrying `data` as its output. */
const ioctlOutput = (data: Buffer, status = 0) => ({
  status,
  body: Buffer.concat([
    sized(48, (b) => (b.writeUInt32LE(64 + 48, 32), b.writeUInt32LE(data.length, 36))),
    data,
  ]),
});

/** A DCE/RPC RESPONSE fragment to call 2 that never says it is the last. */
const endlessFragment = sized(40, (b) => {
  b.writeUInt8(5, 0);
  b.writeUInt8(2, 2);
  b.writeUInt8(1, 3); // first fragment, not last
  b.writeUInt16LE(40, 8);
  b.writeUInt32LE(2, 12);
});

/** A BIND_ACK accepting the one context. */
const bindAck = sized(60, (b) => {
  b.writeUInt8(5, 0);
  b.writeUInt8(12, 2);
  b.writeUInt16LE(60, 8);
  b.writeUInt16LE(4, 24);
  b.writeUInt8(1, 32);
});

async function probe(port: number, timeoutMs = 1000) {
  const started = Date.now();
  const result = await smbNullSession('127.0.0.1', port, '127.0.0.1', timeoutMs);
  return { result, ms: Date.now() - started };
}

describe('SMB null session against a hostile server', () => {
  it('keeps the proven null session when the RPC answer never ends (bounded READs)', async () => {
    let calls = 0;
    const port = await server((command) =>
      command === Command.ioctl
        ? ioctlOutput(calls++ === 0 ? bindAck : endlessFragment)
        : command === Command.read
          ? {
              body: Buffer.concat([
                sized(16, (b) => (b.writeUInt8(80, 2), b.writeUInt32LE(40, 4))),
                endlessFragment,
              ]),
            }
          : undefined,
    );
    const { result, ms } = await probe(port);
    expect(result?.dialect).toBe('3.11');
    expect(result?.nullSession?.shares).toEqual({ error: 'NetrShareEnum: answer incomplete' });
    expect(ms).toBeLessThan(1000);
  });

  it('lists shares from a whole answer and stops counting a directory that never ends', async () => {
    // Samba's NetrShareEnum answer for public, staff and IPC$, in one last fragment.
    const stub = Buffer.from(sambaShareEnumAnswer, 'hex');
    const rpc = Buffer.concat([
      sized(
        24,
        (b) => (
          b.writeUInt8(5, 0),
          b.writeUInt8(2, 2),
          b.writeUInt8(3, 3),
          b.writeUInt16LE(24 + stub.length, 8),
          b.writeUInt32LE(2, 12)
        ),
      ),
      stub,
    ]);
    const name = Buffer.from('x', 'utf16le');
    const entry = Buffer.concat([sized(104, (b) => b.writeUInt32LE(name.length, 60)), name]);
    let calls = 0;
    const port = await server((command) =>
      command === Command.ioctl
        ? ioctlOutput(calls++ === 0 ? bindAck : rpc)
        : command === Command.queryDirectory
          ? {
              body: Buffer.concat([
                sized(8, (b) => (b.writeUInt16LE(72, 2), b.writeUInt32LE(entry.length, 4))),
                entry,
              ]),
            }
          : undefined,
    );
    const shares = (await probe(port)).result?.nullSession?.shares;
    expect(shares).toMatchObject({
      tried: [
        { name: 'public', refused: null, entries: 8, atLeast: true },
        { name: 'staff', refused: null, entries: 8, atLeast: true },
      ],
      untried: [],
    });
  });

  it('refuses an IOCTL output that points outside the reply', async () => {
    const port = await server((command) =>
      command === Command.ioctl
        ? { body: sized(48, (b) => (b.writeUInt32LE(64 + 48, 32), b.writeUInt32LE(0x7fffffff, 36))) }
        : undefined,
    );
    const { result } = await probe(port);
    expect(result?.nullSession?.shares).toEqual({ error: 'the SRVSVC bind was refused' });
  });

  it('ends at its deadline when the server stops answering mid-way, or announces a 16 MiB frame', async () => {
    for (const stall of ['silence', Buffer.from([0, 0xff, 0xff, 0xff, 0xfe])] as Reply[]) {
      const port = await server((command) => (command === Command.create ? stall : undefined));
      const { result, ms } = await probe(port, 300);
      expect(result?.nullSession?.shares).toEqual({
        error: 'no answer to opening \\PIPE\\srvsvc',
      });
      expect(ms).toBeLessThan(1500);
    }
  });

  it('reports no null session when the server refuses IPC$, and nothing at all for a non-SMB2 answer', async () => {
    const refusing = await server((command) =>
      command === Command.treeConnect ? { status: 0xc0000022, body: Buffer.alloc(8) } : undefined,
    );
    expect((await probe(refusing)).result?.nullSession).toBeNull();
    const garbage = await server(() =>
      Buffer.from('\0\0\0\x44HTTP/1.1 400 Bad Request\r\n\r\n'.padEnd(72, ' ')),
    );
    expect((await probe(garbage)).result).toBeNull();
  });
});

describe('common share names beyond the list', () => {
  /** The share a TREE_CONNECT asks for: its path follows the 8-byte fixed part. */
  const shareOf = (body: Buffer) => body.subarray(8).toString('utf16le').split('\\').pop()!.toLowerCase();
  const status = (code: number) => ({ status: code, body: Buffer.alloc(8) });
  const BAD_NETWORK_NAME = 0xc00000cc;
  const ACCESS_DENIED = 0xc0000022;

  it('tries none when a made-up name connects too: the server answers any name', async () => {
    const port = await server(() => undefined);
    expect((await probe(port)).result?.hiddenShares).toEqual({
      tried: [],
      connected: [],
      acceptsAnyName: true,
    });
  });

  it('tries every name when IPC$ is refused, and keeps those it connects, listable or not', async () => {
    const asked: string[] = [];
    const port = await server((command, body) => {
      if (command !== Command.treeConnect) {
        // The root of "data" cannot be opened: connected, nothing proven readable.
        return command === Command.create ? status(ACCESS_DENIED) : undefined;
      }
      const share = shareOf(body);
      asked.push(share);
      return share === 'ipc$'
        ? status(ACCESS_DENIED)
        : share === 'data'
          ? undefined
          : status(BAD_NETWORK_NAME);
    });
    const { result } = await probe(port);
    expect(result?.nullSession).toBeNull();
    expect(result?.hiddenShares?.tried).toEqual([...commonShareNames]);
    expect(result?.hiddenShares?.connected).toEqual([
      { name: 'data', refused: null, entries: null, atLeast: false, writable: false },
    ]);
    expect(asked).toEqual(['ipc$', noSuchShare, ...commonShareNames]);
  });

  it('stops trying names, within its deadline, when the server falls silent', async () => {
    let connects = 0;
    const port = await server((command) =>
      command === Command.treeConnect
        ? ++connects === 1
          ? status(ACCESS_DENIED)
          : connects <= 4
            ? status(BAD_NETWORK_NAME)
            : 'silence'
        : undefined,
    );
    const { result, ms } = await probe(port, 300);
    expect(result?.hiddenShares?.tried).toEqual(commonShareNames.slice(0, 2));
    expect(result?.hiddenShares?.connected).toEqual([]);
    expect(ms).toBeLessThan(1500);
  });
});
