/** Money and cover domain services: plain functions over Db, called from route handlers/hooks. */
export * from './errors.ts';
export * from './util.ts';
export * from './ddl.ts';
export * from './plans.ts';
export * from './balance.ts';
export * from './cover.ts';
export * from './insure.ts';
export * from './auto-insure.ts';
export * from './quote.ts';
export * from './invoice.ts';
export * from './refund.ts';
export * from './finance-choices.ts';
export * from './bank.ts';
export * from './payment.ts';
export * from './idempotency.ts';
