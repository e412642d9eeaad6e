import Fastify from 'fastify';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import idleGc, { fullGc, idleGcFromEnv } from '../../src/server/http/idle-gc.ts';

let close: (() => Promise<void>) | undefined;
afterEach(async () => close?.());

/** A bare app with the plugin (quiet after 400 ms, any growth counts) and a route held open until released. */
async function app() {
  let calls = 0;
  let release = () => {};
  const a = Fastify();
  await a.register(idleGc, { idleMs: 400, growthBytes: 0, checkMs: 20, collect: () => calls++ });
  a.get('/quick', async () => ({ ok: true }));
  a.get('/held', () => new Promise((r) => (release = () => r({ ok: true }))));
  await a.listen({ port: 0, host: '127.0.0.1' });
  close = () => a.close();
  const url = `http://127.0.0.1:${(a.server.address() as { port: number }).port}`;
  return { url, calls: () => calls, release: () => release() };
}

describe('idle garbage collection', () => {
  it('collects once the gateway has been quiet, never while a request is in flight', async () => {
    const gw = await app();
    await expect.poll(gw.calls, { timeout: 5000, interval: 20 }).toBeGreaterThan(0);
    const held = fetch(`${gw.url}/held`);
    await sleep(100);
    const during = gw.calls();
    await sleep(800);
    expect(gw.calls(), 'no collection while a request waits for its answer').toBe(during);
    gw.release();
    await held;
    const answered = gw.calls();
    await sleep(150);
    expect(gw.calls(), 'none within the quiet time after the last answer').toBe(answered);
    await expect.poll(gw.calls, { timeout: 5000, interval: 20 }).toBeGreaterThan(answered);
  });

  it('waits for the heap to grow before collecting again', async () => {
    let calls = 0;
    const a = Fastify();
    await a.register(idleGc, { idleMs: 0, growthBytes: 512 * 1024 * 1024, checkMs: 20, collect: () => calls++ });
    await a.ready();
    close = () => a.close();
    await sleep(200);
    expect(calls).toBe(0);
  });

  it("exposes V8's full collection in this process", () => {
    const gc = fullGc();
    expect(typeof gc).toBe('function');
    gc!();
  });
});

describe('IDLE_GC_SECONDS', () => {
  it('sets the quiet time, turns the collection off with 0 and refuses what is no number of seconds', () => {
    expect(idleGcFromEnv({})).toEqual({});
    expect(idleGcFromEnv({ IDLE_GC_SECONDS: '30' })).toEqual({ idleMs: 30_000 });
    expect(idleGcFromEnv({ IDLE_GC_SECONDS: '0' })).toBe(false);
    expect(() => idleGcFromEnv({ IDLE_GC_SECONDS: 'soon' })).toThrow(/IDLE_GC_SECONDS/);
  });
});
