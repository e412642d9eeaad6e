import { createElement, lazy, useState, type ComponentProps, type ComponentType, type LazyExoticComponent } from 'react';

/** A page chunk that has not loaded after this long counts as failed (spec §8/§9: 120 s). */
export const CHUNK_LOAD_TIMEOUT_MS = 120000;

/** A page's code could not be loaded (network error, new deployment, or timeout). */
export class ChunkLoadError extends Error {
  constructor(
    message: string,
    /** Tries the import again; resolves once it loaded, rejects when it failed again. */
    readonly retry?: () => Promise<void>,
    cause?: unknown,
  ) {
    super(message, cause === undefined ? undefined : { cause });
    this.name = 'ChunkLoadError';
  }
}

const NATIVE_CHUNK_MESSAGES = [
  /Failed to fetch dynamically imported module/i, // Chrome
  /error loading dynamically imported module/i, // Firefox
  /Importing a module script failed/i, // Safari
  /Loading (CSS )?chunk .+ failed/i, // webpack-style
  /Unable to preload CSS/i, // Vite
];

/** True for our ChunkLoadError and for the browsers' own failed-dynamic-import errors. */
export function isChunkLoadError(e: unknown): boolean {
  if (e instanceof ChunkLoadError) return true;
  if (!(e instanceof Error)) return false;
  return e.name === 'ChunkLoadError' || NATIVE_CHUNK_MESSAGES.some((re) => re.test(e.message));
}

/**
 * Runs an import, rejecting with ChunkLoadError when it fails or is still pending after `timeoutMs`.
 * Errors that are not about loading (e.g. the module threw while evaluating) are wrapped too: either way
 * the page's code is unavailable and the retry screen is the right answer.
 */
export function loadChunk<T>(factory: () => Promise<T>, timeoutMs = CHUNK_LOAD_TIMEOUT_MS, retry?: () => Promise<void>): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new ChunkLoadError(`Loading chunk timed out after ${timeoutMs}ms`, retry)),
      timeoutMs,
    );
    let started: Promise<T>;
    try {
      started = factory();
    } catch (e) {
      started = Promise.reject(e);
    }
    started.then(
      (v) => {
        clearTimeout(timer);
        resolve(v);
      },
      (e: unknown) => {
        clearTimeout(timer);
        const msg = e instanceof Error ? e.message : String(e);
        reject(new ChunkLoadError(`Loading chunk failed: ${msg}`, retry, e));
      },
    );
  });
}

type Module<T> = { default: T };

/**
 * Like React.lazy(() => import(...)), but a failed or timed-out load rejects with a ChunkLoadError whose
 * retry() imports again. React.lazy remembers a rejection forever, so each retry swaps in a fresh lazy
 * component; the returned component always renders the latest one. preload() starts the same load ahead
 * of the first render (e.g. while the page's layout is still loading) and never swaps the component.
 */
// `any` props: the same constraint React.lazy itself uses.
export function lazyWithRetry<T extends ComponentType<any>>(
  factory: () => Promise<Module<T>>,
  timeoutMs = CHUNK_LOAD_TIMEOUT_MS,
): ComponentType<ComponentProps<T>> & { preload(): Promise<void> } {
  let pending: Promise<Module<T>> | undefined;
  /** The component once its chunk has loaded: rendered directly, without React.lazy's first suspension. */
  let loaded: T | undefined;
  const load = () =>
    (pending ??= loadChunk(factory, timeoutMs, retry).then((m) => {
      loaded = m.default;
      return m;
    }));
  const retry = async (): Promise<void> => {
    pending = undefined;
    const p = load();
    current = lazy(() => p);
    await p;
  };
  let current: LazyExoticComponent<T> = lazy(load);
  function LazyWithRetry(props: ComponentProps<T>) {
    // Chosen once per mount (a type that changed between renders would remount the page): a preloaded
    // chunk renders at once, so a navigation to it commits in one render instead of showing the fallback.
    const [type] = useState<ComponentType<any>>(() => loaded ?? current);
    return createElement(type, props);
  }
  // A failed preload is reported by the render that needs the chunk (its error boundary offers the retry).
  return Object.assign(LazyWithRetry, { preload: () => load().then(() => undefined, () => undefined) });
}
