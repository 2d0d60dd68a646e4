import { ChunklogError } from '../errors/chunklog-error.js';
import { type ChatMessage, messageId } from '../schema/chat-message.js';
import { checkChatMessages } from '../schema/check-list.js';
import type { SystemChunk } from '../schema/chunk.js';
import { SYSTEM_KINDS } from '../schema/chunk.js';
import type { SystemEvent } from '../schema/chunk-event.js';
import { noticeFields } from '../schema/system-message.js';

/**
 * Options of {@link routeSystemEvent}.
 *
 * @example
 * ```ts
 * const options: RouteSystemEventOptions = { inFlightTurnId: null, newTurnId: 'sys-42' };
 * ```
 */
export interface RouteSystemEventOptions {
  /** The id of the turn in flight, or null/undefined when no turn is running. */
  readonly inFlightTurnId: string | null | undefined;
  /**
   * The turn id of the system message created by rule 3 (a system event outside a turn is its
   * own turn, stored with role `system`). Required when rule 3 applies; pass one always if you
   * do not know which rule will. Rules 1 and 2 ignore it.
   */
  readonly newTurnId?: string | undefined;
  /**
   * The step recorded on the system chunk by rule 1. Defaults to the step of the in-flight
   * message's last chunk (0 when it has none). Rules 2 and 3 use 0.
   */
  readonly step?: number | undefined;
}

/**
 * Which of the three rules {@link routeSystemEvent} applies (see {@link systemEventRoute}).
 *
 * @example
 * ```ts
 * const route: SystemRoute = systemEventRoute(messages, inFlightTurnId);
 * ```
 */
export type SystemRoute = 'in-flight-turn' | 'trailing-system-message' | 'new-system-message';

function fail(option: string, message: string, value: unknown, where = 'routeSystemEvent'): never {
  throw new ChunklogError('invalid-option', `${where}: ${message}`, { option, value });
}

function checkInFlightTurnId(inFlightTurnId: unknown, where?: string): void {
  if (inFlightTurnId != null && (typeof inFlightTurnId !== 'string' || inFlightTurnId === '')) {
    fail(
      'inFlightTurnId',
      '`inFlightTurnId` must be a non-empty string, null or undefined',
      inFlightTurnId,
      where,
    );
  }
}

function checkInput(event: SystemEvent, options: RouteSystemEventOptions): void {
  if (event === null || typeof event !== 'object' || event.type !== 'system') {
    fail('event', 'the event must be a `system` event', event);
  }
  if (!SYSTEM_KINDS.includes(event.kind)) fail('event.kind', 'unknown system kind', event.kind);
  if (typeof event.text !== 'string') fail('event.text', '`text` must be a string', event.text);
  if (options === null || typeof options !== 'object')
    fail('options', 'options are required', options);
  const { inFlightTurnId, newTurnId, step } = options;
  checkInFlightTurnId(inFlightTurnId);
  if (newTurnId !== undefined && (typeof newTurnId !== 'string' || newTurnId === '')) {
    fail('newTurnId', '`newTurnId` must be a non-empty string', newTurnId);
  }
  if (step !== undefined && !(Number.isInteger(step) && step >= 0)) {
    fail('step', '`step` must be a non-negative integer', step);
  }
}

/**
 * Which rule {@link routeSystemEvent} would apply, without applying it.
 *
 * @param messages - the thread's messages, oldest first (validated)
 * @param inFlightTurnId - the turn in flight, if any
 * @returns the rule
 * @throws {ChunklogError} `invalid-message` when `messages` is not an array of valid chat
 *   messages; `invalid-option` when `inFlightTurnId` is not a non-empty string, null or undefined
 *
 * @example
 * ```ts
 * if (systemEventRoute(messages, null) !== 'in-flight-turn') {
 *   // store the event as a system turn of its own
 * }
 * ```
 */
export function systemEventRoute(
  messages: readonly ChatMessage[],
  inFlightTurnId: string | null | undefined,
): SystemRoute {
  checkChatMessages(messages, 'systemEventRoute');
  checkInFlightTurnId(inFlightTurnId, 'systemEventRoute');
  return routeOf(messages, inFlightTurnId);
}

function routeOf(
  messages: readonly ChatMessage[],
  inFlightTurnId: string | null | undefined,
): SystemRoute {
  if (inFlightTurnId != null) return 'in-flight-turn';
  return messages[messages.length - 1]?.role === 'system'
    ? 'trailing-system-message'
    : 'new-system-message';
}

/**
 * Puts a system event (a notice, a model switch, a config reload, a cancel) where it belongs,
 * following the three rules of the chunk-refactor plan:
 *
 * 1. a turn is in flight → a `system` chunk at the end of that turn's assistant message
 *    (created at the end of the list if it does not exist yet);
 * 2. no turn in flight and the last message is a system message → appended to it;
 * 3. otherwise → a new system message, of turn `options.newTurnId`.
 *
 * Pure: returns a new list and never mutates `messages`; unchanged messages are shared. The
 * result equals what {@link groupRowsToMessages} gives once the event is stored (rule 1 with its
 * turn, rules 2 and 3 as a system turn of id `newTurnId`).
 *
 * @param messages - the thread's messages, oldest first (validated)
 * @param event - the system event
 * @param options - `inFlightTurnId`, and `newTurnId` for rule 3
 * @returns the new message list
 * @throws {ChunklogError} `invalid-option` when rule 3 applies and `newTurnId` is missing, or an
 *   argument is malformed; `invalid-message` when `messages` is not an array of valid messages
 *
 * @example
 * ```ts
 * messages = routeSystemEvent(messages, { type: 'system', kind: 'notice', text: 'Config reloaded' }, {
 *   inFlightTurnId: null,
 *   newTurnId: crypto.randomUUID(),
 * });
 * ```
 */
export function routeSystemEvent(
  messages: readonly ChatMessage[],
  event: SystemEvent,
  options: RouteSystemEventOptions,
): ChatMessage[] {
  checkInput(event, options);
  checkChatMessages(messages, 'routeSystemEvent');
  const { inFlightTurnId, newTurnId } = options;
  const route = routeOf(messages, inFlightTurnId);
  const chunkOf = (step: number): SystemChunk => ({
    type: 'system',
    step,
    ...noticeFields(event),
  });

  if (route === 'in-flight-turn') {
    const turnId = inFlightTurnId as string;
    const id = messageId(turnId, 'assistant');
    const at = messages.findIndex((m) => m.id === id);
    if (at === -1) {
      return [...messages, { id, turnId, role: 'assistant', chunks: [chunkOf(options.step ?? 0)] }];
    }
    const target = messages[at] as ChatMessage;
    const step = options.step ?? target.chunks[target.chunks.length - 1]?.step ?? 0;
    const out = [...messages];
    out[at] = { ...target, chunks: [...target.chunks, chunkOf(step)] };
    return out;
  }

  if (route === 'trailing-system-message') {
    const last = messages[messages.length - 1] as ChatMessage;
    const out = messages.slice(0, -1);
    out.push({ ...last, chunks: [...last.chunks, chunkOf(0)] });
    return out;
  }

  if (newTurnId === undefined) {
    fail(
      'newTurnId',
      'no turn is in flight and the last message is not a system message, so a new system message is needed: pass its turn id as `newTurnId`',
      newTurnId,
    );
  }
  return [
    ...messages,
    { id: messageId(newTurnId, 'system'), turnId: newTurnId, role: 'system', chunks: [chunkOf(0)] },
  ];
}
