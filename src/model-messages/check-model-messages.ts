import type { ModelMessage } from 'ai';
import { ChunklogError } from '../errors/chunklog-error.js';
import { previewValue } from '../schema/parse.js';

const ROLES: ReadonlySet<string> = new Set(['system', 'user', 'assistant', 'tool']);

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** What is wrong with one message, as a path inside it and a reason; undefined when nothing. */
function problemOf(message: unknown): { path: (string | number)[]; reason: string } | undefined {
  if (!isObject(message)) return { path: [], reason: 'a model message must be an object' };
  const { role, content, providerOptions } = message;
  if (typeof role !== 'string' || !ROLES.has(role)) {
    return { path: ['role'], reason: "`role` must be 'system', 'user', 'assistant' or 'tool'" };
  }
  if (providerOptions !== undefined && !isObject(providerOptions)) {
    return { path: ['providerOptions'], reason: '`providerOptions` must be an object' };
  }
  if (typeof content === 'string') {
    return role === 'tool'
      ? { path: ['content'], reason: 'a tool message needs parts' }
      : undefined;
  }
  if (role === 'system') return { path: ['content'], reason: 'a system message needs a string' };
  if (!Array.isArray(content)) {
    return { path: ['content'], reason: '`content` must be a string or an array of parts' };
  }
  for (let i = 0; i < content.length; i++) {
    const part: unknown = content[i];
    if (!isObject(part) || typeof part.type !== 'string') {
      return { path: ['content', i], reason: 'a part must be an object with a string `type`' };
    }
    if (part.providerOptions !== undefined && !isObject(part.providerOptions)) {
      return {
        path: ['content', i, 'providerOptions'],
        reason: '`providerOptions` must be an object',
      };
    }
  }
  return undefined;
}

/**
 * Checks the shape of AI SDK model messages that chunklog reads (roles, content, parts and
 * their `providerOptions`), without checking each part type's fields: that is the AI SDK's job
 * when the messages are sent.
 *
 * @param messages - the untrusted argument
 * @param where - the public function, for the message
 * @returns `messages`, typed
 * @throws {ChunklogError} `invalid-ui-message`, with `path` `[index, ...path in the message]`
 */
export function checkModelMessages(messages: unknown, where: string): readonly ModelMessage[] {
  if (!Array.isArray(messages)) {
    throw new ChunklogError(
      'invalid-ui-message',
      `${where}: \`messages\` must be an array of model messages (got ${previewValue(messages)})`,
      { path: [], value: messages },
    );
  }
  for (let i = 0; i < messages.length; i++) {
    const problem = problemOf(messages[i]);
    if (problem === undefined) continue;
    const path = [i, ...problem.path];
    throw new ChunklogError(
      'invalid-ui-message',
      `${where}: model message ${i}: ${problem.reason}`,
      { path, value: messages[i] },
    );
  }
  return messages as readonly ModelMessage[];
}
