import { describeUnknownKey } from '../errors/invalid-option.js';
import { idProblem, MAX_ID_BYTES, threadIdProblem } from '../schema/id.js';
import { isJsonMediaType } from './media-type.js';
import { badParameter, errorResponse } from './responses.js';

/** A parsed value, or the 400 response that names the bad parameter. */
export type Parsed<T> =
  | { readonly ok: true; readonly value: T }
  | { readonly ok: false; readonly response: Response };

/** The longest thread id accepted, in UTF-8 bytes (what every store dialect can key). */
export const MAX_THREAD_ID_BYTES: number = MAX_ID_BYTES;

/**
 * Decodes a thread id taken from a path segment (it is checked by the route, with
 * {@link checkThreadId}).
 *
 * @param segment - the raw (percent-encoded) path segment
 * @returns the decoded id, or a 400 naming `threadId`
 */
export function decodeThreadId(segment: string): Parsed<string> {
  try {
    return { ok: true, value: decodeURIComponent(segment) };
  } catch {
    return {
      ok: false,
      response: badParameter('threadId', 'The thread id is not valid percent-encoding.'),
    };
  }
}

/**
 * Checks a thread id a route was given (decoded from the path, by `fetch` or by the app's own
 * router) by the one thread id rule (`threadIdProblem`).
 *
 * @param threadId - the untrusted id
 * @returns the id, or a 400 naming `threadId`
 */
export function checkThreadId(threadId: unknown): Parsed<string> {
  const problem = threadIdProblem(threadId);
  if (problem !== undefined) {
    return { ok: false, response: badParameter('threadId', `The thread id ${problem}.`) };
  }
  return { ok: true, value: threadId as string };
}

/**
 * Reads an optional integer query parameter.
 *
 * @param params - the query
 * @param name - the parameter
 * @param min - the smallest value allowed
 * @param max - the largest value allowed
 * @returns the value (undefined when absent), or a 400 naming the parameter
 */
export function integerParam(
  params: URLSearchParams,
  name: string,
  min: number,
  max: number,
): Parsed<number | undefined> {
  const values = params.getAll(name);
  if (values.length === 0) return { ok: true, value: undefined };
  const text = values[0] as string;
  if (values.length > 1) {
    return { ok: false, response: badParameter(name, `\`${name}\` must be given once.`) };
  }
  const value = /^\d{1,15}$/.test(text) ? Number(text) : Number.NaN;
  if (!Number.isSafeInteger(value) || value < min || value > max) {
    return {
      ok: false,
      response: badParameter(
        name,
        `\`${name}\` must be an integer from ${min} to ${max} (got ${JSON.stringify(text)}).`,
      ),
    };
  }
  return { ok: true, value };
}

const unsupportedType = (): { ok: false; response: Response } => ({
  ok: false,
  response: errorResponse(
    415,
    'unsupported-media-type',
    'The body must be application/json (UTF-8, no other charset).',
  ),
});

/**
 * Reads a request's JSON body, at most `maxBytes` long.
 *
 * @param request - the request
 * @param maxBytes - the largest body accepted
 * @returns the parsed JSON, or a 415, 413 or 400 response
 */
export async function readJsonBody(request: Request, maxBytes: number): Promise<Parsed<unknown>> {
  if (!isJsonMediaType(request.headers.get('content-type'))) return unsupportedType();
  const bytes = await readBytes(request, maxBytes);
  if (!bytes.ok) return bytes;
  try {
    return {
      ok: true,
      value: JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes.value)),
    };
  } catch {
    return { ok: false, response: badParameter('body', 'The body is not valid JSON.') };
  }
}

/**
 * Reads a request's body, at most `maxBytes` long.
 *
 * @param request - the request
 * @param maxBytes - the largest body accepted
 * @returns the bytes, or a 413 response
 */
async function readBytes(request: Request, maxBytes: number): Promise<Parsed<Uint8Array>> {
  const tooLarge = (): Parsed<Uint8Array> => ({
    ok: false,
    response: errorResponse(
      413,
      'payload-too-large',
      `The body must be at most ${maxBytes} bytes (the handlers' \`maxBodyBytes\`). A chat client sends only its last message with \`prepareSendMessagesRequest\` (docs/ui-messages.md).`,
      // The rest of the body is not read: the connection closes after the answer, so that no
      // next request is read from the middle of this one's body.
      { headers: { connection: 'close' } },
    ),
  });
  const declared = Number(request.headers.get('content-length') ?? Number.NaN);
  if (Number.isFinite(declared) && declared > maxBytes) return tooLarge();
  const chunks: Uint8Array[] = [];
  let size = 0;
  if (request.body !== null) {
    const reader = request.body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > maxBytes) {
        await reader.cancel().catch(() => {});
        return tooLarge();
      }
      chunks.push(value);
    }
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return { ok: true, value: bytes };
}

/**
 * Whether a parsed JSON value is an object (not an array, not null).
 *
 * @param value - the value
 * @returns true for a JSON object
 */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Reads a request's JSON body that must be an object, at most `maxBytes` long.
 *
 * @param request - the request
 * @param maxBytes - the largest body accepted
 * @returns the object, or a 415, 413 or 400 response
 */
export async function readJsonObject(
  request: Request,
  maxBytes: number,
): Promise<Parsed<Record<string, unknown>>> {
  const body = await readJsonBody(request, maxBytes);
  if (!body.ok) return body;
  if (!isRecord(body.value)) {
    return { ok: false, response: badParameter('body', 'The body must be a JSON object.') };
  }
  return { ok: true, value: body.value };
}

/**
 * Reads an optional JSON object body: a request without a content type and with an empty body
 * reads as `{}`; any other body must be a JSON object, as for {@link readJsonObject}.
 *
 * @param request - the request
 * @param maxBytes - the largest body accepted
 * @returns the object, or a 415, 413 or 400 response
 */
export async function readOptionalJsonObject(
  request: Request,
  maxBytes: number,
): Promise<Parsed<Record<string, unknown>>> {
  if (request.headers.get('content-type') !== null) return readJsonObject(request, maxBytes);
  const bytes = await readBytes(request, maxBytes);
  if (!bytes.ok) return bytes;
  return bytes.value.byteLength === 0 ? { ok: true, value: {} } : unsupportedType();
}

/**
 * What is wrong with a `turnId` a client sent, if anything, by the one id rule (`idProblem`).
 *
 * @param turnId - the field, undefined when absent
 * @returns the message of the 400, or undefined when it is fine or absent
 */
export function turnIdProblem(turnId: unknown): string | undefined {
  if (turnId === undefined) return undefined;
  const problem = idProblem(turnId);
  return problem === undefined ? undefined : `\`turnId\` ${problem}.`;
}

/**
 * What is wrong with a JSON body that has a field its route does not take: the first such field,
 * and a message naming the known field it was probably meant to be. A misspelt field is refused,
 * not ignored (`turnID` for `turnId` would send a second turn where a retry was meant).
 *
 * @param body - the parsed JSON object body
 * @param known - the fields the route takes
 * @returns the field and the message, or undefined when every field is known
 */
export function unknownField(
  body: Record<string, unknown>,
  known: readonly string[],
): { readonly parameter: string; readonly message: string } | undefined {
  const field = Object.keys(body).find((key) => !known.includes(key));
  if (field === undefined) return undefined;
  const fields = known.map((k) => `\`${k}\``).join(', ');
  return {
    parameter: field,
    message: `Unknown field ${describeUnknownKey(field, known)}: the body takes ${fields}.`,
  };
}
