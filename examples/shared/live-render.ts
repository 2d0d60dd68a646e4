// Renders a turn's chunk events live in a terminal: text as it streams, thinking dimmed, tool
// calls with their progress and results, system notices as separators, errors in red.
import { type ChunkEvent, describeError } from 'chunklog';
import { brief, clip, type Paint } from './terminal.js';

export interface LiveRendererOptions {
  readonly write: (text: string) => void;
  readonly paint: Paint;
  /** Terminal width for separators (default 80). */
  readonly width?: number | undefined;
  /** Show `step N` headers (default true). */
  readonly steps?: boolean | undefined;
}

/** Returns a function to call with each event of a turn, in order. */
export function createLiveRenderer(options: LiveRendererOptions): (event: ChunkEvent) => void {
  const { write, paint: p } = options;
  const width = Math.max(40, Math.min(options.width ?? 80, 100));
  const names = new Map<string, string>();
  // Progress text is printed as it comes. A generator tool's last preliminary result is also its
  // result: each one is printed when the next event of its call arrives, and dropped when that is
  // a result with the same output.
  const pending = new Map<string, string>();
  const flush = (callId: string, result?: string) => {
    const waiting = pending.get(callId);
    pending.delete(callId);
    if (waiting !== undefined && waiting !== result) printProgress(callId, waiting);
  };
  const printProgress = (callId: string, what: string) =>
    line(`    ${p.cyan('⇢')} ${names.get(callId) ?? callId} ${p.dim(what)}`);
  let inline: 'text' | 'thinking' | null = null;

  const endLine = () => {
    if (inline !== null) write('\n');
    inline = null;
  };
  const line = (text: string) => {
    endLine();
    write(`${text}\n`);
  };
  let column = 0;
  let space = '';
  const stream = (kind: 'text' | 'thinking', text: string) => {
    if (text === '') return;
    const style = kind === 'thinking' ? p.dim : (s: string) => s;
    const prefix = kind === 'thinking' ? '  ┊ thinking  ' : '  ';
    const indent = kind === 'thinking' ? '  ┊           ' : '  ';
    if (inline !== kind) {
      endLine();
      write(kind === 'thinking' ? p.dim(prefix) : prefix);
      inline = kind;
      column = prefix.length;
      space = '';
    }
    // Word-wrap at the terminal width, keeping the indent. A space is written only once the
    // word after it is known to fit on the line.
    for (const piece of text.split(/(\s+)/)) {
      if (piece === '') continue;
      if (/^\s+$/.test(piece)) {
        const breaks = piece.split('\n').length - 1;
        for (let i = 0; i < breaks; i++) write(`\n${kind === 'thinking' ? p.dim(indent) : indent}`);
        if (breaks > 0) column = indent.length;
        space = breaks > 0 ? '' : column > indent.length ? ' ' : '';
        continue;
      }
      if (column + space.length + piece.length > width && column > indent.length) {
        write(`\n${kind === 'thinking' ? p.dim(indent) : indent}`);
        column = indent.length;
        space = '';
      }
      write(style(space + piece));
      column += space.length + piece.length;
      space = '';
    }
  };

  const separator = (label: string, text: string) => {
    const head = `── ${label} ── ${text} `;
    return `  ${head}${'─'.repeat(Math.max(3, width - 2 - head.length))}`;
  };

  return (event) => {
    switch (event.type) {
      case 'step-start':
        if (options.steps !== false && event.step !== undefined && event.step > 0)
          line(p.dim(`  · step ${event.step}`));
        break;
      case 'reasoning-delta':
        stream('thinking', event.text);
        break;
      case 'text-delta':
        stream('text', event.text);
        break;
      case 'tool-input-start':
        names.set(event.toolCallId, event.toolName);
        break;
      case 'tool-call':
        names.set(event.toolCallId, event.toolName);
        line(`  ${p.cyan('⚙')} ${p.bold(event.toolName)} ${p.dim(brief(event.input, 60))}`);
        break;
      case 'tool-progress':
        if (event.text !== undefined) {
          // Progress text, like a shell's output: one line per line of it.
          flush(event.toolCallId);
          for (const text of event.text.split('\n')) {
            if (text.trim() !== '') printProgress(event.toolCallId, clip(text, 60));
          }
        } else {
          flush(event.toolCallId);
          pending.set(event.toolCallId, brief(event.output, 60));
        }
        break;
      case 'tool-result': {
        flush(event.toolCallId, brief(event.output, 60));
        const name = names.get(event.toolCallId) ?? event.toolName ?? event.toolCallId;
        const mark = event.isError ? p.red('✗') : p.green('✓');
        const text = brief(event.output, 60);
        line(`    ${mark} ${name} ${event.isError ? p.red(text) : text}`);
        break;
      }
      case 'tool-approval-request':
        line(
          `    ${p.yellow('?')} ${names.get(event.toolCallId) ?? event.toolCallId} awaits approval`,
        );
        break;
      case 'steering-message':
        line(`  ${p.magenta('▸ you (while it worked):')} ${event.text}`);
        break;
      case 'system':
        line(p.yellow(separator(event.kind, event.text)));
        for (const dropped of event.dropped ?? []) line(p.dim(`  not sent: ${dropped.text}`));
        break;
      case 'error':
        // `Error from anthropic claude-x (HTTP 401): invalid x-api-key — check the API key, …`
        line(p.red(`  ✖ ${describeError(event)}`));
        break;
      case 'source':
        line(
          p.dim(`  ↗ ${event.source.sourceType === 'url' ? event.source.url : event.source.title}`),
        );
        break;
      case 'file':
        line(p.dim(`  📎 ${event.mediaType}`));
        break;
      case 'turn-end': {
        for (const callId of [...pending.keys()]) flush(callId);
        endLine();
        const tokens = event.usage?.totalTokens;
        const why = event.finishReason ?? 'ended';
        write(p.dim(`  ╰ ${why}${tokens === undefined ? '' : `, ${tokens} tokens`}\n`));
        break;
      }
      default:
        break;
    }
  };
}
