import { PAGINATION_LABELS } from '../table/sizing';
import type zhCN from './zh-CN';

type Shape<T> = { [K in keyof T]: T[K] extends string ? string : Shape<T[K]> };

/** English, available for the runtime chrome; the pagination labels are the ones the specification gives (§9). */
const enUS: Shape<typeof zhCN> = {
  header: {
    language: 'Language',
    switchBusiness: 'Switch business',
    noBusiness: 'No business selected',
    current: 'Current',
    switchedTo: 'Switched to {{name}}',
    topNav: 'Use top navigation',
    sideNav: 'Use side navigation',
    logout: 'Sign out',
    loggedOut: 'Signed out',
  },
  pagination: {
    ...PAGINATION_LABELS,
    total: 'Total {{total}} items',
    totalEstimated: 'About {{total}} items',
  },
  button: {
    submit: 'Submit',
    save: 'Save',
    cancel: 'Cancel',
    confirm: 'OK',
    export: 'Export',
    retry: 'Retry',
    back: 'Back',
  },
};

export default enUS;
