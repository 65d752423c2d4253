// Which ways of logging in an SSH server offers, read without logging in: after the key exchange we ask
// for the "none" method (RFC 4252 §5.2) and the server's USERAUTH_FAILURE lists the methods that can
// continue. The `ssh2` client does the transport; we never send a password, key or any other credential.
// The same key exchange shows the server's host key: RSA is preferred so that a short RSA key is seen.
import { SshReader, mpintBits } from './ssh-packet.ts';
import type {
  Algorithms,
  AuthenticationType,
  CipherAlgorithm,
  KexAlgorithm,
  MacAlgorithm,
  ServerHostKeyAlgorithm,
} from 'ssh2';

export interface SshAuthMethods {
  /** The methods the server listed after our "none" request (empty when it accepted "none"). */
  methods: string[];
  /** The server let us in with no authentication at all. */
  noneAccepted: boolean;
  /** The host key the server proved itself with, when it was readable. */
  hostKey?: HostKey;
}

export interface HostKey {
  /** The key's type as encoded in its blob: ssh-rsa, ssh-dss, ssh-ed25519, ecdsa-sha2-nistp256... */
  type: string;
  /** Modulus (RSA) or prime (DSA) size; 0 for fixed-size keys. */
  bits: number;
}

/** Reads the type and size of a public key blob (RFC 4253 §6.6). */
export function parseHostKey(blob: Buffer): HostKey | null {
  try {
    const reader = new SshReader(blob);
    const type = reader.bytes().toString('latin1');
    if (type === 'ssh-rsa') {
      reader.bytes(); // e
      return { type, bits: mpintBits(reader.bytes()) };
    }
    return { type, bits: type === 'ssh-dss' ? mpintBits(reader.bytes()) : 0 };
  } catch {
    // Guard: an unreadable blob means "size unknown", not a scanner crash.
    return null;
  }
}

/**
 * Old servers, the likeliest to allow passwords, may speak only legacy algorithms: we accept them after
 * the modern ones, since nothing secret crosses this connection.
 */
const legacy: {
  kex: KexAlgorithm[];
  host: ServerHostKeyAlgorithm[];
  cipher: CipherAlgorithm[];
  mac: MacAlgorithm[];
} = {
  kex: ['diffie-hellman-group-exchange-sha1', 'diffie-hellman-group14-sha1', 'diffie-hellman-group1-sha1'],
  host: ['ssh-dss'],
  cipher: ['aes256-cbc', 'aes192-cbc', 'aes128-cbc', '3des-cbc'],
  mac: ['hmac-md5', 'hmac-sha1-96', 'hmac-md5-96'],
};
// ssh2 takes { append } alone; @types/ssh2 wrongly asks for append, prepend and remove together.
const legacyAlgorithms = {
  kex: { append: legacy.kex },
  // RSA first: a server with an RSA key then shows that key, whose size is the one that can be short.
  serverHostKey: [
    'rsa-sha2-512',
    'rsa-sha2-256',
    'ssh-rsa',
    'ssh-ed25519',
    'ecdsa-sha2-nistp256',
    'ecdsa-sha2-nistp384',
    'ecdsa-sha2-nistp521',
    ...legacy.host,
  ],
  cipher: { append: legacy.cipher },
  hmac: { append: legacy.mac },
} as Algorithms;

/** A user name no real account should have; OpenSSH answers the same list for unknown users. */
const probeUser = 'vigil-scanner-probe';

/**
 * Asks the server at address:port for its authentication methods, or null when the handshake did not
 * get that far within `timeoutMs` (not SSH, algorithms we cannot negotiate, the server hung up).
 */
export async function sshAuthMethods(
  address: string,
  port: number,
  timeoutMs: number,
  signal?: AbortSignal,
): Promise<SshAuthMethods | null> {
  // Guard: a scan already stopped opens no new connection (an aborted signal fires no more events).
  if (signal?.aborted) {
    return null;
  }
  // ssh2 (CommonJS, with its crypto) loads with the first SSH service a scan meets, not with every scan.
  const { Client } = await import('ssh2');
  return new Promise((resolve) => {
    const client = new Client();
    let result: SshAuthMethods | null = null;
    let hostKey: HostKey | undefined;
    let settled = false;
    const finish = () => {
      // Guard: several events (error, close, timeout, abort) end one attempt; resolve it once.
      if (settled) {
        return;
      }
      settled = true;
      clearTimeout(deadline);
      signal?.removeEventListener('abort', finish);
      client.removeAllListeners();
      client.on('error', () => undefined);
      client.end();
      client.destroy();
      resolve(result);
    };
    // Guard: the whole conversation, handshake included, is bounded even if the server trickles bytes.
    const deadline = setTimeout(finish, timeoutMs);
    signal?.addEventListener('abort', finish, { once: true });
    client.on('ready', () => {
      result = { methods: [], noneAccepted: true, hostKey };
      finish();
    });
    client.on('error', finish);
    client.on('close', finish);
    client.connect({
      host: address,
      port,
      username: probeUser,
      readyTimeout: timeoutMs,
      algorithms: legacyAlgorithms,
      // Nothing secret is sent, so the host key is not checked: we only read the server's offer and key.
      hostVerifier: (key: Buffer) => {
        hostKey = parseHostKey(key) ?? undefined;
        return true;
      },
      authHandler: (methodsLeft: AuthenticationType[] | null, _partial, next) => {
        // First call (methodsLeft null): ask for "none". Second call: the server's list; stop there.
        if (methodsLeft === null) {
          next('none');
          return;
        }
        result = { methods: [...methodsLeft], noneAccepted: false, hostKey };
        finish();
      },
    });
  });
}

/** The offered methods that let someone guess a password over the network. */
export function passwordMethods(offer: SshAuthMethods): string[] {
  return offer.methods.filter((method) => method === 'password' || method === 'keyboard-interactive');
}
