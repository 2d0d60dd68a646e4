// The words an app shows for an error chunk: a title naming the model and the status, the next
// step for the user, and both with the message on one line. Pure functions of the chunk's fields
// (error-info.ts), shared by the window, the React hooks, the inspector and the examples.
import { type ErrorInfo, type ErrorKind, errorKindOfStatus } from './error-info.js';

const NEXT_STEPS: Readonly<Record<ErrorKind, string>> = {
  auth: 'check the API key, then send again',
  network: 'check the network connection, then send again',
  'rate-limit': 'rate limited: wait a moment, then send again',
  overloaded: 'the provider is overloaded: wait a moment, then send again',
  server: 'the provider failed: send again',
  request:
    'the provider refused the request: check the model id and the message (sending it unchanged will fail again)',
};

/**
 * What the user can do about an error, in a few words, from its `kind` (or, for a row stored
 * without one, its `statusCode`) and `retryable`:
 *
 * | kind | next step |
 * |---|---|
 * | `auth` (401, 403) | check the API key, then send again |
 * | `network` | check the network connection, then send again |
 * | `rate-limit` (429) | rate limited: wait a moment, then send again |
 * | `overloaded` (529, 503) | the provider is overloaded: wait a moment, then send again |
 * | `server` (5xx) | the provider failed: send again |
 * | `request` (other 4xx) | the provider refused the request: check the model id and the message (sending it unchanged will fail again) |
 * | none, `retryable: true` | send again |
 * | none | undefined: nothing is known to help |
 *
 * @param info - the error's fields (an error chunk, event or row data)
 * @returns the next step, lower case and without a final period, or undefined
 *
 * @example
 * ```ts
 * errorNextStep({ message: 'invalid x-api-key', statusCode: 401 }); // 'check the API key, then send again'
 * errorNextStep({ message: 'Failed after 3 attempts. Last error: Cannot connect to API: getaddrinfo ENOTFOUND api.anthropic.com', kind: 'network' });
 * // 'check the network connection, then send again'
 * ```
 */
export function errorNextStep(info: ErrorInfo): string | undefined {
  const kind = info.kind ?? errorKindOfStatus(info.statusCode);
  if (kind !== undefined) return NEXT_STEPS[kind];
  return info.retryable === true ? 'send again' : undefined;
}

/**
 * The provider's short name: `'anthropic'` for `'anthropic.messages'`, as a person would say it.
 *
 * @param provider - the provider id a `LanguageModel` gives
 * @returns the part before the first dot
 */
function providerName(provider: string): string {
  const dot = provider.indexOf('.');
  return dot > 0 ? provider.slice(0, dot) : provider;
}

/**
 * The title of an error: `Error`, the model that failed, and the HTTP status and number of
 * attempts when known, for example `Error from anthropic claude-sonnet-4-5 (HTTP 401)` or
 * `Error (3 attempts)`.
 *
 * @param info - the error's fields
 * @returns the title
 *
 * @example
 * ```ts
 * errorTitle({ message: 'x', provider: 'anthropic.messages', modelId: 'claude-x', statusCode: 401 });
 * // 'Error from anthropic claude-x (HTTP 401)'
 * ```
 */
export function errorTitle(info: ErrorInfo): string {
  const model = [
    info.provider === undefined ? undefined : providerName(info.provider),
    info.modelId,
  ].filter((part) => part !== undefined && part !== '');
  const facts = [
    info.statusCode === undefined ? undefined : `HTTP ${info.statusCode}`,
    info.attempts === undefined || info.attempts < 2 ? undefined : `${info.attempts} attempts`,
  ].filter((part) => part !== undefined);
  return `Error${model.length > 0 ? ` from ${model.join(' ')}` : ''}${
    facts.length > 0 ? ` (${facts.join(', ')})` : ''
  }`;
}

/**
 * An error on one line: its {@link errorTitle}, its message and its {@link errorNextStep}, for
 * example `Error from anthropic claude-x (HTTP 401): invalid x-api-key — check the API key, then
 * send again`.
 *
 * @param info - the error's fields (an error chunk, event or row data)
 * @returns the line
 *
 * @example
 * ```ts
 * for (const chunk of message.chunks) {
 *   if (chunk.type === 'error') console.error(describeError(chunk));
 * }
 * ```
 */
export function describeError(info: ErrorInfo): string {
  const next = errorNextStep(info);
  return `${errorTitle(info)}: ${info.message}${next === undefined ? '' : ` — ${next}`}`;
}
