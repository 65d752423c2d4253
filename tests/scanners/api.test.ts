// Runs inside a private network namespace (tests/scanners/run.sh).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { findingSchema } from '../../shared/findings.ts';
import { runScan } from '../../agents/scanners/run-scan.ts';
import type { RunningFixture } from '../fixtures/planted.ts';
import { startVulnerableApi } from '../fixtures/web/vulnerable-api.ts';
import { measure } from './measure.ts';

describe('API scanner', () => {
  let api: RunningFixture;
  beforeAll(async () => {
    api = await startVulnerableApi();
  });
  afterAll(async () => {
    await api.close();
  });

  it('finds every planted API issue from the discovered OpenAPI document, with no false positives', async () => {
    const result = await runScan('api', { target: api.target, mode: 'local' });
    const m = measure(result.findings, api.planted, api.target);
    expect(m.missed).toEqual([]);
    expect(m.unexpected).toEqual([]);
    result.findings.forEach((finding) => findingSchema.parse(finding));
    // Every check ran whole and filed only rules it declares.
    expect(result.phase_errors).toEqual([]);
    expect(result.partial).toBe(false);
  });

  it('reads the document from --openapi', async () => {
    const result = await runScan('api', {
      target: `${api.target}/`,
      mode: 'local',
      openapi: `${api.target}/openapi.json`,
    });
    expect(result.findings.map((f) => f.rule_id)).toContain('api.auth.missing');
  });

  it('fails clearly when --openapi is not an OpenAPI document', async () => {
    await expect(
      runScan('api', { target: api.target, mode: 'local', openapi: `${api.target}/api/users` }),
    ).rejects.toThrow(/not a valid OpenAPI 3 document/);
  });
});

describe('API scanner with an OpenAPI document in YAML', () => {
  let api: RunningFixture;
  beforeAll(async () => {
    api = await startVulnerableApi(0, 'yaml');
  });
  afterAll(async () => {
    await api.close();
  });

  it('discovers /openapi.yaml and finds every planted issue from it', async () => {
    const result = await runScan('api', { target: api.target, mode: 'local' });
    const m = measure(result.findings, api.planted, api.target);
    expect(m.missed).toEqual([]);
    expect(m.unexpected).toEqual([]);
  });

  it('reads a YAML document from --openapi', async () => {
    const result = await runScan('api', {
      target: api.target,
      mode: 'local',
      openapi: `${api.target}/openapi.yaml`,
    });
    expect(result.findings.map((f) => f.rule_id)).toContain('api.auth.missing');
  });
});
