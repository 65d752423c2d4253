// rsh and rexec replies from servers that are not what they seem: garbage, an early close, silence. The
// real daemons (rsh-redone's and netkit's) are in tests/scanners/services.test.ts.
import net from 'node:net';
import type { AddressInfo } from 'node:net';

import { afterEach, describe, expect, it } from 'vitest';

import { requires, root } from '../../../tests/helpers/requirements.ts';
import { identifyService } from './identify.ts';
import {
  hostTrustAccounts,
  parseRexecReply,
  parseRshReply,
  reservedPorts,
  rexecRequest,
  rshHostTrust,
  rshTrust,
} from './r-services.ts';

const servers: net.Server[] = [];
afterEach(() => servers.splice(0).forEach((server) => server.close()));

/**
 * A server that answers `reply(request so far)` once it returns one; null keeps it reading. With
 * `hangUpMs`, a client that sends nothing is dropped after that long (a service that never greets).
 */
async function serve(reply: (got: Buffer) => Buffer | 'close' | null, hangUpMs?: number): Promise<number> {
  const server = net.createServer((socket) => {
    socket.on('error', () => undefined);
    let got = Buffer.alloc(0);
    const hangUp = hangUpMs === undefined ? undefined : setTimeout(() => socket.destroy(), hangUpMs);
    socket.on('data', (chunk: Buffer) => {
      clearTimeout(hangUp);
      got = Buffer.concat([got, chunk]);
      const answer = reply(got);
      if (answer === 'close') {
        socket.destroy();
      } else if (answer) {
        socket.end(answer);
      }
    });
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

const bytes = (text: string) => Buffer.from(text, 'latin1');

describe('rsh and rexec replies', () => {
  it('reads refusals of both rshd families and the output of id', () => {
    expect(parseRshReply(bytes('\x01Permission denied.\n'))).toEqual({
      accepted: false,
      text: 'Permission denied.',
    });
    expect(parseRshReply(bytes('\0Authentication failure\n'))?.accepted).toBe(false);
    expect(parseRshReply(bytes('\0uid=0(root) gid=0(root) groups=0(root)\n'))).toEqual({
      accepted: true,
      text: 'uid=0(root) gid=0(root) groups=0(root)',
      ran: true,
    });
  });

  it("reads nologin's answer after byte 0 as accepted without the command running", () => {
    expect(parseRshReply(bytes('\0This account is currently not available.\n'))).toEqual({
      accepted: true,
      text: 'This account is currently not available.',
      ran: false,
    });
    // After byte 1 it is not an authenticated session, and other words are not nologin's.
    expect(parseRshReply(bytes('\x01This account is currently not available.\n'))).toBeNull();
    expect(parseRshReply(bytes('\0This account is currently not available. Welcome!\n'))).toBeNull();
  });

  it('takes nothing else for rsh: garbage, a lone status byte, another status, nothing', () => {
    for (const reply of [
      '\0Welcome\r\n',
      '\0',
      '\x01',
      '\x01ERR unknown command\r\n',
      '\x02uid=0(root)',
      '',
    ]) {
      expect(parseRshReply(bytes(reply))).toBeNull();
    }
  });

  it('takes only rexecd refusals for rexec, never rshd ones or an accepted status', () => {
    expect(parseRexecReply(bytes('\x01username too long\n'))?.text).toBe('username too long');
    expect(parseRexecReply(bytes('\x01Login incorrect.\n'))?.accepted).toBe(false);
    for (const reply of ['\x01Permission denied.\n', '\0uid=0(root)', '\0', 'HTTP/1.0 400 Bad']) {
      expect(parseRexecReply(bytes(reply))).toBeNull();
    }
  });
});

describe('identification of rexec on an unusual port', () => {
  /** Reads like rexecd (four NUL-terminated strings) and refuses the long user name. */
  const rexecd = (got: Buffer) =>
    got.equals(rexecRequest) ? bytes('\x01username too long\n') : got.includes(0) ? 'close' : null;

  it('names rexec from its refusal of the invalid user', async () => {
    const port = await serve(rexecd);
    expect(await identifyService('127.0.0.1', 'localhost', port, { firstByteMs: 100 })).toEqual({
      name: 'rexec',
      banner: 'request refused: username too long',
    });
  });

  it('names rexec, not rsh, when rexecd refuses every request with "Login incorrect."', async () => {
    const nuls = (got: Buffer) => got.filter((byte) => byte === 0).length;
    const port = await serve((got) => (nuls(got) >= 4 ? bytes('\x01Login incorrect.\n') : null), 300);
    expect(await identifyService('127.0.0.1', 'localhost', port, { firstByteMs: 100 })).toEqual({
      name: 'rexec',
      banner: 'request refused: Login incorrect.',
    });
  });

  it('names neither rsh nor rexec for a server that answers every probe with status 1 and garbage', async () => {
    const port = await serve(() => bytes('\x01\xff\xfe garbage'), 300);
    const service = await identifyService('127.0.0.1', 'localhost', port, { firstByteMs: 100 });
    expect(['rsh', 'rexec']).not.toContain(service?.name);
  });
});

describe('rsh trust check', () => {
  const trust = (port: number, firstByteMs = 300) => rshTrust('127.0.0.1', port, firstByteMs, undefined, 0);

  it('claims root for root and runs id, and reports its output', async () => {
    let request = '';
    const port = await serve((got) => {
      request = got.toString('latin1');
      return got.toString('latin1').endsWith('id\0') ? bytes('\0uid=0(root) gid=0(root)\n') : null;
    });
    expect(await trust(port)).toEqual({
      clientUser: 'root',
      account: 'root',
      output: 'uid=0(root) gid=0(root)',
      ran: true,
    });
    expect(request).toBe('0\0root\0root\0id\0');
  });

  it('finds no trust in a refusal, garbage after status 0, or an early close', async () => {
    for (const reply of [
      bytes('\x01Permission denied.\n'),
      bytes('\0Welcome to the shell\r\n'),
      'close' as const,
    ]) {
      expect(await trust(await serve(() => reply))).toBeNull();
    }
  });

  it('gives up on a server that never answers, within its wait', async () => {
    const port = await serve(() => null);
    const started = Date.now();
    expect(await trust(port, 300)).toBeNull();
    expect(Date.now() - started).toBeLessThan(3000);
  });

  // Binding a reserved port needs root; a claim from a taken port is sent again from another one, so
  // a busy source port (rshd's own 514, one in TIME_WAIT) no longer makes rshd look silent.
  it(
    'sends the claim from another port when its port is taken',
    requires(root('binding a reserved port')),
    async () => {
      const port = await serve(() => bytes('\0uid=0(root)\n'));
      const holder = net.createServer();
      servers.push(holder);
      await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
      const taken = (holder.address() as AddressInfo).port;
      expect(await rshTrust('127.0.0.1', port, 300, undefined, taken)).toMatchObject({ account: 'root' });
    },
  );
});

describe('rsh host trust check (non-root accounts)', () => {
  const anyPort = hostTrustAccounts.map(() => 0);
  const hostTrust = (port: number, firstByteMs = 300) =>
    rshHostTrust('127.0.0.1', port, firstByteMs, undefined, anyPort);

  it('claims each account under its own name, and keeps the ones accepted, run or not', async () => {
    const requests: string[] = [];
    const port = await serve((got) => {
      const request = got.toString('latin1');
      if (!request.endsWith('id\0')) {
        return null;
      }
      requests.push(request);
      if (request.includes('\0bin\0bin\0')) {
        return bytes('\0This account is currently not available.\n');
      }
      return request.includes('\0sys\0sys\0')
        ? bytes('\0uid=3(sys) gid=3(sys) groups=3(sys)\n')
        : bytes('\x01Permission denied.\n');
    });
    expect(await hostTrust(port)).toEqual([
      { clientUser: 'bin', account: 'bin', output: 'This account is currently not available.', ran: false },
      { clientUser: 'sys', account: 'sys', output: 'uid=3(sys) gid=3(sys) groups=3(sys)', ran: true },
    ]);
    expect(requests.sort()).toEqual(hostTrustAccounts.map((a) => `0\0${a}\0${a}\0id\0`).sort());
  });

  it('finds none in refusals, a lone byte 0, garbage after byte 0, silence or an early close', async () => {
    for (const reply of [
      bytes('\0Authentication failure\n'),
      bytes('\0'),
      bytes('\0Last login: yesterday\n'),
      'close' as const,
    ]) {
      expect(await hostTrust(await serve(() => reply))).toEqual([]);
    }
    const started = Date.now();
    expect(await hostTrust(await serve(() => null), 300)).toEqual([]);
    expect(Date.now() - started).toBeLessThan(3000);
  });

  it('asks again the claims that got no answer to judge (nothing, or the status byte alone)', async () => {
    const asked = new Map<string, number>();
    const port = await serve((got) => {
      const request = got.toString('latin1');
      if (!request.endsWith('id\0')) {
        return null;
      }
      const times = (asked.get(request) ?? 0) + 1;
      asked.set(request, times);
      if (request.includes('\0nobody\0')) {
        // A busy host: the first claim gets the status byte, the shell's answer only on the second.
        return times === 1 ? bytes('\0') : bytes('\0This account is currently not available.\n');
      }
      if (request.includes('\0daemon\0')) {
        return times === 1 ? 'close' : bytes('\0uid=1(daemon) gid=1(daemon)\n');
      }
      // A refusal is an answer: it is not asked again.
      return bytes('\x01Permission denied.\n');
    });
    expect((await hostTrust(port)).map((t) => t.account)).toEqual(['daemon', 'nobody']);
    expect([...asked.values()].sort()).toEqual([1, 1, 2, 2]);
  });

  it('gives every claim of one check a reserved source port of its own', () => {
    for (const first of [512, 700, 1023]) {
      const ports = reservedPorts(1 + hostTrustAccounts.length, first);
      expect(new Set(ports).size).toBe(ports.length);
      expect(ports.every((p) => p >= 512 && p <= 1023)).toBe(true);
    }
  });
});
