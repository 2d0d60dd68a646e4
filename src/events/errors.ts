import type { JSONValue } from '../schema/json.js';
import { plainJson } from './json-safe.js';

/**
 * The text of an error as the AI SDK writes it for the model (`getErrorMessage`): the string
 * itself, `String(error)` for an `Error` (`"Error: boom"`), JSON for anything else, and
 * `'unknown error'` for null or undefined.
 *
 * @param error - anything thrown or reported
 * @returns the error's text
 */
export function errorText(error: unknown): string {
  if (error == null) return 'unknown error';
  if (typeof error === 'string') return error;
  if (error instanceof Error) return error.toString();
  try {
    return JSON.stringify(error) ?? String(error);
  } catch {
    return JSON.stringify(plainJson(error));
  }
}

/**
 * The human-readable message of a stream error: an `Error`'s `message`, a string as is,
 * anything else as {@link errorText}.
 *
 * @param error - the `error` of an `error` part
 * @returns its message
 */
export function errorMessage(error: unknown): string {
  if (error instanceof Error) return error.message;
  if (isRecord(error) && typeof error.message === 'string') return error.message;
  return errorText(error);
}

/**
 * The HTTP status of a failed API call: the `statusCode` of an `APICallError`, of the last
 * attempt of a `RetryError`, or of an error's `cause`, looked up a few levels deep.
 *
 * @param error - the `error` of an `error` part
 * @returns the status code, or undefined when the error did not come from an HTTP response
 */
export function statusCodeOf(error: unknown): number | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 4 && isRecord(current); depth++) {
    const code = current.statusCode;
    if (typeof code === 'number' && Number.isInteger(code)) return code + 0;
    current = current.lastError ?? current.cause;
  }
  return undefined;
}

/**
 * The output recorded for a failed tool call: the text the AI SDK sends the model
 * (`error-text`) for a tool the app ran, the error as JSON (`error-json`) for a
 * provider-executed one.
 *
 * @param error - the `error` of a `tool-error` part
 * @param providerExecuted - whether the provider ran the tool
 * @returns the JSON to store as the call's result
 */
export function toolErrorOutput(error: unknown, providerExecuted: boolean): JSONValue {
  return providerExecuted ? plainJson(error) : errorText(error);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}
