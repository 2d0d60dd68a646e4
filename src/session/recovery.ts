import type { Relay } from '../live/relay.js';
import { type EventIdParts, formatEventId, parseEventId } from '../live/replay-buffer.js';
import type { ChunkRow, ChunkRowDraft } from '../schema/chunk-row.js';
import type { JSONValue } from '../schema/json.js';
import type { LeaseFence, TurnInfo } from '../store/turn-types.js';
import type { SessionStore } from './store.js';

/** The store methods recovery needs (every `ChunkStore` has them). */
export type RecoveryStore = Pick<SessionStore, 'listTurns' | 'getTurn' | 'appendSteps'>;

/** Options of {@link closeInterruptedTurns}. */
export interface CloseInterruptedOptions {
  /** Close only while this lease holds (the session's own, after it took the lease over). */
  readonly fence?: LeaseFence | undefined;
}

/** The text of the `interrupted` system chunk that closes a turn. */
export const INTERRUPTED_TEXT =
  'The turn was interrupted: its writer stopped before the turn ended. The steps above are the ones it finished.';

/** The error result given to a tool call the interrupted turn never answered. */
export const INTERRUPTED_TOOL_RESULT = 'The turn was interrupted before this tool call returned.';

/** A stored tool call. */
export type ToolCallRow = Extract<ChunkRow, { type: 'tool_call' }>;

/**
 * The tool calls of a turn's rows that have no result yet, in order (calls the provider ran
 * itself are not the app's to answer).
 *
 * @param rows - the turn's stored rows
 * @returns its unanswered tool calls
 */
export function unansweredCalls(rows: readonly ChunkRow[]): ToolCallRow[] {
  const answered = new Set<string>();
  for (const row of rows) if (row.type === 'tool_result') answered.add(row.data.callId);
  return rows.filter(
    (row): row is ToolCallRow =>
      row.type === 'tool_call' && !answered.has(row.data.id) && row.data.providerExecuted !== true,
  );
}

/**
 * The row that answers a stored tool call: a `tool_result` of the call's turn and step.
 *
 * @param call - the tool call
 * @param result - what it returned
 * @param isError - whether it failed
 * @returns the row to append
 */
export function toolResultDraft(
  call: ToolCallRow,
  result: JSONValue,
  isError: boolean,
): ChunkRowDraft {
  return {
    turnId: call.turnId,
    step: call.step,
    role: 'tool',
    type: 'tool_result',
    data: { callId: call.data.id, name: call.data.name, result, ...(isError ? { isError } : {}) },
  };
}

/**
 * The rows that close an interrupted turn honestly: an error result for every tool call without
 * one (so the next model input has no orphan call), then an `interrupted` system chunk.
 *
 * @param turnId - the turn
 * @param rows - its stored rows
 * @returns the rows to append
 */
export function interruptedRows(turnId: string, rows: readonly ChunkRow[]): ChunkRowDraft[] {
  const drafts = unansweredCalls(rows).map((call) =>
    toolResultDraft(call, INTERRUPTED_TOOL_RESULT, true),
  );
  let lastStep = 0;
  for (const row of rows) lastStep = Math.max(lastStep, row.step);
  drafts.push({
    turnId,
    step: lastStep,
    role: 'assistant',
    type: 'system',
    data: { kind: 'interrupted', text: INTERRUPTED_TEXT },
  });
  return drafts;
}

/**
 * Finds the thread's turns left `running` and closes each with the `close` policy: error results
 * for its unanswered tool calls and an `interrupted` system chunk, status `interrupted`. The
 * user's message and every finished step stay as stored. Call it only when no live writer works
 * on the thread: a session with `lease` calls it itself after taking the lease; without leases,
 * after the writer is known dead (a restart of the only worker).
 *
 * @param store - the store
 * @param threadId - the thread
 * @param options - `fence`: the lease to write under
 * @returns the turns it closed, as they were found
 * @throws {ChunklogError} `lease-lost`; `store-failed`
 *
 * @example
 * ```ts
 * // assumes: store, threadId
 * import { closeInterruptedTurns } from 'chunklog/session';
 *
 * const closed = await closeInterruptedTurns(store, threadId);
 * for (const turn of closed) console.log('closed', turn.turnId, 'from seq', turn.firstSeq);
 * ```
 */
export async function closeInterruptedTurns(
  store: RecoveryStore,
  threadId: string,
  options: CloseInterruptedOptions = {},
): Promise<TurnInfo[]> {
  const running = await store.listTurns(threadId, { status: 'running' });
  for (const turn of running) {
    const rows = (await store.getTurn(threadId, turn.turnId)) ?? [];
    await store.appendSteps(threadId, turn.turnId, interruptedRows(turn.turnId, rows), {
      status: 'interrupted',
      ...(options.fence === undefined ? {} : { fence: options.fence }),
    });
  }
  return running;
}

/**
 * Ends, on the relay, a turn closed as interrupted that the relay still has running (its process
 * died before its `turn-end`): a `turn-end` numbered after the last event the relay holds of it,
 * in that event's numbering (`t1:r12.41` after `t1:r12.40`, an event of a continued turn), so that
 * its id is none a process that died before gave. Its readers (a `useChat` resume,
 * `GET …/events`) get its end and reconcile, and a control request no longer waits for the
 * process that is gone. A relay without `lastEventId` is asked for the last index: a plain id.
 *
 * @param relay - the relay the thread's sessions publish to
 * @param threadId - the conversation (the relay's key)
 * @param turnIds - the turns just closed
 * @returns once the relay was asked (the `turn-end` goes out as any published event)
 * @throws {ChunklogError} `relay-unavailable` when the relay cannot be reached
 */
export async function endOnRelay(
  relay: Pick<Relay, 'runningTurn' | 'lastIndex' | 'lastEventId' | 'publish'>,
  threadId: string,
  turnIds: readonly string[],
): Promise<void> {
  if (turnIds.length === 0) return;
  const running = await relay.runningTurn(threadId);
  if (running === undefined || !turnIds.includes(running)) return;
  await endRunningOnRelay(relay, threadId, running);
}

/**
 * Publishes the `turn-end` of `turnId`, which the relay names running, numbered after the last
 * event it holds of it (see {@link endOnRelay}); nothing when it holds none.
 *
 * @param relay - the relay the thread's sessions publish to
 * @param threadId - the conversation (the relay's key)
 * @param turnId - the turn the relay names running
 * @throws {ChunklogError} `relay-unavailable` when the relay cannot be reached
 */
export async function endRunningOnRelay(
  relay: Pick<Relay, 'lastIndex' | 'lastEventId' | 'publish'>,
  threadId: string,
  turnId: string,
): Promise<void> {
  const last = await lastEventOnRelay(relay, threadId, turnId);
  if (last === undefined) return;
  const index = last.index + 1;
  relay.publish(
    threadId,
    { type: 'turn-end' },
    { id: formatEventId(turnId, index, last.epoch), turnId, index },
  );
}

/** The index and numbering's epoch of the last event the relay holds of a turn. */
async function lastEventOnRelay(
  relay: Pick<Relay, 'lastIndex' | 'lastEventId'>,
  threadId: string,
  turnId: string,
): Promise<EventIdParts | undefined> {
  if (relay.lastEventId === undefined) {
    const index = await relay.lastIndex(threadId, turnId);
    return index === undefined ? undefined : { turnId, index };
  }
  const id = await relay.lastEventId(threadId, turnId);
  return id === undefined ? undefined : parseEventId(id);
}
