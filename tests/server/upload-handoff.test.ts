/**
 * The file a gateway process just stored for an upload is kept a few seconds for its own parse
 * (src/server/routes/insure-upload-handoff.ts): taken once, bounded in bytes, and dropped after its time,
 * after which a parse reads the file storage as any other process does.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { handOver, takeHandedOver } from '../../src/server/routes/insure-upload-handoff.ts';

afterEach(() => vi.useRealTimers());

describe('the upload handoff', () => {
  it('gives the file to the first who asks, once', () => {
    const file = Buffer.from('roster');
    handOver('uploads/B1/a.xlsx', file);
    expect(takeHandedOver('uploads/B1/other.xlsx')).toBeUndefined();
    expect(takeHandedOver('uploads/B1/a.xlsx')).toBe(file);
    expect(takeHandedOver('uploads/B1/a.xlsx')).toBeUndefined();
  });

  it('keeps at most 64 MB at once: a file beyond that is read back from the storage', () => {
    handOver('uploads/B1/big-1.xlsx', Buffer.allocUnsafe(40 * 1024 * 1024));
    handOver('uploads/B1/big-2.xlsx', Buffer.allocUnsafe(40 * 1024 * 1024));
    expect(takeHandedOver('uploads/B1/big-2.xlsx')).toBeUndefined();
    expect(takeHandedOver('uploads/B1/big-1.xlsx')?.length).toBe(40 * 1024 * 1024);
    // Taken, its room is free again.
    handOver('uploads/B1/big-3.xlsx', Buffer.allocUnsafe(40 * 1024 * 1024));
    expect(takeHandedOver('uploads/B1/big-3.xlsx')).toBeDefined();
  });

  it('drops a file nobody took within 15 s', () => {
    vi.useFakeTimers();
    handOver('uploads/B1/late.xlsx', Buffer.from('roster'));
    vi.advanceTimersByTime(14_000);
    handOver('uploads/B1/later.xlsx', Buffer.from('roster'));
    vi.advanceTimersByTime(1_500);
    expect(takeHandedOver('uploads/B1/late.xlsx')).toBeUndefined();
    expect(takeHandedOver('uploads/B1/later.xlsx')).toBeDefined();
  });
});
