// Successive states of an assistant message's chunks, as a reducer would pass through them while
// a turn streams: each chunk grows to its final form before the next one appears.
import type { Chunk, ToolApproval, ToolCallEntry } from '../../../src/schema/index.js';

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

function callStages(call: ToolCallEntry): ToolCallEntry[] {
  const { progress: _progress, ...final } = call;
  const base: Mutable<ToolCallEntry> = { id: call.id, name: call.name };
  for (const key of ['providerExecuted', 'providerMetadata', 'dynamic', 'title'] as const) {
    if (call[key] !== undefined) Object.assign(base, { [key]: call[key] });
  }
  const stages: ToolCallEntry[] = [];
  if (call.inputText !== undefined) {
    const half = call.inputText.slice(0, Math.floor(call.inputText.length / 2));
    stages.push({ ...base, inputText: half });
  }
  const withInput =
    call.input === undefined
      ? { ...base, inputText: call.inputText }
      : { ...base, input: call.input };
  stages.push(withInput);
  if (call.approval !== undefined) {
    const pending: Mutable<ToolApproval> = { id: call.approval.id };
    if (call.approval.isAutomatic !== undefined) pending.isAutomatic = call.approval.isAutomatic;
    if (call.approval.approved === undefined && call.approval.reason !== undefined) {
      pending.reason = call.approval.reason;
    }
    stages.push({ ...withInput, approval: pending });
    if (call.approval.approved !== undefined)
      stages.push({ ...withInput, approval: call.approval });
  }
  if (call.preliminary !== undefined && call.result === undefined) {
    stages.push({ ...stages.at(-1), preliminary: 'not yet' } as ToolCallEntry);
  }
  stages.push(final as ToolCallEntry);
  return stages.map((stage) =>
    Object.fromEntries(Object.entries(stage).filter(([, v]) => v !== undefined)),
  ) as ToolCallEntry[];
}

/**
 * The states a message passes through on its way to `final`, ending with `final` itself.
 *
 * @param final - the message's chunks at the end of the turn
 */
export function snapshots(final: readonly Chunk[]): Chunk[][] {
  const out: Chunk[][] = [];
  const done: Chunk[] = [];
  for (const chunk of final) {
    if (chunk.type === 'text' || chunk.type === 'thinking') {
      const half = chunk.text.slice(0, Math.floor(chunk.text.length / 2));
      const { providerMetadata: _m, ...partial } = chunk as Chunk & { providerMetadata?: unknown };
      out.push([...done, { ...partial, text: half } as Chunk]);
    } else if (chunk.type === 'tool-batch') {
      const calls: ToolCallEntry[] = [];
      for (const call of chunk.calls) {
        const first = callStages(call)[0] as ToolCallEntry;
        calls.push(first);
        out.push([...done, { ...chunk, calls: [...calls] }]);
      }
      chunk.calls.forEach((call, i) => {
        for (const stage of callStages(call).slice(1)) {
          calls[i] = stage;
          out.push([...done, { ...chunk, calls: [...calls] }]);
        }
      });
      chunk.calls.forEach((call, i) => {
        calls[i] = call;
        out.push([...done, { ...chunk, calls: [...calls] }]);
      });
    }
    done.push(chunk);
    out.push([...done]);
  }
  return out;
}
