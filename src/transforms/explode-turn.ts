import { ChunklogError } from '../errors/chunklog-error.js';
import { checkList } from '../schema/check-list.js';
import type { Chunk, ToolBatchChunk } from '../schema/chunk.js';
import type {
  ChunkRole,
  ChunkRowDraft,
  ToolCallRowData,
  ToolResultRowData,
} from '../schema/chunk-row.js';
import { chunkMini } from '../schema/chunk-schemas.js';
import { firstNonSystem } from '../schema/system-message.js';

/**
 * Options of {@link explodeTurn}.
 *
 * @example
 * ```ts
 * const options: ExplodeTurnOptions = { role: 'assistant' };
 * ```
 */
export interface ExplodeTurnOptions {
  /**
   * The role of the turn's rows: `user` for a user message, `assistant` for the model's answer,
   * `system` for a system event outside a turn. Tool results always get role `tool` and steering
   * messages role `user`, whatever this says.
   */
  readonly role: 'user' | 'assistant' | 'system';
}

const TURN_ROLES: ReadonlySet<string> = new Set(['user', 'assistant', 'system']);

function checkOptions(turnId: unknown, options: unknown): ExplodeTurnOptions {
  if (typeof turnId !== 'string' || turnId === '') {
    throw new ChunklogError('invalid-option', 'explodeTurn: `turnId` must be a non-empty string', {
      option: 'turnId',
      value: turnId,
    });
  }
  const role = (options as { role?: unknown } | undefined)?.role;
  if (typeof role !== 'string' || !TURN_ROLES.has(role)) {
    throw new ChunklogError(
      'invalid-option',
      "explodeTurn: `role` must be 'user', 'assistant' or 'system'",
      { option: 'role', value: role },
    );
  }
  return options as ExplodeTurnOptions;
}

/** The call half of a tool-batch entry: everything known when the call was made. */
function callRow(
  turnId: string,
  step: number,
  role: ChunkRole,
  index: number,
  entry: ToolBatchChunk['calls'][number],
): ChunkRowDraft {
  const {
    result,
    isError,
    denied,
    progress,
    preliminary,
    resultProviderMetadata,
    deferred,
    ...call
  } = entry;
  // `index` where the row schema puts it (after the id and name): the stored JSON keeps the
  // order its fields are given in.
  const { id, name, ...rest } = call;
  const data: ToolCallRowData = { id, name, index, ...rest };
  return { turnId, step, role, type: 'tool_call', data };
}

/**
 * The result half of a tool-batch entry (with the result's own provider metadata), or undefined
 * when nothing happened to the call yet.
 */
function resultRow(
  turnId: string,
  step: number,
  entry: ToolBatchChunk['calls'][number],
): ChunkRowDraft | undefined {
  if (
    entry.result === undefined &&
    entry.isError === undefined &&
    entry.denied === undefined &&
    entry.progress === undefined &&
    entry.preliminary === undefined &&
    entry.resultProviderMetadata === undefined
  ) {
    return undefined;
  }
  const data: { -readonly [K in keyof ToolResultRowData]: ToolResultRowData[K] } = {
    callId: entry.id,
    name: entry.name,
  };
  if (entry.result !== undefined) data.result = entry.result;
  if (entry.isError !== undefined) data.isError = entry.isError;
  if (entry.denied !== undefined) data.denied = entry.denied;
  if (entry.progress !== undefined) data.progress = entry.progress;
  if (entry.preliminary !== undefined) data.preliminary = entry.preliminary;
  if (entry.resultProviderMetadata !== undefined)
    data.resultProviderMetadata = entry.resultProviderMetadata;
  if (entry.deferred === true) data.deferred = true;
  return { turnId, step, role: 'tool', type: 'tool_result', data };
}

function pushRows(rows: ChunkRowDraft[], turnId: string, role: ChunkRole, chunk: Chunk): void {
  switch (chunk.type) {
    case 'tool-batch': {
      // A deferred result has no call row: only its result row, where it arrived.
      const { step, calls } = chunk;
      let index = 0;
      for (const entry of calls) {
        if (entry.deferred !== true) rows.push(callRow(turnId, step, role, index++, entry));
      }
      for (const entry of calls) {
        const row = resultRow(turnId, step, entry);
        if (row !== undefined) rows.push(row);
      }
      return;
    }
    case 'steering': {
      const { type: _type, step, ...data } = chunk;
      rows.push({ turnId, step, role: 'user', type: 'steering', data });
      return;
    }
    case 'text': {
      const { type: _type, step, ...data } = chunk;
      rows.push({ turnId, step, role, type: 'text', data });
      return;
    }
    case 'thinking': {
      const { type: _type, step, ...data } = chunk;
      rows.push({ turnId, step, role, type: 'thinking', data });
      return;
    }
    case 'error': {
      const { type: _type, step, ...data } = chunk;
      rows.push({ turnId, step, role, type: 'error', data });
      return;
    }
    case 'system': {
      const { type: _type, step, ...data } = chunk;
      rows.push({ turnId, step, role, type: 'system', data });
      return;
    }
    case 'source': {
      const { type: _type, step, ...data } = chunk;
      rows.push({ turnId, step, role, type: 'source', data });
      return;
    }
    case 'file': {
      const { type: _type, step, ...data } = chunk;
      rows.push({ turnId, step, role, type: 'file', data });
      return;
    }
    case 'custom': {
      const { type: _type, step, ...data } = chunk;
      rows.push({ turnId, step, role, type: 'custom', data });
      return;
    }
    case 'data': {
      const { type: _type, step, ...data } = chunk;
      rows.push({ turnId, step, role, type: 'data', data });
      return;
    }
    default: {
      const never: never = chunk;
      throw new ChunklogError('invalid-chunk', `explodeTurn: unknown chunk type`, {
        value: (never as { type?: unknown }).type,
      });
    }
  }
}

/**
 * Flattens one turn's chunks into row drafts, ready for `store.appendTurn`. One row per chunk,
 * in order, except a tool-batch: its `tool_call` rows (one per call, `data.index` = position in
 * the batch), then its `tool_result` rows (role `tool`, one per call that has a result, an error,
 * a denial, progress or a preliminary result). A `steering` chunk's row has role `user`. The
 * layout is described in `docs/rows.md`; {@link groupRowsToMessages} is the inverse.
 *
 * `chunks` are validated first (they may come from outside: JSON, an import), so a malformed
 * chunk is reported by position instead of being written as a malformed row.
 *
 * @param turnId - the id every row of the turn carries
 * @param chunks - the turn's chunks, in order (for example `TurnState.chunks`)
 * @param options - `role`: the role of the turn's rows
 * @returns the row drafts, in the order they must be stored
 * @throws {ChunklogError} `invalid-option` when `turnId` is empty or `role` is not a turn role;
 *   `invalid-chunk` for a chunk other than `system` in a system message (`role: 'system'`);
 *   `invalid-chunk` when `chunks` is not an array of valid chunks (`path` starts with the index)
 *
 * @example
 * ```ts
 * const drafts = explodeTurn('t1', [
 *   { type: 'text', step: 0, text: 'Looking…' },
 *   { type: 'tool-batch', step: 0, calls: [{ id: 'c1', name: 'read', input: {}, result: 'ok' }] },
 * ], { role: 'assistant' });
 * // → text row, tool_call row (index 0), tool_result row (role 'tool')
 * ```
 */
export function explodeTurn(
  turnId: string,
  chunks: readonly Chunk[],
  options: ExplodeTurnOptions,
): ChunkRowDraft[] {
  const { role } = checkOptions(turnId, options);
  const checked = checkList<Chunk>(chunks, {
    schema: chunkMini,
    code: 'invalid-chunk',
    where: 'explodeTurn',
    argument: 'chunks',
    what: 'chunk',
  });
  if (role === 'system') {
    const at = firstNonSystem(checked.map((chunk) => chunk.type));
    if (at !== -1) {
      const type = checked[at]?.type;
      throw new ChunklogError(
        'invalid-chunk',
        `explodeTurn: a system message holds only system chunks, but chunks[${at}] is a ${type} chunk (give it role 'assistant' or 'user')`,
        { path: [at, 'type'], value: type },
      );
    }
  }
  return explodeChunks(turnId, checked, role);
}

/**
 * {@link explodeTurn} without its checks, for chunks chunklog made itself (the reducer's, the
 * window's live turn) on paths where a check per call would cost.
 */
export function explodeChunks(
  turnId: string,
  chunks: readonly Chunk[],
  role: ExplodeTurnOptions['role'],
): ChunkRowDraft[] {
  const rows: ChunkRowDraft[] = [];
  for (const chunk of chunks) pushRows(rows, turnId, role, chunk);
  return rows;
}
