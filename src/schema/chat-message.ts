import type { ZodType } from 'zod';
import * as z from 'zod/mini';
import type { Chunk } from './chunk.js';
import { chunkMini } from './chunk-schemas.js';
import { classicView } from './classic-view.js';
import { type TurnStatus, turnStatusMini } from './turn-status.js';

/** The role of a {@link ChatMessage}. Tool rows join their turn's assistant message. */
export type ChatRole = 'user' | 'assistant' | 'system';

/**
 * One message of a thread: the chunks of one turn and role, in order. `system` messages hold
 * only system chunks that arrived outside a turn, and never reach the model.
 */
export interface ChatMessage {
  /**
   * A stable id, `${turnId}:${role}`: the same whether the message was grouped from live rows or
   * from stored ones, so a UI keyed by it does not remount when a turn seals.
   */
  readonly id: string;
  readonly turnId: string;
  readonly role: ChatRole;
  readonly chunks: readonly Chunk[];
  /**
   * The status of the message's turn when it is not `completed` (`ChunkStore.getMessages` sets
   * it): `running` for the stored part of a turn still being written, `failed`, `cancelled` or
   * `interrupted`.
   */
  readonly status?: TurnStatus | undefined;
}

/** The `zod/mini` schema of a {@link ChatRole}. */
export const chatRoleMini: z.ZodMiniType<ChatRole> = z.enum(['user', 'assistant', 'system']);

/** The `zod/mini` schema of a {@link ChatMessage}. */
export const chatMessageMini: z.ZodMiniType<ChatMessage> = z.object({
  id: z.string().check(z.minLength(1)),
  turnId: z.string().check(z.minLength(1)),
  role: chatRoleMini,
  chunks: z.array(chunkMini),
  status: z.optional(turnStatusMini),
});

/** Zod schema of a {@link ChatRole}. */
export const ChatRoleSchema: ZodType<ChatRole> = /* @__PURE__ */ classicView(chatRoleMini);

/** Zod schema of a {@link ChatMessage}. */
export const ChatMessageSchema: ZodType<ChatMessage> = /* @__PURE__ */ classicView(chatMessageMini);

/**
 * The id of the message of `turnId` and `role`.
 *
 * @param turnId - the turn
 * @param role - the message's role
 * @returns `${turnId}:${role}`
 *
 * @example
 * ```ts
 * messageId('t1', 'assistant'); // 't1:assistant'
 * ```
 */
export function messageId(turnId: string, role: ChatRole): string {
  return `${turnId}:${role}`;
}
