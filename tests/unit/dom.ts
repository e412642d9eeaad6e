import { afterEach, beforeAll, vi } from 'vitest';
import { cleanup } from '@testing-library/react';

/**
 * For a jsdom test file that renders antd: the browser APIs its responsive helpers need and jsdom
 * lacks (matchMedia, and ResizeObserver when jsdom has none), and after each test an empty document
 * and the real globals again (vi.stubGlobal).
 */
export function useAntdDom(): void {
  beforeAll(() => {
    Object.defineProperty(window, 'matchMedia', {
      writable: true,
      value: (query: string) => ({ matches: false, media: query, onchange: null, addListener: () => {}, removeListener: () => {}, addEventListener: () => {}, removeEventListener: () => {}, dispatchEvent: () => false }),
    });
    if (!('ResizeObserver' in window)) {
      Object.defineProperty(window, 'ResizeObserver', { writable: true, value: class { observe() {} unobserve() {} disconnect() {} } });
    }
  });
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });
}

/** A gateway answer as fetch returns it. */
export function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

/** The window resized to width × height, as a browser reports it (innerWidth/innerHeight, then 'resize'). */
export function setWindowSize(width: number, height?: number): void {
  Object.defineProperty(window, 'innerWidth', { configurable: true, writable: true, value: width });
  if (height !== undefined) Object.defineProperty(window, 'innerHeight', { configurable: true, writable: true, value: height });
  window.dispatchEvent(new Event('resize'));
}
