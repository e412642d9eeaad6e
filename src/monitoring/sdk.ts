/**
 * The part of @sentry/browser the console uses. Loaded only through initMonitoring's dynamic import, so
 * it is a chunk of its own that is fetched only when reporting is on; named re-exports let the bundler
 * leave out what is not used (session replay, user feedback, …).
 */
export { browserTracingIntegration, captureException, init } from '@sentry/browser';
