// Prints chat messages (grouped rows) compactly: each chunk kind as the live renderer shows it,
// and after each message the seqs of its rows (what `/fork <seq>` takes).
import { type ChatMessage, type Chunk, type ChunkRow, describeError } from 'chunklog';
import { brief, clip, type Paint } from '../shared/terminal.js';

function chunkLine(chunk: Chunk, p: Paint): string[] {
  switch (chunk.type) {
    case 'text':
      return [`  ${clip(chunk.text, 100)}`];
    case 'thinking':
      return [p.dim(`  ┊ thinking  ${clip(chunk.text, 80)}`)];
    case 'tool-batch':
      return chunk.calls.map((call) => {
        const outcome =
          call.result === undefined
            ? p.dim('(no result)')
            : call.isError
              ? p.red(`✗ ${brief(call.result)}`)
              : `✓ ${brief(call.result)}`;
        return `  ${p.cyan('⚙')} ${call.name} ${p.dim(brief(call.input, 40))} ${outcome}`;
      });
    case 'error':
      return [p.red(`  ✖ ${describeError(chunk)}`)];
    case 'system':
      return [p.yellow(`  ── ${chunk.kind} ── ${chunk.text}`)];
    case 'steering':
      return [`  ${p.magenta('▸ you (while it worked):')} ${chunk.text}`];
    case 'source':
      return [
        p.dim(`  ↗ ${chunk.source.sourceType === 'url' ? chunk.source.url : chunk.source.title}`),
      ];
    case 'file':
      return [p.dim(`  📎 ${chunk.mediaType}`)];
    default:
      return [];
  }
}

/**
 * The seqs of each message's rows, by message id. A turn's rows are its user's message (the rows
 * before its first other row), then the assistant's (a steering message in the middle is part of
 * it); system rows are the system message's, and a system turn that grouping merged into the
 * system message before it counts as that message's.
 */
export function seqsByMessage(
  messages: readonly ChatMessage[],
  rows: readonly ChunkRow[],
): Map<string, { first: number; last: number }> {
  const ids = new Set(messages.map((m) => m.id));
  const seqs = new Map<string, { first: number; last: number }>();
  const answered = new Set<string>(); // turns whose non-user rows have begun
  let current: string | undefined;
  for (const row of rows) {
    if (row.role !== 'user') answered.add(row.turnId);
    const role =
      row.role === 'system'
        ? 'system'
        : row.role === 'user' && !answered.has(row.turnId)
          ? 'user'
          : 'assistant';
    const id = `${row.turnId}:${role}`;
    if (ids.has(id)) current = id;
    if (current === undefined) continue;
    const range = seqs.get(current);
    if (range === undefined) seqs.set(current, { first: row.seq, last: row.seq });
    else range.last = row.seq;
  }
  return seqs;
}

/** One block per message: who (with its rows' seqs, when given), then its chunks in order. */
export function printMessages(
  messages: readonly ChatMessage[],
  print: (line: string) => void,
  p: Paint,
  rows?: readonly ChunkRow[],
): void {
  const seqs = rows === undefined ? undefined : seqsByMessage(messages, rows);
  for (const message of messages) {
    const range = seqs?.get(message.id);
    const where =
      range === undefined
        ? ''
        : p.dim(
            range.first === range.last
              ? `  · seq ${range.first}`
              : `  · seqs ${range.first}–${range.last}`,
          );
    const who =
      message.role === 'user'
        ? p.magenta('you ▸')
        : message.role === 'assistant'
          ? p.bold('agent')
          : p.yellow('system');
    if (message.role === 'user') {
      const text = message.chunks.map((c) => (c.type === 'text' ? c.text : '')).join(' ');
      print(`${who} ${text}${where}`);
      continue;
    }
    print(`${who}${where}`);
    for (const chunk of message.chunks) for (const line of chunkLine(chunk, p)) print(line);
  }
}
