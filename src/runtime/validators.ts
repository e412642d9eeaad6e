/** Client-side checks that mirror the gateway's, so bad input is caught before it is sent. */

export { PHONE_RE, isValidIdCard } from '../shared/checks';
