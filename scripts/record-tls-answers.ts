// `unshare --net sh -c 'ip link set lo up && npx tsx scripts/record-tls-answers.ts'` (as root): records
// what real servers answer to our ClientHellos, byte for byte, into
// agents/scanners/core/tls-answers.recorded.json, the data of tls-hello.test.ts. The servers are the TLS
// fixtures (nginx on OpenSSL 3, gnutls-serv) and an `openssl s_server` that accepts only P-256 (so it
// answers an x25519 key share with a HelloRetryRequest). Run it again when the reader learns a new message.
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

import { clientHello, EC_GROUPS, type ProtocolVersion } from '../agents/scanners/core/tls-hello.ts';
import { suiteCodes } from '../agents/scanners/core/tls-suites.ts';
import { waitForPort } from '../tests/fixtures/real-services.ts';
import {
  startGnutlsWeak,
  startNginxHardenedTls,
  startNginxWeakTls,
  testPki,
  tlsPorts,
} from '../tests/fixtures/tls/tls-servers.ts';

if (Object.keys(os.networkInterfaces()).some((name) => name !== 'lo')) {
  throw new Error('run me inside a private network namespace (see the first line)');
}

interface Recording {
  server: string;
  version: ProtocolVersion;
  suites: number[];
  groups?: number[];
  /** What the server sent, hex, until it sent ServerHelloDone, closed, or went quiet for 300 ms. */
  answer: string;
}

/** Sends the hello and keeps everything the server sends until it stops. */
function record(
  port: number,
  version: ProtocolVersion,
  suites: number[],
  groups?: number[],
): Promise<string> {
  const hello = clientHello(version, suites, {
    random: () => Buffer.alloc(32, 0x42),
    ...(groups ? { groups } : {}),
  });
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    const socket = net.connect({ host: '127.0.0.1', port }, () => socket.write(hello));
    let quiet = setTimeout(() => socket.destroy(), 1000);
    socket.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      clearTimeout(quiet);
      quiet = setTimeout(() => socket.destroy(), 300);
    });
    socket.on('error', () => socket.destroy());
    socket.on('close', () => {
      clearTimeout(quiet);
      resolve(Buffer.concat(chunks).toString('hex'));
    });
  });
}

const recordings: Record<string, Recording> = {};
async function take(
  name: string,
  server: string,
  port: number,
  version: ProtocolVersion,
  suites: number[],
  groups?: number[],
) {
  recordings[name] = {
    server,
    version,
    suites,
    ...(groups ? { groups } : {}),
    answer: await record(port, version, suites, groups),
  };
}

const nginxWeak = await startNginxWeakTls();
const gnutls = await startGnutlsWeak();
const hardened = await startNginxHardenedTls();
const pki = testPki();
const leaf = pki.issue('p256-only', { san: 'IP:127.0.0.1', key: 'ec', digest: 'sha256' });
const sServer = spawn(
  'openssl',
  [
    's_server',
    '-accept',
    '127.0.0.1:18449',
    '-cert',
    leaf.cert,
    '-key',
    leaf.key,
    '-groups',
    'P-256',
    '-www',
    '-quiet',
  ],
  {
    stdio: 'ignore',
  },
);
try {
  await waitForPort(18449);
  await take('nginx-dhe-1024', 'nginx 1.22, OpenSSL 3.0', tlsPorts.nginxWeak, 'TLSv1.2', [0x0033], EC_GROUPS);
  await take('nginx-tls10', 'nginx 1.22, OpenSSL 3.0', tlsPorts.nginxWeak, 'TLSv1.0', suiteCodes(false));
  await take('nginx-stapled-ecdhe', 'nginx 1.22, OpenSSL 3.0', tlsPorts.nginxHardened, 'TLSv1.2', [0xc02b]);
  await take('nginx-tls13', 'nginx 1.22, OpenSSL 3.0', tlsPorts.nginxHardened, 'TLSv1.3', suiteCodes(true));
  await take(
    'nginx-protocol-version-alert',
    'nginx 1.22, OpenSSL 3.0',
    tlsPorts.nginxHardened,
    'TLSv1.0',
    suiteCodes(false),
  );
  await take(
    'nginx-handshake-failure-alert',
    'nginx 1.22, OpenSSL 3.0',
    tlsPorts.nginxHardened,
    'TLSv1.2',
    [0x002f, 0x000a],
  );
  await take('gnutls-rc4', 'gnutls-serv 3.7', tlsPorts.gnutlsWeak, 'TLSv1.2', [0x0005]);
  await take('gnutls-anon-dh', 'gnutls-serv 3.7', tlsPorts.gnutlsWeak, 'TLSv1.2', [0x0034], EC_GROUPS);
  await take('openssl-hello-retry', 'openssl s_server 3.0 -groups P-256', 18449, 'TLSv1.3', suiteCodes(true));
} finally {
  sServer.kill();
  await Promise.all([nginxWeak.close(), gnutls.close(), hardened.close()]);
}
const out = path.resolve(import.meta.dirname, '../agents/scanners/core/tls-answers.recorded.json');
writeFileSync(out, `${JSON.stringify(recordings, null, 2)}\n`);
console.log(`recorded ${Object.keys(recordings).length} answers into ${path.relative(process.cwd(), out)}`);
