// Which ways of logging in an SSH server offers, read without logging in: after the key exchange we ask
// for the "none" method (RFC 4252 §5.2) and the server's USERAUTH_FAILURE lists the methods that can
// continue. The `ssh2` client does the transport; we never send a password, key or any other credential.
import { Client } from 'ssh2';
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
  serverHostKey: { append: legacy.host },
  cipher: { append: legacy.cipher },
  hmac: { append: legacy.mac },
} as Algorithms;

/** A user name no real account should have; OpenSSH answers the same list for unknown users. */
const probeUser = 'vigil-scanner-probe';

/**
 * Asks the server at address:port for its authentication methods, or null when the handshake did not
 * get that far within `timeoutMs` (not SSH, algorithms we cannot negotiate, the server hung up).
 */
export function sshAuthMethods(
  address: string,
  port: number,
  timeoutMs: number,
  signal?: AbortSignal,
): Promise<SshAuthMethods | null> {
  // Guard: a scan already stopped opens no new connection (an aborted signal fires no more events).
  if (signal?.aborted) {
    return Promise.resolve(null);
  }
  return new Promise((resolve) => {
    const client = new Client();
    let result: SshAuthMethods | null = null;
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
      result = { methods: [], noneAccepted: true };
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
      // Nothing secret is sent, so the host key is not checked: we only read the server's offer.
      hostVerifier: () => true,
      authHandler: (methodsLeft: AuthenticationType[] | null, _partial, next) => {
        // First call (methodsLeft null): ask for "none". Second call: the server's list; stop there.
        if (methodsLeft === null) {
          next('none');
          return;
        }
        result = { methods: [...methodsLeft], noneAccepted: false };
        finish();
      },
    });
  });
}

/** The offered methods that let someone guess a password over the network. */
export function passwordMethods(offer: SshAuthMethods): string[] {
  return offer.methods.filter((method) => method === 'password' || method === 'keyboard-interactive');
}
