import type { UIMessage } from 'ai';
import { invalidOption, readOptions } from '../errors/invalid-option.js';
import { tooDeepPath } from '../schema/find-non-json.js';
import { idProblem } from '../schema/id.js';
import {
  type ChatMessage,
  type ChatRole,
  type Chunk,
  MAX_JSON_DEPTH,
  messageId,
  toJsonValue,
} from '../schema/index.js';
import { envelopeChunk } from './envelope.js';
import { invalidUIMessage, type UIMessageLocation } from './invalid-ui-message.js';
import { parseMessageId } from './message-ids.js';
import { isSystemUIMessage, uiMessageToChunks } from './ui-message-to-chunks.js';
import { type UIMessageSchemas, validateStoredUIMessages } from './validate-ui-messages.js';

/**
 * Options of {@link uiMessagesToChatMessages} and {@link fromUIMessages}.
 *
 * @example
 * ```ts
 * const options: FromUIMessagesOptions = { tools, strict: false, keepIds: false };
 * ```
 */
export interface FromUIMessagesOptions extends UIMessageSchemas {
  /**
   * What to do with a field chunklog has no place for (listed in `docs/ui-messages.md`: a tool
   * part's `toolMetadata` or `inputEncoding: 'text'`, an approval's `descriptor` or
   * `inputSchemaInput`, a file's `providerReference`, …). `true` (the default) throws
   * `invalid-ui-message` naming the message, the part and the field; `false` leaves the field out.
   */
  readonly strict?: boolean | undefined;
  /**
   * Whether to keep each message's own id when it is not chunklog's `${turnId}:${role}` (in an
   * envelope chunk, so that {@link toUIMessages} gives it back). Default `true`; with `false`,
   * imported messages take chunklog's ids.
   */
  readonly keepIds?: boolean | undefined;
}

/**
 * Imports stored AI SDK `UIMessage`s as chunklog chat messages. See {@link fromUIMessages}, which
 * goes one step further to row drafts.
 *
 * Messages are grouped into turns: a user message starts a turn, the assistant message after it
 * joins it; a chunklog system message (see {@link toUIMessages}) or a `system` UI message is a turn
 * of its own. A turn's id is the one in a chunklog message id (`${turnId}:${role}`), else the id of
 * the message that starts the turn. A message id that is not `${turnId}:${role}`, and message
 * metadata, are kept in the message's first chunk (an envelope `data` chunk) so that
 * {@link toUIMessages} gives them back.
 *
 * @param uiMessages - the stored messages (untrusted: they are checked with `validateUIMessages`)
 * @param options - the app's schemas for `validateUIMessages`, and `strict`
 * @returns the chat messages, in order
 * @throws {ChunklogError} `invalid-ui-message` naming the message index and part;
 *   `invalid-option` for an unknown option or a `strict`/`keepIds` that is not a boolean
 * @example
 * ```ts
 * const messages = await uiMessagesToChatMessages(JSON.parse(row.messages));
 * const modelMessages = toModelMessages(messages);
 * ```
 */
export async function uiMessagesToChatMessages(
  uiMessages: unknown,
  options: FromUIMessagesOptions = {},
): Promise<ChatMessage[]> {
  const { strict = true, keepIds = true, ...schemas } = checkImportOptions(options);
  const validated = await validateStoredUIMessages(uiMessages, schemas);
  refuseTooDeep(validated);
  // As JSON storage would keep them: no `undefined` members, no class instances.
  const messages = toJsonValue(validated) as unknown as UIMessage[];
  const unsupported = (field: string, location: UIMessageLocation) => {
    if (strict) {
      throw invalidUIMessage(
        `chunklog has no place for \`${field}\` (pass strict: false to leave it out)`,
        location,
      );
    }
  };
  const result: ChatMessage[] = [];
  const turnIds = new Map<string, number>();
  let open: { turnId: string; index: number } | undefined;
  for (const [index, message] of messages.entries()) {
    const parsed = parseMessageId(message.id);
    const role: ChatRole = isSystemUIMessage(message, parsed?.role)
      ? 'system'
      : message.role === 'user'
        ? 'user'
        : 'assistant';
    let turnId: string;
    if (
      role === 'assistant' &&
      open !== undefined &&
      (parsed === undefined || parsed.turnId === open.turnId)
    ) {
      turnId = open.turnId;
      open = undefined;
    } else {
      turnId = parsed?.turnId ?? message.id;
      const problem = idProblem(turnId);
      if (problem !== undefined) {
        // The id becomes the turn's id, which the store keys: refused here, before any write.
        throw invalidUIMessage(
          `its id is the turn's id, which ${problem}`,
          { index, field: ['id'] },
          { value: message.id },
        );
      }
      const seen = turnIds.get(turnId);
      if (seen !== undefined) {
        throw invalidUIMessage(
          `turn ${turnId} was already started by UI message ${seen}: two turns cannot share an id`,
          { index, field: ['id'] },
          { value: message.id },
        );
      }
      turnIds.set(turnId, index);
      open = role === 'user' ? { turnId, index } : undefined;
    }
    // A system message holds notices only (the store refuses anything else there): it keeps no
    // envelope, and comes back as `${turnId}:system` (docs/ui-messages.md).
    if (role === 'system' && message.metadata !== undefined) {
      unsupported('metadata', { index, field: ['metadata'] });
    }
    const envelope =
      role === 'system'
        ? undefined
        : envelopeChunk({
            id: !keepIds || message.id === messageId(turnId, role) ? undefined : message.id,
            metadata: message.metadata === undefined ? undefined : toJsonValue(message.metadata),
          });
    const chunks: Chunk[] = uiMessageToChunks(message, index, role, unsupported);
    result.push({
      id: messageId(turnId, role),
      turnId,
      role,
      chunks: envelope === undefined ? chunks : [envelope, ...chunks],
    });
  }
  return result;
}

/**
 * Refuses messages holding a value nested deeper than chunklog keeps (`MAX_JSON_DEPTH`, counted
 * from the list, as `toJsonValue` of the list counts), rather than have it cut.
 */
function refuseTooDeep(messages: readonly UIMessage[]): void {
  const path = tooDeepPath(messages);
  if (path === undefined) return;
  const [index, head, part, ...field] = path as [number, ...Array<string | number>];
  const location: UIMessageLocation =
    head === 'parts' && typeof part === 'number'
      ? { index, part, partType: messages[index]?.parts[part]?.type, field }
      : { index, field: path.slice(1) };
  throw invalidUIMessage(
    `a value is nested deeper than ${MAX_JSON_DEPTH} arrays and objects, which chunklog does not keep`,
    location,
  );
}

const IMPORT_OPTIONS = [
  'strict',
  'keepIds',
  'metadataSchema',
  'dataSchemas',
  'tools',
  'experimental_refineToolInput',
] as const;

function checkImportOptions(options: unknown): FromUIMessagesOptions {
  const record = readOptions(options, 'fromUIMessages', IMPORT_OPTIONS);
  for (const flag of ['strict', 'keepIds'] as const) {
    const value = record[flag];
    if (value !== undefined && typeof value !== 'boolean') {
      invalidOption('fromUIMessages', flag, `\`${flag}\` must be a boolean`, value);
    }
  }
  return record as FromUIMessagesOptions;
}
