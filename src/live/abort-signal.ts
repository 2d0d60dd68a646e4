/**
 * Whether `value` looks like an `AbortSignal` (checked by shape, so that a polyfill's passes).
 *
 * @param value - anything
 * @returns true for an abort signal
 */
export function isAbortSignal(value: unknown): value is AbortSignal {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as AbortSignal).aborted === 'boolean' &&
    typeof (value as AbortSignal).addEventListener === 'function'
  );
}
