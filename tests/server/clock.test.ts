/**
 * The gateway's clock (src/server/clock.ts): a development/test gateway with the movable clock moves
 * every request's day with PUT /api/dev/clock, through the database; a gateway without it has no such
 * route; a production start with it is refused.
 */
import { describe, expect, it } from 'vitest';
import { startServer, StartupError } from '../../src/server/server.ts';
import { addDays } from '../../src/server/domain/util.ts';
import { useGateway } from './helpers.ts';

describe('a gateway with the movable clock (FAKE_CLOCK=1)', () => {
  const c = useGateway({ fakeClock: true }, 180_000);

  it('moves the business day of every request and back, and refuses a bad time', async () => {
    const today = (await c.call('GET', '/api/overview/workbench')).body.data.today as string;
    const moved = await c.call('PUT', '/api/dev/clock', { body: { now: new Date(Date.now() + 3 * 86_400_000).toISOString() } });
    expect(moved.status).toBe(200);
    expect((await c.call('GET', '/api/overview/workbench')).body.data.today).toBe(addDays(today, 3));
    const bad = await c.call('PUT', '/api/dev/clock', { body: { now: 'tomorrow' } });
    expect(bad.status).toBe(400);
    expect((await c.call('PUT', '/api/dev/clock', { body: { now: null } })).status).toBe(200);
    expect((await c.call('GET', '/api/overview/workbench')).body.data.today).toBe(today);
  });
});

describe('a gateway without it', () => {
  const c = useGateway({}, 180_000);

  it('has no clock route', async () => {
    expect((await c.call('PUT', '/api/dev/clock', { body: { now: null } })).status).toBe(404);
  });

  it('refuses to start in production with the movable clock', async () => {
    const err = await startServer({ port: 0, host: '127.0.0.1', dataDir: 'memory', production: true, fakeClock: true }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(StartupError);
    expect((err as Error).message).toContain('FAKE_CLOCK');
  }, 180_000);
});
