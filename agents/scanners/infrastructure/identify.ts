// Service identification on an open port: first listen (SSH, FTP, SMTP, MySQL, VNC and Telnet speak
// first), then try the probes, the port's usual service first. Each probe is a fresh connection.
import { grab } from './grab.ts';
import { identifyGreeting, unknownGreeting } from './greetings.ts';
import type { ServiceInfo } from './greetings.ts';
import {
  parseRexecReply,
  parseRshReply,
  reservedPort,
  rexecRequest,
  rloginHandshake,
  rshIdentifyRequest,
} from './r-services.ts';
import { printable } from './printable-bytes.ts';
import {
  httpGet,
  mongoCommand,
  parseMongoReply,
  postgresSslRequest,
  rdpConnectionRequest,
  smbNegotiate,
} from './wire.ts';

export type { ServiceInfo } from './greetings.ts';

export interface Timing {
  /** Wait for a first byte; derived from the measured RTT. */
  firstByteMs: number;
}

interface Probe {
  name: string;
  ports: number[];
  send: (host: string) => Buffer | string;
  match: (data: Buffer) => ServiceInfo | null;
  /** A source port to connect from, for services that check it. */
  localPort?: () => number;
}

const probes: Probe[] = [
  {
    name: 'http',
    ports: [80, 81, 3000, 5000, 5601, 5984, 8000, 8008, 8080, 8081, 8888, 9000, 9200],
    send: (host) => httpGet(host),
    match: (data) => {
      const text = data.toString('utf8');
      if (!/^HTTP\/\d(\.\d)? \d{3}/.test(text)) {
        return null;
      }
      const elastic = /You Know, for Search|"cluster_name"\s*:/.test(text);
      // Apache CouchDB's welcome is "couchdb": "Welcome", PouchDB Server's "express-pouchdb": "Welcome!".
      const couchdb = /"(couchdb|express-pouchdb)"\s*:\s*"Welcome/.test(text);
      return {
        name: elastic ? 'elasticsearch' : couchdb ? 'couchdb' : 'http',
        banner: printable(Buffer.from(text.split(/\r?\n\r?\n/)[0]!)),
      };
    },
  },
  {
    name: 'redis',
    ports: [6379, 6380, 16379],
    send: () => 'PING\r\n',
    match: (data) =>
      /^(\+PONG|-NOAUTH[^\r\n]*|-ERR [^\r\n]*auth[^\r\n]*|-DENIED[^\r\n]*)\r\n/i.test(data.toString('latin1'))
        ? { name: 'redis', banner: printable(data) }
        : null,
  },
  {
    name: 'memcached',
    ports: [11211],
    send: () => 'version\r\n',
    // Memcached with authentication (-Y, -S) answers every command before login with CLIENT_ERROR.
    match: (data) =>
      /^(VERSION \S+|CLIENT_ERROR unauthenticated)\r\n/.test(data.toString('latin1'))
        ? { name: 'memcached', banner: printable(data) }
        : null,
  },
  {
    name: 'postgresql',
    ports: [5432, 5433],
    send: () => postgresSslRequest,
    match: (data) =>
      data.length === 1 && (data[0] === 0x53 || data[0] === 0x4e)
        ? { name: 'postgresql', banner: `SSLRequest answered ${String.fromCharCode(data[0])}` }
        : null,
  },
  {
    name: 'mongodb',
    ports: [27017, 27018],
    send: () => mongoCommand({ hello: 1, $db: 'admin' }),
    match: (data) => {
      const reply = parseMongoReply(data);
      return reply
        ? {
            name: 'mongodb',
            banner: `hello: maxWireVersion ${typeof reply.maxWireVersion === 'number' ? reply.maxWireVersion : '?'}`,
          }
        : null;
    },
  },
  {
    name: 'rdp',
    ports: [3389],
    send: () => rdpConnectionRequest,
    match: (data) =>
      // TPKT version 3 whose length is what arrived, holding an X.224 Connection Confirm of that length.
      data.length >= 11 &&
      data[0] === 3 &&
      data[1] === 0 &&
      data.readUInt16BE(2) === data.length &&
      data[4] === data.length - 5 &&
      data[5] === 0xd0
        ? { name: 'rdp', banner: 'X.224 connection confirm' }
        : null,
  },
  {
    name: 'smb',
    ports: [139, 445],
    send: () => smbNegotiate,
    match: (data) => {
      const magic = data.subarray(4, 8).toString('latin1');
      // A NetBIOS session message (type 0) whose length fits what arrived, holding an SMB header.
      const framed = data.length >= 68 && data[0] === 0 && data.readUIntBE(1, 3) <= data.length - 4;
      return framed && (magic === '\xffSMB' || magic === '\xfeSMB')
        ? { name: 'smb', banner: magic === '\xfeSMB' ? 'SMB2 negotiate response' : 'SMB1 negotiate response' }
        : null;
    },
  },
  // On an unusual port the order matters: rshd drops rexec's request (its source port is not
  // reserved) while some rexecd refuse rsh's with "Login incorrect." as rshd may; netkit rshd refuses
  // rlogin's handshake with "Permission denied." as rlogind does, while rlogind drops rsh's request.
  {
    name: 'rexec',
    ports: [512],
    send: () => rexecRequest,
    match: (data) => {
      const reply = parseRexecReply(data);
      return reply ? { name: 'rexec', banner: `request refused: ${reply.text}` } : null;
    },
  },
  {
    name: 'rsh',
    ports: [514],
    send: () => rshIdentifyRequest,
    localPort: reservedPort,
    match: (data) => {
      const reply = parseRshReply(data);
      return reply
        ? { name: 'rsh', banner: `request ${reply.accepted ? 'accepted' : 'refused'}: ${reply.text}` }
        : null;
    },
  },
  {
    name: 'rlogin',
    ports: [513],
    send: () => rloginHandshake,
    localPort: reservedPort,
    match: (data) => {
      const text = printable(data.subarray(1));
      if (data[0] === 0 && (data.length === 1 || /password|login/i.test(text))) {
        return { name: 'rlogin', banner: `handshake accepted${text ? `: ${text}` : ''}` };
      }
      return data[0] === 1 && /denied|rlogind|rhosts|not allowed/i.test(text)
        ? { name: 'rlogin', banner: `handshake refused: ${text}` }
        : null;
    },
  },
];

/**
 * How long a known or silent service may take to answer. Servers that look up the client's name (reverse
 * DNS, ident) before greeting, or a loaded machine, take seconds; nmap's NULL probe waits 6 s.
 */
export const slowServiceMs = 5000;

/** A reply to a probe that is really a late greeting (the service spoke first, slowly). */
const greetingIn = (reply: Buffer, port: number) => (reply.length > 0 ? identifyGreeting(reply, port) : null);

export async function identifyService(
  address: string,
  host: string,
  port: number,
  timing: Timing,
  signal?: AbortSignal,
): Promise<ServiceInfo | null> {
  const greeting = await grab(address, port, null, { firstByteMs: timing.firstByteMs, signal });
  const passive = identifyGreeting(greeting, port);
  if (passive) {
    return passive;
  }
  if (greeting.length > 0) {
    return unknownGreeting(greeting);
  }
  // Nothing yet: while the probes run, a second connection keeps listening for a late greeting. The
  // probes of a silent port take about as long, so this costs a connection, not time.
  const stopListening = new AbortController();
  let late: ServiceInfo | null = null;
  const listening = grab(address, port, null, {
    firstByteMs: slowServiceMs,
    signal: signal ? AbortSignal.any([signal, stopListening.signal]) : stopListening.signal,
  }).then((data) => {
    late = data.length > 0 ? (identifyGreeting(data, port) ?? unknownGreeting(data)) : null;
  });
  try {
    const ordered = [...probes].sort(
      (a, b) => Number(b.ports.includes(port)) - Number(a.ports.includes(port)),
    );
    for (const probe of ordered) {
      // Guard: a stopped scan, or a greeting that arrived meanwhile, makes the other probes pointless.
      if (signal?.aborted || late) {
        break;
      }
      const reply = await grab(address, port, probe.send(host), {
        firstByteMs: timing.firstByteMs * 2,
        signal,
        localPort: probe.localPort,
      });
      const match = (reply.length > 0 ? probe.match(reply) : null) ?? greetingIn(reply, port);
      if (match) {
        return match;
      }
    }
    if (!signal?.aborted) {
      await listening;
    }
    return late;
  } finally {
    stopListening.abort();
    await listening;
  }
}
