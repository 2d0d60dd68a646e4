import type { ModelMessage } from 'ai';
import type { ToolPart, ToolResultOutput } from './ai-types.js';

/**
 * The note that ends a tool result cut to a size cap in model input.
 *
 * @param kept - characters kept
 * @param total - characters of the whole result
 * @returns the note
 *
 * @example
 * ```ts
 * toolResultCutNote(4000, 120000); // '\n[chunklog: tool result cut to 4000 of 120000 characters …]'
 * ```
 */
export function toolResultCutNote(kept: number, total: number): string {
  return `\n[chunklog: tool result cut to ${kept} of ${total} characters for model input; the full result is stored]`;
}

const CUT_NOTE =
  /\n\[chunklog: tool result cut to (\d+) of \d+ characters for model input; the full result is stored\]$/;

/**
 * Whether `value` is a result this module cut already, to at most `maxChars` characters: cutting
 * it again would change its bytes (and a provider's cached prefix) for nothing.
 */
function cutAlready(value: string, maxChars: number): boolean {
  const match = CUT_NOTE.exec(value);
  if (match === null) return false;
  const kept = Number(match[1]);
  return kept <= maxChars && value.length - match[0].length === kept;
}

function capOutput(output: ToolResultOutput, maxChars: number): ToolResultOutput {
  switch (output.type) {
    case 'text':
    case 'error-text': {
      if (output.value.length <= maxChars || cutAlready(output.value, maxChars)) return output;
      const value =
        output.value.slice(0, maxChars) + toolResultCutNote(maxChars, output.value.length);
      return { ...output, value };
    }
    case 'json':
    case 'error-json': {
      const text = JSON.stringify(output.value) ?? '';
      if (text.length <= maxChars) return output;
      const value = text.slice(0, maxChars) + toolResultCutNote(maxChars, text.length);
      const { value: _value, ...rest } = output;
      return { ...rest, type: output.type === 'json' ? 'text' : 'error-text', value };
    }
    default:
      return output;
  }
}

/**
 * Cuts every local tool result of model input to at most `maxChars` characters (a JSON result is
 * cut as its JSON text and sent as text), marking the cut with {@link toolResultCutNote}; a
 * result cut already (to at most `maxChars`) is left as it is, so cutting twice changes nothing. The
 * stored result is untouched; results of provider-executed tools (inside assistant messages,
 * in the shapes their provider expects) and multi-part `content` results are sent as they are.
 *
 * @param messages - model input
 * @param maxChars - the most characters a result keeps
 * @returns the messages, sharing every message that had nothing to cut
 *
 * @example
 * ```ts
 * const input = capToolResults(toModelMessages(history), 20_000);
 * ```
 */
export function capToolResults(
  messages: readonly ModelMessage[],
  maxChars: number,
): ModelMessage[] {
  return messages.map((message) => {
    if (message.role !== 'tool') return message;
    let changed = false;
    const content = message.content.map((part: ToolPart) => {
      if (part.type !== 'tool-result') return part;
      const output = capOutput(part.output, maxChars);
      if (output === part.output) return part;
      changed = true;
      return { ...part, output };
    });
    return changed ? { ...message, content } : message;
  });
}
