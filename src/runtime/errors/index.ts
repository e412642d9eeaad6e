export { ErrorBoundary, HOME_PATH, type ErrorBoundaryProps } from './ErrorBoundary';
export { CHUNK_LOAD_TIMEOUT_MS, ChunkLoadError, isChunkLoadError, lazyWithRetry, loadChunk } from './lazyWithRetry';
