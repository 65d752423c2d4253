// Service identification on an open port: first listen (SSH, FTP, SMTP, MySQL, VNC and Telnet speak
// first), then try the probes, the port's usual service first. Each probe is a fresh connection.
import { grab } from './grab.ts';
import {
  parseRexecReply,
  parseRshReply,
  reservedPort,
  rexecRequest,
  rloginHandshake,
  rshIdentifyRequest,
} from './r-services.ts';
import { printable } from './text.ts';
import {
  httpGet,
  mongoCommand,
  mysqlGreeting,
  parseMongoReply,
  postgresSslRequest,
  rdpConnectionRequest,
  smbNegotiate,
} from './wire.ts';

export interface ServiceInfo {
  name: string;
  /** What identified it: the banner or the reply, printable and short. */
  banner: string;
}

export interface Timing {
  /** Wait for a first byte; derived from the measured RTT. */
  firstByteMs: number;
}

const telnetVerbs: Record<number, string> = { 0xfb: 'WILL', 0xfc: 'WONT', 0xfd: 'DO', 0xfe: 'DONT' };
/** Telnet options by number (IANA "Telnet Options"). */
const telnetOptions: Record<number, string> = {
  1: 'ECHO',
  3: 'SUPPRESS-GO-AHEAD',
  5: 'STATUS',
  24: 'TERMINAL-TYPE',
  31: 'NAWS',
  32: 'TERMINAL-SPEED',
  33: 'TOGGLE-FLOW-CONTROL',
  34: 'LINEMODE',
  35: 'X-DISPLAY-LOCATION',
  36: 'ENVIRON',
  37: 'AUTHENTICATION',
  38: 'ENCRYPT',
  39: 'NEW-ENVIRON',
};

/** "option negotiation: WILL ECHO, DO TERMINAL-TYPE; Debian GNU/Linux login:" from a Telnet greeting. */
function telnetBanner(data: Buffer): string {
  const options: string[] = [];
  const text: number[] = [];
  for (let i = 0; i < data.length; i++) {
    const verb = data[i] === 0xff ? telnetVerbs[data[i + 1]!] : undefined;
    if (verb && i + 2 < data.length) {
      options.push(`${verb} ${telnetOptions[data[i + 2]!] ?? String(data[i + 2])}`);
      i += 2;
    } else if (data[i] !== 0xff) {
      text.push(data[i]!);
    }
  }
  const words = printable(Buffer.from(text));
  return `option negotiation: ${options.join(', ')}${words ? `; ${words}` : ''}`;
}

function fromBanner(data: Buffer, port: number): ServiceInfo | null {
  const text = data.toString('latin1');
  const banner = printable(data);
  if (/^SSH-\d/.test(text)) {
    return { name: 'ssh', banner: text.split(/\r?\n/)[0]!.trim() };
  }
  if (/^220[ -]/.test(text)) {
    return {
      name: /E?SMTP|Postfix|Exim|Sendmail/i.test(text) || [25, 465, 587].includes(port) ? 'smtp' : 'ftp',
      banner,
    };
  }
  if (/^RFB \d{3}\.\d{3}/.test(text)) {
    return { name: 'vnc', banner };
  }
  if (data[0] === 0xff && data.length >= 3 && data[1]! >= 0xfb) {
    return { name: 'telnet', banner: telnetBanner(data) };
  }
  const mysql = mysqlGreeting(data);
  if (mysql) {
    return { name: 'mysql', banner: `MySQL protocol 10, version ${mysql}` };
  }
  if (/^\+OK/.test(text)) {
    return { name: 'pop3', banner };
  }
  if (/^\* OK/.test(text)) {
    return { name: 'imap', banner };
  }
  return null;
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
      /^(\+PONG|-NOAUTH|-ERR .*auth|-DENIED)/i.test(data.toString('latin1'))
        ? { name: 'redis', banner: printable(data) }
        : null,
  },
  {
    name: 'memcached',
    ports: [11211],
    send: () => 'version\r\n',
    // Memcached with authentication (-Y, -S) answers every command before login with CLIENT_ERROR.
    match: (data) =>
      /^(VERSION \S+|CLIENT_ERROR unauthenticated)/.test(data.toString('latin1'))
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
      data.length >= 11 && data[0] === 3 && data[1] === 0 && data[5] === 0xd0
        ? { name: 'rdp', banner: 'X.224 connection confirm' }
        : null,
  },
  {
    name: 'smb',
    ports: [139, 445],
    send: () => smbNegotiate,
    match: (data) => {
      const magic = data.subarray(4, 8).toString('latin1');
      return magic === '\xffSMB' || magic === '\xfeSMB'
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
const greetingIn = (reply: Buffer, port: number) => (reply.length > 0 ? fromBanner(reply, port) : null);

export async function identifyService(
  address: string,
  host: string,
  port: number,
  timing: Timing,
  signal?: AbortSignal,
): Promise<ServiceInfo | null> {
  const greeting = await grab(address, port, null, { firstByteMs: timing.firstByteMs, signal });
  const passive = fromBanner(greeting, port);
  if (passive) {
    return passive;
  }
  if (greeting.length > 0) {
    return { name: 'unknown', banner: printable(greeting) };
  }
  // Nothing yet: while the probes run, a second connection keeps listening for a late greeting. The
  // probes of a silent port take about as long, so this costs a connection, not time.
  const stopListening = new AbortController();
  let late: ServiceInfo | null = null;
  const listening = grab(address, port, null, {
    firstByteMs: slowServiceMs,
    signal: signal ? AbortSignal.any([signal, stopListening.signal]) : stopListening.signal,
  }).then((data) => {
    late = data.length > 0 ? (fromBanner(data, port) ?? { name: 'unknown', banner: printable(data) }) : null;
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
