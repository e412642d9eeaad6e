// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, render } from '@testing-library/react';
import { usePrefetchWhenIdle } from '../../src/runtime/pages/prefetch';

function Page({ ready, preload }: { ready: boolean; preload: () => Promise<void> }) {
  usePrefetchWhenIdle(ready, [preload]);
  return null;
}

afterEach(() => {
  cleanup();
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('loading the next page’s code ahead', () => {
  it('waits until the page shows its data, then loads once the browser is idle', async () => {
    vi.useFakeTimers();
    const preload = vi.fn(() => Promise.resolve());
    const view = render(<Page ready={false} preload={preload} />);
    await act(() => vi.advanceTimersByTimeAsync(10_000));
    expect(preload).not.toHaveBeenCalled();
    view.rerender(<Page ready preload={preload} />);
    await act(() => vi.advanceTimersByTimeAsync(1000));
    expect(preload).not.toHaveBeenCalled(); // the page's own requests and charts come first
    await act(() => vi.advanceTimersByTimeAsync(6000));
    expect(preload).toHaveBeenCalledTimes(1);
  });

  it('loads nothing ahead when the user asked to save data, or when the page is left first', async () => {
    vi.useFakeTimers();
    const preload = vi.fn(() => Promise.resolve());
    vi.stubGlobal('navigator', { ...navigator, connection: { saveData: true } });
    render(<Page ready preload={preload} />);
    await act(() => vi.advanceTimersByTimeAsync(10_000));
    vi.unstubAllGlobals();
    const left = render(<Page ready preload={preload} />);
    left.unmount();
    await act(() => vi.advanceTimersByTimeAsync(10_000));
    expect(preload).not.toHaveBeenCalled();
  });
});
