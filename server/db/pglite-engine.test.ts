import { protocol } from '@electric-sql/pglite';
import { afterEach, describe, expect, it } from 'vitest';
import { budget } from '../../tests/helpers/budget.ts';
import { loadSchemaSources } from './migrate.ts';
import { EngineStopped, PGliteEngine } from './pglite-engine.ts';
import { templateTarball } from './template.ts';

const { serialize } = protocol;

async function openEngine(): Promise<PGliteEngine> {
  const loadDataDir = await templateTarball(await loadSchemaSources());
  return (await PGliteEngine.open({ op: 'open', loadDataDir, module: null, memory: null, maximumPages: 0 }))
    .engine;
}

const text = (bytes: Uint8Array) => Buffer.from(bytes).toString('latin1');

// Each test opens an engine on a fresh database: about 3 s on a quiet machine.
describe('PGlite on its own thread', { timeout: budget(4_000) }, () => {
  let engine: PGliteEngine | null = null;
  afterEach(async () => {
    await engine?.close();
    engine = null;
  });

  it('runs a batch of wire-protocol messages and answers the backend’s bytes', async () => {
    engine = await openEngine();
    const answer = await engine.run(serialize.query(`select 'from the engine' as greeting`), true);
    expect(text(answer)).toContain('from the engine');
    // A database error travels inside the answer; the engine goes on.
    expect(text(await engine.run(serialize.query('select 1/0'), false))).toContain('22012');
    expect(text(await engine.run(serialize.query('select 2'), false))).toContain('SELECT 1');
  });

  it('fails the call, and every later one, when the engine stops answering (wedged)', async () => {
    engine = await openEngine();
    // A message type the backend does not know leaves PGlite's loop spinning without an answer: a real
    // wedge (the stack never sends one; its batches come from the protocol serializer).
    const started = performance.now();
    const wedged = engine.run(new Uint8Array([0x7a, 0, 0, 0, 4]), false, 300);
    await expect(wedged).rejects.toBeInstanceOf(EngineStopped);
    await expect(wedged).rejects.toMatchObject({ code: '08006', message: /did not answer within 300 ms/ });
    expect(performance.now() - started).toBeLessThan(5000);
    await expect(engine.run(serialize.query('select 1'), false)).rejects.toMatchObject({ code: '08006' });
    expect(engine.failure).toBeInstanceOf(EngineStopped);
  });

  it('fails the call in flight and every later one when the engine’s thread ends (crashed)', async () => {
    engine = await openEngine();
    const slow = engine.run(serialize.query('select count(*) from generate_series(1, 300000000)'), false);
    await new Promise((r) => setTimeout(r, 100));
    // Ended from outside, as a crash would end it.
    await engine['worker'].terminate();
    await expect(slow).rejects.toMatchObject({ code: '08006', message: /thread exited/ });
    await expect(engine.dump()).rejects.toBeInstanceOf(EngineStopped);
  });
});
