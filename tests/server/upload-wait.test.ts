/**
 * GET /api/insure-uploads/:id?waitMs=N holds a status request while the upload's view stays the same
 * (src/server/routes/insure-upload-wait.ts): it answers on the change, at once when this process wrote
 * it (notifyUpload), within a recheck when another process did, and after N ms when nothing changed.
 */
import { describe, expect, it } from 'vitest';
import { notifyUpload, waitForChange } from '../../src/server/routes/insure-upload-wait.ts';

type Row = { rowsDone: number; status: string };
const view = (r: Row) => ({ ...r });

describe('waiting for an upload to change', () => {
  it('answers as soon as this process notifies a change it wrote', async () => {
    let row: Row = { rowsDone: 0, status: 'parsing' };
    const t0 = Date.now();
    const waiting = waitForChange(7, row, { waitMs: 2000, read: async () => row, view, gone: () => false });
    setTimeout(() => {
      row = { rowsDone: 1000, status: 'parsing' };
      notifyUpload(7);
    }, 30);
    expect(await waiting).toEqual({ rowsDone: 1000, status: 'parsing' });
    expect(Date.now() - t0).toBeLessThan(90); // before the first recheck
  });

  it('finds a change another process wrote by reading again', async () => {
    let row: Row = { rowsDone: 0, status: 'parsing' };
    let reads = 0;
    setTimeout(() => (row = { rowsDone: 50000, status: 'ready' }), 250);
    const answer = await waitForChange(8, row, { waitMs: 2000, read: async () => (reads++, row), view, gone: () => false });
    expect(answer).toEqual({ rowsDone: 50000, status: 'ready' });
    expect(reads).toBeGreaterThanOrEqual(2);
    expect(reads).toBeLessThanOrEqual(4);
  });

  it('answers the same view after waitMs when nothing changed, and stops when the request goes away', async () => {
    const row: Row = { rowsDone: 10, status: 'parsing' };
    let t0 = Date.now();
    expect(await waitForChange(9, row, { waitMs: 300, read: async () => row, view, gone: () => false })).toEqual(row);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(290);
    let gone = false;
    setTimeout(() => (gone = true), 50);
    t0 = Date.now();
    await waitForChange(9, row, { waitMs: 2000, read: async () => row, view, gone: () => gone });
    expect(Date.now() - t0).toBeLessThan(400);
  });

});
