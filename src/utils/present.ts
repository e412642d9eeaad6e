/** A value counts as present unless it is undefined, null or the empty string (spec §5). 0 and false are present. */
export function isPresent<T>(v: T | undefined | null | ''): v is T {
  return v !== undefined && v !== null && v !== '';
}
