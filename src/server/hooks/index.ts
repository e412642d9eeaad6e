/** All entity hook modules, keyed by entity name. Add a module here to give an entity business rules. */
import { createHookRegistry, type HookRegistry } from '../entity/hooks.ts';
import { bankAccountHooks } from './bank-account.ts';

export function defaultHooks(): HookRegistry {
  return createHookRegistry({ 'bank-account': bankAccountHooks });
}
