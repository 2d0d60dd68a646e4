import * as z from 'zod/mini';
import type { Chunk } from '../schema/chunk.js';
import { rowDataMini } from '../schema/chunk-schemas.js';
import { pickErrorInfo } from '../schema/error-info.js';
import { PARSE_CONTEXT } from '../schema/issue-messages.js';
import type { JSONValue } from '../schema/json.js';
import { noticeFields } from '../schema/system-message.js';
import { CHUNKLOG_DATA_PART_PREFIX, CHUNKLOG_DATA_PARTS } from './data-parts.js';
import { invalidUIMessage, type UIMessageLocation } from './invalid-ui-message.js';

// The data of chunklog's system and error parts is the data of a system and an error row.
const systemData = rowDataMini.system;
const errorData = rowDataMini.error;
const progressData = z.object({ toolCallId: z.string(), text: z.string() });
const deferredData = z.object({ toolCallId: z.string() });

function parseData<T>(
  schema: z.ZodMiniType<T>,
  value: unknown,
  location: UIMessageLocation,
  what: string,
): T {
  const result = schema.safeParse(value, PARSE_CONTEXT);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  throw invalidUIMessage(
    `${what} data ${issue?.message ?? 'is invalid'}`,
    { ...location, field: ['data', ...(issue?.path ?? []).map(String)] },
    { value, cause: result.error },
  );
}

/**
 * The tool call and text of a `data-chunklog-tool-progress` part.
 *
 * @param data - the part's data
 * @param location - where the part is, for errors
 * @throws {ChunklogError} `invalid-ui-message` when the data is not `{ toolCallId, text }`
 */
export function toolProgressData(
  data: unknown,
  location: UIMessageLocation,
): { readonly toolCallId: string; readonly text: string } {
  return parseData(progressData, data, location, 'tool progress');
}

/**
 * The chunk of a data part (at step `step`): chunklog's system notices and errors become their
 * chunks again, an app's data part a `data` chunk.
 *
 * @param part - a `data-*` part other than `data-chunklog-tool-progress`
 * @param step - the step it is in
 * @param location - where the part is, for errors
 * @throws {ChunklogError} `invalid-ui-message` for a malformed chunklog data part, or another
 *   part with the reserved `data-chunklog-` prefix
 */
/**
 * The data of a `data-chunklog-deferred-result` part, checked.
 *
 * @param data - the part's data
 * @param location - where the part is, for the error
 * @returns the call id
 * @throws {ChunklogError} `invalid-ui-message` when the data is not `{ toolCallId: string }`
 */
export function deferredResultData(
  data: unknown,
  location: UIMessageLocation,
): { readonly toolCallId: string } {
  return parseData(deferredData, data, location, 'deferred result');
}

export function dataPartToChunk(
  part: { readonly type: string; readonly id?: unknown; readonly data?: unknown },
  step: number,
  location: UIMessageLocation,
): Chunk {
  switch (part.type) {
    case CHUNKLOG_DATA_PARTS.system: {
      const system = parseData(systemData, part.data, location, 'system notice');
      return { type: 'system', step, ...noticeFields(system) };
    }
    case CHUNKLOG_DATA_PARTS.error: {
      const error = parseData(errorData, part.data, location, 'error');
      return { type: 'error', step, ...pickErrorInfo(error) };
    }
    default:
      if (part.type.startsWith(CHUNKLOG_DATA_PART_PREFIX)) {
        throw invalidUIMessage(
          `the ${CHUNKLOG_DATA_PART_PREFIX} prefix is reserved for chunklog's own data parts`,
          location,
          { value: part.type },
        );
      }
      return {
        type: 'data',
        step,
        name: part.type.slice('data-'.length),
        ...(typeof part.id === 'string' ? { id: part.id } : {}),
        data: (part.data ?? null) as JSONValue,
      };
  }
}
