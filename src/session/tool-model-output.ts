import type { ModelMessage, ToolSet } from 'ai';

type ToModelOutput = NonNullable<ToolSet[string]['toModelOutput']>;
type ToolResultPart = Extract<
  Extract<ModelMessage, { role: 'tool' }>['content'][number],
  { type: 'tool-result' }
>;

/** The tools of `tools` that map their result for the model (`toModelOutput`), by name. */
function mappers(tools: ToolSet | undefined): Map<string, ToModelOutput> | undefined {
  if (tools === undefined) return undefined;
  let found: Map<string, ToModelOutput> | undefined;
  for (const [name, tool] of Object.entries(tools)) {
    if (typeof tool?.toModelOutput === 'function') {
      found ??= new Map();
      found.set(name, tool.toModelOutput);
    }
  }
  return found;
}

/** The inputs of the tool calls in `messages`, by call id. */
function callInputs(messages: readonly ModelMessage[]): Map<string, unknown> {
  const inputs = new Map<string, unknown>();
  for (const message of messages) {
    if (message.role !== 'assistant' || typeof message.content === 'string') continue;
    for (const part of message.content) {
      if (part.type === 'tool-call') inputs.set(part.toolCallId, part.input);
    }
  }
  return inputs;
}

/** The tool's own result as it was returned, from the output chunklog sends by default. */
function returnedValue(part: ToolResultPart): { readonly value: unknown } | undefined {
  const { output } = part;
  return output.type === 'json' || output.type === 'text' ? { value: output.value } : undefined;
}

/**
 * What the session's tools with `toModelOutput` make of each stored result in `messages`, by
 * tool call id: what the AI SDK sent the model in the steps of the turn that ran the tool.
 * Undefined when no tool maps its results.
 *
 * @param input - the model input, as built from the stored chunks (built only when a tool maps)
 * @param tools - the session's tools
 * @returns the mapped outputs, by tool call id
 * @throws what a tool's `toModelOutput` throws
 */
export async function toolModelOutputs(
  input: () => readonly ModelMessage[],
  tools: ToolSet | undefined,
): Promise<MappedToolOutputs | undefined> {
  const byName = mappers(tools);
  if (byName === undefined) return undefined;
  const messages = input();
  let inputs: Map<string, unknown> | undefined;
  const mapped = new Map<string, ToolResultPart['output']>();
  for (const message of messages) {
    if (message.role !== 'tool') continue;
    for (const part of message.content) {
      if (part.type !== 'tool-result') continue;
      const map = byName.get(part.toolName);
      const returned = returnedValue(part);
      if (map === undefined || returned === undefined) continue;
      inputs ??= callInputs(messages);
      mapped.set(
        part.toolCallId,
        await map({
          toolCallId: part.toolCallId,
          input: inputs.get(part.toolCallId),
          output: returned.value,
        }),
      );
    }
  }
  return mapped;
}

/** Stored tool results as their tools map them for the model, by tool call id. */
export type MappedToolOutputs = ReadonlyMap<string, ToolResultPart['output']>;

/**
 * `messages` with each tool result in `mapped` sent as mapped, so that a later turn (or a
 * restarted process) sends the model what it saw in the tool's own turn, and a cached prompt
 * prefix stays the same. Messages and parts are copied where they change, never changed in place
 * (the input of a history is kept and handed out again). Without mapped results, `messages`
 * itself.
 *
 * @param messages - the model input, as built from the stored chunks
 * @param mapped - from {@link toolModelOutputs}
 * @returns the input with the mapped results
 */
export function withMappedOutputs(
  messages: ModelMessage[],
  mapped: MappedToolOutputs | undefined,
): ModelMessage[] {
  if (mapped === undefined || mapped.size === 0) return messages;
  const out: ModelMessage[] = [];
  for (const message of messages) {
    if (message.role !== 'tool') {
      out.push(message);
      continue;
    }
    let content: typeof message.content | undefined;
    for (let i = 0; i < message.content.length; i++) {
      const part = message.content[i] as (typeof message.content)[number];
      const output = part.type === 'tool-result' ? mapped.get(part.toolCallId) : undefined;
      if (output === undefined || part.type !== 'tool-result') continue;
      content ??= message.content.slice();
      content[i] = { ...part, output };
    }
    out.push(content === undefined ? message : { ...message, content });
  }
  return out;
}

/**
 * `messages` with each stored tool result of a tool that has `toModelOutput` sent as that
 * function maps it ({@link toolModelOutputs}, then {@link withMappedOutputs}).
 *
 * @param messages - the model input, as built from the stored chunks
 * @param tools - the session's tools
 * @returns the input with the mapped results
 * @throws what a tool's `toModelOutput` throws
 */
export async function withToolModelOutputs(
  messages: ModelMessage[],
  tools: ToolSet | undefined,
): Promise<ModelMessage[]> {
  return withMappedOutputs(messages, await toolModelOutputs(() => messages, tools));
}
