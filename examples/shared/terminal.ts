// Terminal output shared by the examples: ANSI colours (off when the stream is not a TTY, when
// NO_COLOR is set, or for TERM=dumb; FORCE_COLOR turns them on) and a one-line view of a row.
import { type ChunkRow, type ChunkRowDraft, describeError, type JSONValue } from 'chunklog';

type Stream = { readonly isTTY?: boolean | undefined };

/** Whether to colour what goes to `stream`, following https://no-color.org. */
export function colorsEnabled(stream: Stream = process.stdout): boolean {
  if (process.env.NO_COLOR) return false;
  if (process.env.FORCE_COLOR && process.env.FORCE_COLOR !== '0') return true;
  return stream.isTTY === true && process.env.TERM !== 'dumb';
}

export interface Paint {
  readonly enabled: boolean;
  readonly dim: (text: string) => string;
  readonly bold: (text: string) => string;
  readonly red: (text: string) => string;
  readonly green: (text: string) => string;
  readonly yellow: (text: string) => string;
  readonly blue: (text: string) => string;
  readonly magenta: (text: string) => string;
  readonly cyan: (text: string) => string;
}

/** ANSI styles, or the identity when colours are off. */
export function paint(enabled: boolean = colorsEnabled()): Paint {
  const style = (open: number, close: number) => (text: string) =>
    enabled ? `\u001b[${open}m${text}\u001b[${close}m` : text;
  return {
    enabled,
    dim: style(2, 22),
    bold: style(1, 22),
    red: style(31, 39),
    green: style(32, 39),
    yellow: style(33, 39),
    blue: style(34, 39),
    magenta: style(35, 39),
    cyan: style(36, 39),
  };
}

/** Shortens `text` to `max` characters, on one line. */
export function clip(text: string, max = 72): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

/** A JSON value, shortened. */
export function brief(value: JSONValue | undefined, max = 48): string {
  return value === undefined ? '…' : clip(JSON.stringify(value), max);
}

/** What a row holds, in a few words: `thinking "I should…" (signed)`, `tool_call weather({…})`. */
export function describeRow(row: ChunkRow | ChunkRowDraft): string {
  switch (row.type) {
    case 'text':
      return JSON.stringify(clip(row.data.text, 60));
    case 'thinking': {
      const signed = row.data.providerMetadata?.anthropic?.signature !== undefined;
      const model = row.data.modelId ? `, ${row.data.modelId}` : '';
      return `${JSON.stringify(clip(row.data.text, 50))} (${signed ? 'signed' : 'unsigned'}${model})`;
    }
    case 'tool_call':
      return `#${row.data.index} ${row.data.name}(${brief(row.data.input)}) id=${row.data.id}`;
    case 'tool_result': {
      const what = row.data.isError ? 'error ' : '';
      const progress = row.data.progress
        ? ` progress=${JSON.stringify(clip(row.data.progress, 30))}`
        : '';
      return `${row.data.name} → ${what}${brief(row.data.result)}${progress} call=${row.data.callId}`;
    }
    case 'error':
      return describeError(row.data);
    case 'system': {
      const dropped = (row.data.dropped ?? []).map((d) => JSON.stringify(clip(d.text, 40)));
      const notSent = dropped.length === 0 ? '' : ` (not sent: ${dropped.join(', ')})`;
      return `[${row.data.kind}] ${row.data.text}${notSent}`;
    }
    case 'steering':
      return JSON.stringify(clip(row.data.text, 60));
    case 'source':
      return row.data.source.sourceType === 'url'
        ? row.data.source.url
        : `${row.data.source.title} (${row.data.source.mediaType})`;
    case 'file':
      return `${row.data.mediaType}${row.data.filename ? ` ${row.data.filename}` : ''}`;
    case 'custom':
      return row.data.kind;
    default:
      // Row types added later (an app's data parts): show the raw data.
      return brief((row as { data?: JSONValue }).data, 60);
  }
}

/** One line per row: `  12  assistant  tool_call    #0 weather({"city":"Paris"})`. */
export function formatRow(row: ChunkRow, p: Paint = paint()): string {
  const seq = String(row.seq).padStart(4);
  const role = row.role.padEnd(9);
  const type = row.type.padEnd(11);
  const text = describeRow(row);
  const body =
    row.type === 'thinking'
      ? p.dim(text)
      : row.type === 'error'
        ? p.red(text)
        : row.type === 'system'
          ? p.yellow(text)
          : text;
  return `${p.dim(seq)}  ${role}  ${p.cyan(type)}  ${body}`;
}
