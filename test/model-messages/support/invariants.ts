// The structural promises of toModelMessages that every provider relies on.
import type { ModelMessage } from 'ai';
import { expect } from 'vitest';

type Part = { type: string; toolCallId?: string; providerExecuted?: boolean };
const partsOf = (m: ModelMessage | undefined): Part[] =>
  m === undefined || typeof m.content === 'string' ? [] : (m.content as Part[]);

/** The structural promises of toModelMessages that every provider relies on. */
export function checkInvariants(out: readonly ModelMessage[]): void {
  expect(JSON.stringify(out)).not.toContain('\\u0001');
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
      for (const call of own.filter((p) => p.type === 'tool-call')) {
        if (call.providerExecuted === true) {
          // The provider's result is in the assistant message; a denial answered in the tool
          // message (as the AI SDK's loop sends it) is in the tool message.
          expect(
            own.some((p) => p.type === 'tool-result' && p.toolCallId === call.toolCallId) ||
              answered.has(call.toolCallId),
          ).toBe(true);
        } else {
          expect(answered.has(call.toolCallId)).toBe(true);
        }
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
