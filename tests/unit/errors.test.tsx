// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Suspense, useEffect } from 'react';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import {
  CHUNK_LOAD_TIMEOUT_MS,
  ChunkLoadError,
  ErrorBoundary,
  isChunkLoadError,
  lazyWithRetry,
  loadChunk,
} from '../../src/runtime/errors';
import * as monitoring from '../../src/monitoring/sentry';

// jsdom lacks matchMedia, which antd's responsive helpers call.
if (!window.matchMedia) {
  Object.defineProperty(window, 'matchMedia', {
    value: () => ({ matches: false, addListener() {}, removeListener() {}, addEventListener() {}, removeEventListener() {} }),
  });
}

// React rethrows caught render errors to window in development; keep jsdom from printing them.
const quiet = (e: ErrorEvent) => e.preventDefault();
window.addEventListener('error', quiet);

afterEach(() => {
  cleanup();
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe('loadChunk', () => {
  it('rejects a never-resolving import with ChunkLoadError after 120000 ms', async () => {
    vi.useFakeTimers();
    expect(CHUNK_LOAD_TIMEOUT_MS).toBe(120000);
    const p = loadChunk(() => new Promise<never>(() => {}));
    let settled: unknown;
    p.catch((e: unknown) => (settled = e));
    await vi.advanceTimersByTimeAsync(CHUNK_LOAD_TIMEOUT_MS - 1);
    expect(settled).toBeUndefined();
    await vi.advanceTimersByTimeAsync(1);
    expect(settled).toBeInstanceOf(ChunkLoadError);
    expect(isChunkLoadError(settled)).toBe(true);
  });

  it('passes a loaded module through and wraps a failed import', async () => {
    await expect(loadChunk(async () => ({ default: 1 }))).resolves.toEqual({ default: 1 });
    const native = new TypeError('Failed to fetch dynamically imported module: /assets/TablePage-x.js');
    expect(isChunkLoadError(native)).toBe(true);
    expect(isChunkLoadError(new Error('other'))).toBe(false);
    await expect(loadChunk(() => Promise.reject(native))).rejects.toMatchObject({ name: 'ChunkLoadError', cause: native });
  });
});

function Boom(): never {
  throw new Error('render failed');
}

describe('ErrorBoundary', () => {
  it('shows 页面出错了 with 重试 and 返回首页, reports the error and resets', () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const report = vi.spyOn(monitoring, 'reportError');
    let fail = true;
    function Maybe() {
      if (fail) Boom();
      return <p>页面内容</p>;
    }
    render(
      <ErrorBoundary>
        <Maybe />
      </ErrorBoundary>,
    );
    expect(screen.getByText('页面出错了')).toBeTruthy();
    expect(screen.getByRole('button', { name: /返回首页/ })).toBeTruthy();
    expect(report).toHaveBeenCalledWith(expect.objectContaining({ message: 'render failed' }), expect.objectContaining({ chunk: false }));
    fail = false;
    fireEvent.click(screen.getByRole('button', { name: /重\s*试/ }));
    expect(screen.getByText('页面内容')).toBeTruthy();
  });

  it('shows 页面资源加载失败 for a chunk error; 重新加载 retries the import', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const factory = vi
      .fn<() => Promise<{ default: () => JSX.Element }>>()
      .mockRejectedValueOnce(new TypeError('Failed to fetch dynamically imported module'))
      .mockResolvedValue({ default: () => <p>订单管理</p> });
    const Page = lazyWithRetry(factory);
    const reload = vi.fn();
    render(
      <ErrorBoundary reload={reload}>
        <Suspense fallback={<p>加载中</p>}>
          <Page />
        </Suspense>
      </ErrorBoundary>,
    );
    expect(await screen.findByText('页面资源加载失败')).toBeTruthy();
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: /重新加载/ }));
    });
    expect(await screen.findByText('订单管理')).toBeTruthy();
    expect(factory).toHaveBeenCalledTimes(2);
    expect(reload).not.toHaveBeenCalled();
  });

  it('preload() starts the import the first render then uses, and never remounts a shown page', async () => {
    let mounts = 0;
    function Orders() {
      useEffect(() => void mounts++, []);
      return <p>订单管理</p>;
    }
    const factory = vi.fn(async () => ({ default: Orders }));
    const Page = lazyWithRetry(factory);
    await Page.preload();
    expect(factory).toHaveBeenCalledTimes(1);
    const { rerender } = render(
      <Suspense fallback={<p>加载中</p>}>
        <Page />
      </Suspense>,
    );
    expect(await screen.findByText('订单管理')).toBeTruthy();
    await Page.preload();
    rerender(
      <Suspense fallback={<p>加载中</p>}>
        <Page />
      </Suspense>,
    );
    expect(screen.getByText('订单管理')).toBeTruthy();
    expect(factory).toHaveBeenCalledTimes(1);
    expect(mounts).toBe(1);
  });

  it('reloads the page when the retry fails too', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const factory = vi.fn<() => Promise<{ default: () => JSX.Element }>>().mockRejectedValue(new Error('Importing a module script failed.'));
    const Page = lazyWithRetry(factory);
    const reload = vi.fn();
    render(
      <ErrorBoundary reload={reload}>
        <Suspense fallback={null}>
          <Page />
        </Suspense>
      </ErrorBoundary>,
    );
    await screen.findByText('页面资源加载失败');
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: /重新加载/ }));
    });
    expect(factory).toHaveBeenCalledTimes(2);
    expect(reload).toHaveBeenCalledTimes(1);
  });
});
