import { createAnthropic } from '@ai-sdk/anthropic';
import { APICallError } from '@ai-sdk/provider';
import { RetryError } from 'ai';
import { describe, expect, it } from 'vitest';
import { statusCodeOf, toErrorInfo } from '../../src/events/errors.js';
import { toChunkEvents } from '../../src/events/index.js';
import { describeError, type ErrorInfo, errorNextStep } from '../../src/schema/index.js';

function httpError(statusCode: number, message: string, isRetryable?: boolean): APICallError {
  return new APICallError({
    message,
    url: 'https://api.anthropic.com/v1/messages',
    requestBodyValues: {},
    statusCode,
    responseBody: JSON.stringify({ type: 'error', error: { message } }),
    ...(isRetryable === undefined ? {} : { isRetryable }),
  });
}

/** What `@ai-sdk/anthropic` throws when its `fetch` throws `thrown`: the real wrapping. */
async function providerFailure(thrown: unknown): Promise<unknown> {
  const fetch = async () => {
    throw thrown;
  };
  const model = createAnthropic({ apiKey: 'k', fetch })('claude-x');
  try {
    await model.doStream({ prompt: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }] });
  } catch (error) {
    return error;
  }
  throw new Error('the call did not fail');
}

/** Node's (undici's) `fetch` when DNS has no answer. */
function dnsFailure(): TypeError {
  const cause = Object.assign(new Error('getaddrinfo ENOTFOUND api.anthropic.com'), {
    code: 'ENOTFOUND',
    syscall: 'getaddrinfo',
    hostname: 'api.anthropic.com',
  });
  return new TypeError('fetch failed', { cause });
}

/** The AI SDK's `RetryError` after `errors.length` attempts, worded as `retryWithExponentialBackoff` does. */
function retryError(errors: unknown[], reason: 'maxRetriesExceeded' | 'errorNotRetryable') {
  const last = errors.at(-1) as Error;
  return new RetryError({
    message:
      reason === 'maxRetriesExceeded'
        ? `Failed after ${errors.length} attempts. Last error: ${last.message}`
        : `Failed after ${errors.length} attempts with non-retryable error: '${last.message}'`,
    reason,
    errors,
  });
}

describe('toErrorInfo', () => {
  const cases: Array<[string, () => unknown | Promise<unknown>, ErrorInfo, string | undefined]> = [
    [
      '401: a bad key',
      () => httpError(401, 'invalid x-api-key'),
      { message: 'invalid x-api-key', statusCode: 401, kind: 'auth', retryable: false },
      'check the API key, then send again',
    ],
    [
      '403: no permission',
      () => httpError(403, 'Your API key does not have permission'),
      {
        message: 'Your API key does not have permission',
        statusCode: 403,
        kind: 'auth',
        retryable: false,
      },
      'check the API key, then send again',
    ],
    [
      '429: rate limited',
      () => httpError(429, 'Rate limited'),
      { message: 'Rate limited', statusCode: 429, kind: 'rate-limit', retryable: true },
      'rate limited: wait a moment, then send again',
    ],
    [
      '529: overloaded',
      () => httpError(529, 'Overloaded'),
      { message: 'Overloaded', statusCode: 529, kind: 'overloaded', retryable: true },
      'the provider is overloaded: wait a moment, then send again',
    ],
    [
      '500: the provider failed',
      () => httpError(500, 'Internal server error'),
      { message: 'Internal server error', statusCode: 500, kind: 'server', retryable: true },
      'the provider failed: send again',
    ],
    [
      '400: a refused request',
      () => httpError(400, 'prompt is too long'),
      { message: 'prompt is too long', statusCode: 400, kind: 'request', retryable: false },
      'the provider refused the request: check the model id and the message (sending it unchanged will fail again)',
    ],
    [
      '404: an unknown model',
      () => httpError(404, 'model: claude-nope'),
      { message: 'model: claude-nope', statusCode: 404, kind: 'request', retryable: false },
      'the provider refused the request: check the model id and the message (sending it unchanged will fail again)',
    ],
    [
      '408: a timeout, no kind but retryable',
      () => httpError(408, 'Request timeout'),
      { message: 'Request timeout', statusCode: 408, retryable: true },
      'send again',
    ],
    [
      'no network (DNS), through the real provider',
      () => providerFailure(dnsFailure()),
      {
        message: 'Cannot connect to API: getaddrinfo ENOTFOUND api.anthropic.com',
        kind: 'network',
        retryable: true,
      },
      'check the network connection, then send again',
    ],
    [
      'no network (connection refused), through the real provider',
      () =>
        providerFailure(
          Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:443'), { code: 'ECONNREFUSED' }),
        ),
      {
        message: 'Cannot connect to API: connect ECONNREFUSED 127.0.0.1:443',
        kind: 'network',
        retryable: true,
      },
      'check the network connection, then send again',
    ],
    [
      "a browser's fetch that failed",
      () => new TypeError('Failed to fetch'),
      { message: 'Failed to fetch', kind: 'network' },
      'check the network connection, then send again',
    ],
    [
      'the issue: three attempts without network',
      async () => {
        const error = await providerFailure(dnsFailure());
        return retryError([error, error, error], 'maxRetriesExceeded');
      },
      {
        message:
          'Failed after 3 attempts. Last error: Cannot connect to API: getaddrinfo ENOTFOUND api.anthropic.com',
        kind: 'network',
        retryable: true,
        attempts: 3,
      },
      'check the network connection, then send again',
    ],
    [
      'a retry that ended on a bad key',
      () =>
        retryError(
          [httpError(500, 'boom'), httpError(401, 'invalid x-api-key')],
          'errorNotRetryable',
        ),
      {
        message: "Failed after 2 attempts with non-retryable error: 'invalid x-api-key'",
        statusCode: 401,
        kind: 'auth',
        retryable: false,
        attempts: 2,
      },
      'check the API key, then send again',
    ],
    [
      'a provider stream error object (Anthropic overloaded_error, mapped by the provider)',
      () => ({
        message: 'Overloaded',
        type: 'overloaded_error',
        statusCode: 529,
        isRetryable: true,
      }),
      { message: 'Overloaded', statusCode: 529, kind: 'overloaded', retryable: true },
      'the provider is overloaded: wait a moment, then send again',
    ],
    ['a plain error', () => new Error('boom'), { message: 'boom' }, undefined],
    [
      'an abort',
      () => new DOMException('This operation was aborted', 'AbortError'),
      { message: 'This operation was aborted' },
      undefined,
    ],
    ['a string', () => 'plain text', { message: 'plain text' }, undefined],
  ];

  it.each(cases)('%s', async (_name, make, info, next) => {
    const error = await make();
    expect(toErrorInfo(error)).toStrictEqual(info);
    expect(errorNextStep(info)).toBe(next);
    // An `error` stream part carries the same fields.
    expect(toChunkEvents({ type: 'error', error })).toStrictEqual([{ type: 'error', ...info }]);
  });

  it('describes the issue example on one line, with the model the session adds', async () => {
    const error = await providerFailure(dnsFailure());
    const info = toErrorInfo(retryError([error, error, error], 'maxRetriesExceeded'));
    expect(describeError({ ...info, provider: 'anthropic.messages', modelId: 'claude-x' })).toBe(
      'Error from anthropic claude-x (3 attempts): Failed after 3 attempts. Last error: Cannot connect to API: getaddrinfo ENOTFOUND api.anthropic.com — check the network connection, then send again',
    );
  });

  it('reads the status of a status-only error (`status`) and of a cause, but not a network code', () => {
    expect(statusCodeOf({ status: 502 })).toBe(502);
    expect(statusCodeOf({ cause: { statusCode: 503 } })).toBe(503);
    expect(statusCodeOf(dnsFailure())).toBeUndefined();
    expect(toErrorInfo({ message: 'x', cause: { status: 401 } })).toStrictEqual({
      message: 'x',
      statusCode: 401,
      kind: 'auth',
    });
  });
});
