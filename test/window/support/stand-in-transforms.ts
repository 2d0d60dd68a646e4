// TEMPORARY stand-in for src/transforms (branch `transforms`), used through vi.mock until it lands
// on main. Follows notes/0003 (row layout) and the agreed signatures.
import type {
  ChatMessage,
  ChatRole,
  Chunk,
  ChunkRow,
  ChunkRowDraft,
  ToolCallEntry,
} from '../../../src/schema/index.js';

export type GroupableRow = ChunkRowDraft & { readonly seq?: number | null | undefined };

export function explodeTurn(
  turnId: string,
  chunks: readonly Chunk[],
  options: { role: 'user' | 'assistant' | 'system' },
): ChunkRowDraft[] {
  const rows: ChunkRowDraft[] = [];
  for (const chunk of chunks) {
    if (chunk.type === 'tool-batch') {
      chunk.calls.forEach((call, index) => {
        const { result, isError, denied, progress, preliminary, ...rest } = call;
        rows.push({
          turnId,
          step: chunk.step,
          role: options.role,
          type: 'tool_call',
          data: { ...rest, index },
        });
      });
      for (const call of chunk.calls) {
        const { id, name, result, isError, denied, progress, preliminary } = call;
        if ([result, isError, denied, progress, preliminary].every((v) => v === undefined))
          continue;
        const data: Record<string, unknown> = { callId: id, name };
        for (const [k, v] of Object.entries({ result, isError, denied, progress, preliminary })) {
          if (v !== undefined) data[k] = v;
        }
        rows.push({
          turnId,
          step: chunk.step,
          role: 'tool',
          type: 'tool_result',
          data,
        } as unknown as ChunkRowDraft);
      }
      continue;
    }
    const { type, step, ...data } = chunk;
    const role = type === 'steering' ? 'user' : options.role;
    rows.push({ turnId, step, role, type, data } as ChunkRowDraft);
  }
  return rows;
}

interface Message {
  id: string;
  turnId: string;
  role: ChatRole;
  chunks: Chunk[];
}

export function groupRowsToMessages(rows: readonly GroupableRow[]): ChatMessage[] {
  const messages: Message[] = [];
  const byId = new Map<string, Message>();
  const seen = new Set<number>();
  const message = (turnId: string, role: ChatRole): Message => {
    const id = `${turnId}:${role}`;
    const known = byId.get(id);
    if (known) return known;
    const last = messages[messages.length - 1];
    if (role === 'system' && last?.role === 'system') {
      byId.set(id, last);
      return last;
    }
    const created: Message = { id, turnId, role, chunks: [] };
    messages.push(created);
    byId.set(id, created);
    return created;
  };
  const calls = new Map<string, ToolCallEntry[]>();
  for (const row of rows) {
    if (typeof row.seq === 'number') {
      if (seen.has(row.seq)) continue;
      seen.add(row.seq);
    }
    const role: ChatRole =
      row.role === 'system'
        ? 'system'
        : row.role === 'user' && row.type !== 'steering'
          ? 'user'
          : 'assistant';
    const m = message(row.turnId, role);
    if (row.type === 'tool_call') {
      const { index, ...entry } = row.data;
      const last = m.chunks[m.chunks.length - 1];
      const call: ToolCallEntry = { ...entry };
      if (last?.type === 'tool-batch' && index > 0 && last.step === row.step) {
        (last.calls as ToolCallEntry[]).push(call);
      } else {
        m.chunks.push({ type: 'tool-batch', step: row.step, calls: [call] });
      }
      calls.set(
        `${row.turnId}\u0000${call.id}`,
        (m.chunks[m.chunks.length - 1] as unknown as { calls: ToolCallEntry[] }).calls,
      );
      continue;
    }
    if (row.type === 'tool_result') {
      const { callId, name, ...rest } = row.data;
      const batch = calls.get(`${row.turnId}\u0000${callId}`);
      const i = batch?.findIndex((c) => c.id === callId) ?? -1;
      if (batch && i >= 0) batch[i] = { ...(batch[i] as ToolCallEntry), ...rest };
      else
        m.chunks.push({
          type: 'tool-batch',
          step: row.step,
          calls: [{ id: callId, name, orphan: true, ...rest }],
        });
      continue;
    }
    m.chunks.push({ type: row.type, step: row.step, ...row.data } as Chunk);
  }
  return messages.map((m) => ({ ...m, chunks: m.chunks }));
}

export function mergeRowsBySeq<R extends ChunkRow>(...pages: ReadonlyArray<readonly R[]>): R[] {
  const bySeq = new Map<number, R>();
  for (const page of pages)
    for (const row of page) if (!bySeq.has(row.seq)) bySeq.set(row.seq, row);
  return [...bySeq.values()].sort((a, b) => a.seq - b.seq);
}
