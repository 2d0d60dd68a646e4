/** The `code` of an error a handler answers with, for example `'invalid-parameter'` with a 400. */
export type HandlerErrorCode =
  | 'invalid-parameter'
  | 'unauthorized'
  | 'forbidden'
  | 'not-found'
  | 'no-session'
  | 'method-not-allowed'
  | 'unsupported-media-type'
  | 'payload-too-large'
  | 'closed'
  | 'internal';

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

/** 400, naming the parameter. */
export function badParameter(parameter: string, message: string): Response {
  return errorResponse(400, 'invalid-parameter', message, { parameter });
}
