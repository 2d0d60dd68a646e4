// useChat interop: the assistant message useChat builds from toUIMessageStream(events) should
// equal toUIMessages() of the stored turn (docs/ui-messages.md, toUIMessageStream's promise).
import { readUIMessageStream } from 'ai';
import { explodeTurn, foldTurn, groupRowsToMessages, toUIMessages, toUIMessageStream } from '../dist/index.js';
import { isDeepStrictEqual } from 'node:util';

const sig = { anthropic: { signature: 'SIG-abc' } };
const scenarios = {
  full: [
    { type: 'turn-start', turnId: 't1' },
    { type: 'step-start', step: 0, modelId: 'claude' },
    { type: 'reasoning-start', id: 'r1' },
    { type: 'reasoning-delta', id: 'r1', text: 'thinking...' },
    { type: 'reasoning-delta', id: 'r1', text: '', providerMetadata: sig },
    { type: 'reasoning-end', id: 'r1' },
    { type: 'text-start', id: 'a' }, { type: 'text-delta', id: 'a', text: 'Let me look.' }, { type: 'text-end', id: 'a' },
    { type: 'tool-input-start', toolCallId: 'c1', toolName: 'read' },
    { type: 'tool-input-delta', toolCallId: 'c1', delta: '{"p":"x"}' },
    { type: 'tool-call', toolCallId: 'c1', toolName: 'read', input: { p: 'x' }, providerMetadata: { anthropic: { cache: 1 } } },
    { type: 'tool-call', toolCallId: 'c2', toolName: 'ls', input: {} },
    { type: 'tool-progress', toolCallId: 'c2', text: 'x.ts\n' },
    { type: 'tool-result', toolCallId: 'c1', toolName: 'read', output: 'X' },
    { type: 'tool-result', toolCallId: 'c2', toolName: 'ls', output: 'boom', isError: true },
    { type: 'step-finish', step: 0, finishReason: 'tool-calls', modelId: 'claude' },
    { type: 'step-start', step: 1 },
    { type: 'system', kind: 'model-changed', text: 'switched' },
    { type: 'text-start', id: 'b' }, { type: 'text-delta', id: 'b', text: 'Done.' }, { type: 'text-end', id: 'b' },
    { type: 'error', message: 'Network error', statusCode: 503 },
    { type: 'step-finish', step: 1, finishReason: 'error' },
    { type: 'turn-end', finishReason: 'error' },
  ],
  more: [
    { type: 'turn-start', turnId: 't1' },
    { type: 'step-start', step: 0 },
    { type: 'reasoning-start', id: 'r0', providerMetadata: { anthropic: { redactedData: 'ENC' } } },
    { type: 'reasoning-end', id: 'r0' },
    { type: 'text-start', id: 'a' }, { type: 'text-delta', id: 'a', text: 'See [1].' },
    { type: 'text-end', id: 'a', citations: [{ source: { sourceType: 'url', id: 's1', url: 'https://x.test' }, citedText: 'x' }] },
    { type: 'source', source: { sourceType: 'url', id: 's1', url: 'https://x.test', title: 'X' } },
    { type: 'file', mediaType: 'image/png', data: 'iVBORw0KGgo=' },
    { type: 'custom', kind: 'anthropic.fallback', providerMetadata: { anthropic: { x: 1 } } },
    { type: 'tool-call', toolCallId: 'c1', toolName: 'rm', input: { p: 1 } },
    { type: 'tool-approval-request', toolCallId: 'c1', approvalId: 'ap1' },
    { type: 'tool-approval-response', approvalId: 'ap1', approved: false, reason: 'no' },
    { type: 'tool-result', toolCallId: 'c1', toolName: 'rm', output: 'denied', isError: true, denied: true },
    { type: 'tool-call', toolCallId: 'c3', toolName: 'web', input: {}, providerExecuted: true, dynamic: true },
    { type: 'tool-result', toolCallId: 'c3', toolName: 'web', output: { ok: 1 }, providerExecuted: true },
    { type: 'step-finish', step: 0, finishReason: 'tool-calls' },
    { type: 'steering-message', id: 'st1', text: 'also check y', step: 1 },
    { type: 'step-start', step: 1 },
    { type: 'text-start', id: 'b' }, { type: 'text-delta', id: 'b', text: 'ok' }, { type: 'text-end', id: 'b' },
    { type: 'step-finish', step: 1, finishReason: 'stop' },
    { type: 'turn-end', finishReason: 'stop' },
  ],
  cancelled: [
    { type: 'turn-start', turnId: 't1' },
    { type: 'step-start', step: 0 },
    { type: 'text-start', id: 'a' }, { type: 'text-delta', id: 'a', text: 'partial' },
    { type: 'tool-input-start', toolCallId: 'c9', toolName: 'slow' },
    { type: 'tool-input-delta', toolCallId: 'c9', delta: '{"a":' },
    { type: 'system', kind: 'cancelled', text: 'Stopped.' },
    { type: 'turn-end', finishReason: 'other' },
  ],
};

for (const [name, events] of Object.entries(scenarios)) {
  const state = foldTurn(events);
  const stored = toUIMessages(groupRowsToMessages(explodeTurn('t1', state.chunks, { role: 'assistant' }).map((r, i) => ({ ...r, threadId: 'th', seq: i + 1 }))));
  async function* gen() { for (const e of events) yield e; }
  let last;
  try {
    for await (const m of readUIMessageStream({ stream: toUIMessageStream(gen()), onError: () => {} })) last = m;
  } catch (e) { console.log('stream error', e.message); }
  const a = JSON.parse(JSON.stringify(stored[0]));
  const b = JSON.parse(JSON.stringify(last));
  console.log(name, 'equal:', isDeepStrictEqual(a, b));
  if (!isDeepStrictEqual(a, b)) {
    const n = Math.max(a.parts.length, b.parts.length);
    console.log(' id', a.id, b.id);
    for (let i = 0; i < n; i++) if (!isDeepStrictEqual(a.parts[i], b.parts[i])) console.log(` part ${i}\n  stored: ${JSON.stringify(a.parts[i])}\n  stream: ${JSON.stringify(b.parts[i])}`);
  }
}
