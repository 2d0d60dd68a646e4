// The structural promises of toModelMessages that every provider relies on.
import type { ModelMessage } from 'ai';
import { expect } from 'vitest';

type Part = { type: string; toolCallId?: string; providerExecuted?: boolean };
const partsOf = (m: ModelMessage | undefined): Part[] =>
  m === undefined || typeof m.content === 'string' ? [] : (m.content as Part[]);

/** The structural promises of toModelMessages that every provider relies on. */
export function checkInvariants(out: readonly ModelMessage[]): void {
  expect(JSON.stringify(out)).not.toContain('\\u0001');
  const called = new Set<string | undefined>();
  for (let i = 0; i < out.length; i++) {
    const message = out[i] as ModelMessage;
    expect(message.role).not.toBe('system');
    if (message.role === 'assistant') {
      const own = partsOf(message);
      const next = out[i + 1];
      const answered = new Set(
        partsOf(next?.role === 'tool' ? next : undefined)
          .filter((p) => p.type === 'tool-result')
          .map((p) => p.toolCallId),
      );
      for (const part of own) {
        // A provider-executed result (in an assistant message) comes after its call; the call
        // may be pending (sent alone, as the AI SDK's loop sends it: the provider answers it
        // later). Every local call is answered in the tool message that follows.
        if (part.type === 'tool-result') expect(called.has(part.toolCallId)).toBe(true);
        if (part.type !== 'tool-call') continue;
        called.add(part.toolCallId);
        if (part.providerExecuted !== true) expect(answered.has(part.toolCallId)).toBe(true);
      }
    }
    if (message.role === 'tool') {
      const previous = out[i - 1];
      expect(previous?.role).toBe('assistant');
      const calls = new Set(
        partsOf(previous)
          .filter((p) => p.type === 'tool-call')
          .map((p) => p.toolCallId),
      );
      for (const result of partsOf(message).filter((p) => p.type === 'tool-result'))
        expect(calls.has(result.toolCallId)).toBe(true);
    }
  }
}
