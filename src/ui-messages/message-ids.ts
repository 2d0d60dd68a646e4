import type { ChatRole } from '../schema/index.js';

/** A chunklog message id split into its turn and role. */
export interface ParsedMessageId {
  readonly turnId: string;
  readonly role: ChatRole;
}

const pattern = /^(.+):(user|assistant|system)$/;

/**
 * Splits a chunklog message id (`${turnId}:${role}`, see `messageId`) into its parts.
 *
 * @param id - a message id
 * @returns its turn and role, or undefined when `id` is not of that form
 */
export function parseMessageId(id: string): ParsedMessageId | undefined {
  const match = pattern.exec(id);
  if (match === null) return undefined;
  return { turnId: match[1] as string, role: match[2] as ChatRole };
}
