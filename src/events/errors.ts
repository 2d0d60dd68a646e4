import { type ErrorInfo, errorKindOfStatus, pickErrorInfo } from '../schema/error-info.js';
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
 * The HTTP status of a failed API call: the `statusCode` (or `status`) of an `APICallError` or a
 * provider's stream error, of the last attempt of a `RetryError`, or of an error's `cause`,
 * looked up a few levels deep. The one reading of a status, for error chunks and the fallback
 * chain alike.
 *
 * @param error - anything a model call threw or streamed
 * @returns the status code, or undefined when the error did not come from an HTTP response
 */
export function statusCodeOf(error: unknown): number | undefined {
  for (const current of errorChain(error)) {
    const code = current.statusCode ?? current.status;
    if (typeof code === 'number' && Number.isInteger(code)) return code + 0;
  }
  return undefined;
}

/** The error, then its `lastError` (a `RetryError`'s last attempt) or `cause`, a few levels deep. */
function* errorChain(error: unknown): Generator<Record<PropertyKey, unknown>> {
  let current: unknown = error;
  for (let depth = 0; depth < 4 && isRecord(current); depth++) {
    yield current;
    current = current.lastError ?? current.cause;
  }
}

const RETRY_ERROR = Symbol.for('vercel.ai.error.AI_RetryError');

/** The error codes of a call that got no answer (Node, undici, Bun), beside `UND_ERR_*`. */
const NETWORK_CODES: ReadonlySet<string> = new Set([
  'ENOTFOUND',
  'EAI_AGAIN',
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENETUNREACH',
  'EHOSTUNREACH',
  'ConnectionRefused',
  'ConnectionClosed',
  'FailedToOpenSocket',
]);

/** What `fetch` throws when no answer came: Node and Chrome, Firefox, Safari. */
const FETCH_FAILED =
  /^(fetch failed|failed to fetch|networkerror when attempting to fetch resource\.?|load failed)$/i;

/** Whether the error, or one it wraps, says the call got no answer at all. */
function isNetworkFailure(error: unknown): boolean {
  for (const current of errorChain(error)) {
    const code = current.code;
    if (typeof code === 'string' && (NETWORK_CODES.has(code) || code.startsWith('UND_ERR_'))) {
      return true;
    }
    const message = current.message;
    if (typeof message === 'string') {
      // The AI SDK's own wording for a fetch that failed (`handleFetchError`).
      if (message.startsWith('Cannot connect to API:') || FETCH_FAILED.test(message)) return true;
    }
  }
  return false;
}

/** The AI SDK's `isRetryable` of the error or of the attempt it wraps. */
function retryableOf(error: unknown): boolean | undefined {
  for (const current of errorChain(error)) {
    if (typeof current.isRetryable === 'boolean') return current.isRetryable;
  }
  return undefined;
}

/** The number of attempts of an AI SDK `RetryError` (`errors`), or undefined for another error. */
function attemptsOf(error: unknown): number | undefined {
  if (!isRecord(error) || (error[RETRY_ERROR] !== true && error.name !== 'AI_RetryError')) {
    return undefined;
  }
  return Array.isArray(error.errors) && error.errors.length > 0 ? error.errors.length : undefined;
}

/**
 * What a thrown or streamed error says about the failure, as the fields of an error chunk: its
 * message, the HTTP status (`statusCode`), the `ErrorKind` (from the status, or `'network'`
 * when no answer came: `ENOTFOUND`, `ECONNREFUSED`, `fetch failed`…), whether a retry may help
 * (the AI SDK's `isRetryable`, of the last attempt for a `RetryError`) and how many attempts a
 * `RetryError` made. Which model failed is not in the error: the session adds `provider` and
 * `modelId`.
 *
 * @param error - anything a model call threw, or the `error` of an `error` stream part
 * @returns the error's fields
 *
 * @example
 * ```ts
 * toErrorInfo(new APICallError({ message: 'invalid x-api-key', url, requestBodyValues: {}, statusCode: 401 }));
 * // { message: 'invalid x-api-key', statusCode: 401, kind: 'auth', retryable: false }
 * ```
 */
export function toErrorInfo(error: unknown): ErrorInfo {
  const statusCode = statusCodeOf(error);
  const kind =
    statusCode !== undefined
      ? errorKindOfStatus(statusCode)
      : isNetworkFailure(error)
        ? 'network'
        : undefined;
  return pickErrorInfo({
    message: errorMessage(error),
    statusCode,
    kind,
    retryable: retryableOf(error),
    attempts: attemptsOf(error),
  });
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

function isRecord(value: unknown): value is Record<PropertyKey, unknown> {
  return typeof value === 'object' && value !== null;
}
