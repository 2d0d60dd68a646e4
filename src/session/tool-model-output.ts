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
 * `messages` with each stored tool result of a tool that has `toModelOutput` sent as that function
 * maps it, as the AI SDK sends it in the steps of the turn that ran the tool: a later turn (or a
 * restarted process) sends the model what it saw then, and a cached prompt prefix stays the same.
 * Messages and parts are copied where they change, never changed in place (the input of a
 * history is kept and handed out again). Without such a tool, `messages` itself.
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
  const byName = mappers(tools);
  if (byName === undefined) return messages;
  let inputs: Map<string, unknown> | undefined;
  const out: ModelMessage[] = [];
  for (const message of messages) {
    if (message.role !== 'tool') {
      out.push(message);
      continue;
    }
    let content: typeof message.content | undefined;
    for (let i = 0; i < message.content.length; i++) {
      const part = message.content[i] as (typeof message.content)[number];
      const map = part.type === 'tool-result' ? byName.get(part.toolName) : undefined;
      const returned = part.type === 'tool-result' ? returnedValue(part) : undefined;
      if (map === undefined || returned === undefined || part.type !== 'tool-result') continue;
      inputs ??= callInputs(messages);
      const output = await map({
        toolCallId: part.toolCallId,
        input: inputs.get(part.toolCallId),
        output: returned.value,
      });
      content ??= message.content.slice();
      content[i] = { ...part, output };
    }
    out.push(content === undefined ? message : { ...message, content });
  }
  return out;
}
