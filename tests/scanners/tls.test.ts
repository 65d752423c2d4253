// TLS checks through both scanners that run them; inside the private network namespace.
import net from 'node:net';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { runScan } from '../../agents/scanners/run-scan.ts';
import { listen } from '../fixtures/http-server.ts';
import { mostInWindow } from '../fixtures/counting-proxy.ts';
import { startWeakTls, weakTlsPortPlanted, weakTlsWebPlanted } from '../fixtures/tls/weak-tls.ts';
import { measure } from './measure.ts';

describe('TLS checks', () => {
  let site: Awaited<ReturnType<typeof startWeakTls>>;
  beforeAll(async () => {
    site = await startWeakTls();
  });
  afterAll(async () => {
    await site.close();
  });

  it('web scan of the HTTPS site finds the certificate, protocol and page issues', async () => {
    const result = await runScan('webapp', { target: site.target, mode: 'local' });
    const m = measure(result.findings, weakTlsWebPlanted, site.target);
    expect(m.missed).toEqual([]);
    expect(m.unexpected).toEqual([]);
  });

  it('the TLS probes take turns of the target rate limit like HTTP requests do', async () => {
    // A TCP relay in front of the site notes when each connection (TLS probe or HTTP request) arrives.
    const arrivals: number[] = [];
    const relay = net.createServer((client) => {
      arrivals.push(performance.now());
      const upstream = net.connect(site.port, '127.0.0.1');
      client.pipe(upstream).pipe(client);
      client.on('error', () => upstream.destroy());
      upstream.on('error', () => client.destroy());
    });
    await new Promise<void>((resolve) => relay.listen(0, '127.0.0.1', resolve));
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), 3000);
    try {
      const { port } = relay.address() as net.AddressInfo;
      await runScan('webapp', {
        target: `https://127.0.0.1:${port}`,
        mode: 'local',
        rateLimit: 10,
        signal: controller.signal,
      }).catch(() => undefined);
    } finally {
      clearTimeout(timer);
      await new Promise((resolve) => relay.close(resolve));
    }
    expect(arrivals.length).toBeGreaterThan(15);
    const busiest = Math.max(...arrivals.map((t) => arrivals.filter((u) => u >= t && u < t + 1000).length));
    // Give or take what a loaded machine holds a connection up on its way (the same allowance as the
    // rate-limit suite's).
    expect(busiest).toBeLessThanOrEqual(mostInWindow(10, 1000));
  });

  it('infrastructure scan identifies the TLS port and checks its certificate', async () => {
    const result = await runScan('infrastructure', {
      target: '127.0.0.1',
      mode: 'local',
      ports: String(site.port),
    });
    const m = measure(result.findings, weakTlsPortPlanted(site.port), '127.0.0.1');
    expect(m.missed).toEqual([]);
    expect(m.unexpected).toEqual([]);
  });
});

describe('HTTP next to HTTPS on the standard ports', () => {
  let tls443: Awaited<ReturnType<typeof startWeakTls>>;
  beforeAll(async () => {
    tls443 = await startWeakTls(443);
  });
  afterAll(async () => {
    await tls443.close();
  });

  it('reports a missing redirect when HTTPS answers on 443 but HTTP does not send users there', async () => {
    const plain = await listen((_req, res) => res.end('<html><body>hi</body></html>'), 80);
    try {
      const result = await runScan('webapp', { target: 'http://127.0.0.1/', mode: 'local' });
      const rules = result.findings.map((f) => f.rule_id);
      expect(rules).toContain('web.transport.no-https-redirect');
      expect(rules).not.toContain('web.transport.cleartext');
    } finally {
      await plain.close();
    }
  });

  it('follows the HTTP to HTTPS redirect and checks the HTTPS site', async () => {
    const redirect = await listen((req, res) => {
      res.writeHead(301, { location: `https://127.0.0.1${req.url ?? '/'}` });
      res.end();
    }, 80);
    try {
      const result = await runScan('webapp', { target: 'http://127.0.0.1/', mode: 'local' });
      const m = measure(result.findings, weakTlsWebPlanted, 'https://127.0.0.1');
      expect(m.missed).toEqual([]);
      expect(m.unexpected).toEqual([]);
    } finally {
      await redirect.close();
    }
  });
});
