// What an error chunk (and an `error` event, and an `error` row's data) says about a failure:
// the message, and — each optional, so rows stored before they existed still parse — the HTTP
// status, what kind of failure it was, whether sending again can help, how many attempts were
// made and which model failed. docs/errors.md lists them; error-next-step.ts turns them into
// the next step for the user.

import { listingEvery } from './listing-every.js';

/**
 * What kind of failure an error was, as far as chunklog can tell:
 * - `'auth'`: the provider refused the credentials (HTTP 401, 403);
 * - `'network'`: no answer came (DNS, refused or reset connection, `fetch failed`);
 * - `'rate-limit'`: too many requests (HTTP 429);
 * - `'overloaded'`: the provider is overloaded (HTTP 529, 503);
 * - `'server'`: any other provider failure (HTTP 5xx);
 * - `'request'`: the provider refused the request itself (another HTTP 4xx: 400, 404, 413, 422).
 *
 * An error of none of these kinds (a tool's, the app's) has no `kind`.
 */
export type ErrorKind = 'auth' | 'network' | 'rate-limit' | 'overloaded' | 'server' | 'request';

/** Every {@link ErrorKind}, in a fixed order. */
export const ERROR_KINDS: readonly ErrorKind[] = [
  'auth',
  'network',
  'rate-limit',
  'overloaded',
  'server',
  'request',
];

/**
 * The fields of an error, shared by the `error` chunk, the `error` event and the `error` row's
 * data. Only `message` is required.
 *
 * @example
 * ```ts
 * const info: ErrorInfo = {
 *   message: 'invalid x-api-key',
 *   statusCode: 401,
 *   kind: 'auth',
 *   retryable: false,
 *   provider: 'anthropic.messages',
 *   modelId: 'claude-sonnet-4-5',
 * };
 * ```
 */
export interface ErrorInfo {
  /** The error's message, as the provider or the AI SDK wrote it. */
  readonly message: string;
  /** The HTTP status of a failed API call, when there was one. */
  readonly statusCode?: number | undefined;
  /** What kind of failure it was, when chunklog could tell. */
  readonly kind?: ErrorKind | undefined;
  /** Whether sending again may succeed (the AI SDK's `isRetryable` of the last attempt). */
  readonly retryable?: boolean | undefined;
  /** How many calls were made before giving up, when the AI SDK retried (a `RetryError`). */
  readonly attempts?: number | undefined;
  /** The provider of the model that failed, as the model names it (`'anthropic.messages'`). */
  readonly provider?: string | undefined;
  /** The id of the model that failed (`'claude-sonnet-4-5'`). */
  readonly modelId?: string | undefined;
}

/** The optional fields of an {@link ErrorInfo}, in the order they are written. */
const OPTIONAL_KEYS = listingEvery<Exclude<keyof ErrorInfo, 'message'>>()([
  'statusCode',
  'kind',
  'retryable',
  'attempts',
  'provider',
  'modelId',
]);

type Writable<T> = { -readonly [K in keyof T]: T[K] };

/**
 * The error fields of `source`: its message and each optional field it has a value for (an
 * `undefined` one is left out), in a fixed order. Used wherever an error moves from one shape to
 * another (event → chunk, chunk → UI data part and back), so no field is dropped on the way.
 *
 * @param source - an error event, chunk, row data or UI part data
 * @returns the fields, without `type` or `step`
 *
 * @example
 * ```ts
 * pickErrorInfo({ type: 'error', message: 'Overloaded', statusCode: 529, kind: undefined });
 * // { message: 'Overloaded', statusCode: 529 }
 * ```
 */
export function pickErrorInfo(source: ErrorInfo): ErrorInfo {
  const out: Writable<ErrorInfo> = { message: source.message };
  for (const key of OPTIONAL_KEYS) {
    const value = source[key];
    if (value !== undefined) (out as Record<string, unknown>)[key] = value;
  }
  return out;
}

/**
 * The {@link ErrorKind} an HTTP status means: 401 and 403 `'auth'`, 429 `'rate-limit'`, 529 and
 * 503 `'overloaded'`, another 5xx `'server'`, another 4xx `'request'` (except 408 and 409, which
 * a retry may fix, and have no kind).
 *
 * @param statusCode - the HTTP status, or undefined
 * @returns its kind, or undefined
 *
 * @example
 * ```ts
 * errorKindOfStatus(401); // 'auth'
 * errorKindOfStatus(400); // 'request'
 * ```
 */
export function errorKindOfStatus(statusCode: number | undefined): ErrorKind | undefined {
  if (statusCode === undefined) return undefined;
  if (statusCode === 401 || statusCode === 403) return 'auth';
  if (statusCode === 429) return 'rate-limit';
  if (statusCode === 529 || statusCode === 503) return 'overloaded';
  if (statusCode >= 500 && statusCode <= 599) return 'server';
  if (statusCode === 408 || statusCode === 409) return undefined;
  if (statusCode >= 400 && statusCode <= 499) return 'request';
  return undefined;
}
