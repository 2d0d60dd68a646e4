// Prints chat messages (grouped rows) compactly: each chunk kind as the live renderer shows it.
import type { ChatMessage, Chunk } from 'chunklog';
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
      return [
        p.red(`  ✖ error${chunk.statusCode ? ` ${chunk.statusCode}` : ''}: ${chunk.message}`),
      ];
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

/** One block per message: who, then its chunks in order. */
export function printMessages(
  messages: readonly ChatMessage[],
  print: (line: string) => void,
  p: Paint,
): void {
  for (const message of messages) {
    const who =
      message.role === 'user'
        ? p.magenta('you ▸')
        : message.role === 'assistant'
          ? p.bold('agent')
          : p.yellow('system');
    if (message.role === 'user') {
      const text = message.chunks.map((c) => (c.type === 'text' ? c.text : '')).join(' ');
      print(`${who} ${text}`);
      continue;
    }
    print(who);
    for (const chunk of message.chunks) for (const line of chunkLine(chunk, p)) print(line);
  }
}
