import { ChunklogError } from '../errors/index.js';

/** The `code` of an error a handler answers with, for example `'invalid-parameter'` with a 400. */
export type HandlerErrorCode =
  | 'invalid-parameter'
  | 'unauthorized'
  | 'forbidden'
  | 'not-found'
  | 'no-session'
  | 'not-running'
  | 'method-not-allowed'
  | 'unsupported-media-type'
  | 'payload-too-large'
  | 'closed'
  | 'internal'
  | 'too-many-connections'
  | 'relay-unavailable';

/** The JSON body of an error response: `{ "error": { "code": "invalid-parameter", "parameter": "limit", "message": "…" } }`. */
export interface HandlerErrorBody {
  readonly error: {
    readonly code: HandlerErrorCode;
    readonly message: string;
    /** The offending parameter, for `invalid-parameter`. */
    readonly parameter?: string | undefined;
  };
}

const jsonHeaders = {
  'content-type': 'application/json; charset=utf-8',
  'cache-control': 'no-store',
};

/** A JSON response. */
export function json(
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): Response {
  return new Response(JSON.stringify(body), { status, headers: { ...jsonHeaders, ...headers } });
}

/** An error response with a JSON body naming what went wrong. */
export function errorResponse(
  status: number,
  code: HandlerErrorCode,
  message: string,
  extra: { parameter?: string; headers?: Record<string, string> } = {},
): Response {
  const body: HandlerErrorBody = {
    error: {
      code,
      message,
      ...(extra.parameter !== undefined ? { parameter: extra.parameter } : {}),
    },
  };
  return json(status, body, extra.headers);
}

/**
 * The answer to a session call (`send`, `steer`) that threw: 503 for a closed session, 400 naming
 * the parameter for an invalid option, else 500 with a message that hides the cause.
 *
 * @param error - what the session threw
 * @param what - what failed, for the 500's message (`'The message could not be sent.'`)
 * @returns the error response
 */
export function sessionFailure(error: unknown, what: string): Response {
  if (ChunklogError.hasCode(error, 'closed')) {
    return errorResponse(503, 'closed', 'The session of this thread is closed.');
  }
  if (ChunklogError.hasCode(error, 'invalid-option')) {
    return badParameter(error.option ?? 'body', error.message);
  }
  return errorResponse(500, 'internal', what);
}

/** 400, naming the parameter. */
export function badParameter(parameter: string, message: string): Response {
  return errorResponse(400, 'invalid-parameter', message, { parameter });
}
