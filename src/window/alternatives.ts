import * as z from 'zod/mini';
import { parseWith } from '../schema/parse.js';

/**
 * One version of a turn, as `GET …/threads/:id/alternatives` lists it.
 *
 * @example
 * ```ts
 * const version: AlternativeVersion = { threadId: 'chat-1~b', turnId: 'turn-7', createdAt: '2026-12-05T09:00:00.000Z' };
 * ```
 */
export interface AlternativeVersion {
  /** The thread to switch to for this version (the conversation's own id for the original). */
  readonly threadId: string;
  /** The turn the version starts with; absent (or null) while its turn is not written yet. */
  readonly turnId?: string | null | undefined;
  /** When the version was made (ISO 8601). */
  readonly createdAt: string;
}

/**
 * A turn of the active path that has more than one version.
 *
 * @example
 * ```ts
 * const branch: AlternativeBranch = { atSeq: 4, active: 1, alternatives: [first, second] };
 * ```
 */
export interface AlternativeBranch {
  /** The seq of the active path the versions branch at: each starts with the row after it. */
  readonly atSeq: number;
  /** The index in `alternatives` of the version on the active path. */
  readonly active: number;
  /** The versions, oldest first. */
  readonly alternatives: readonly AlternativeVersion[];
}

/**
 * A conversation's active path and its branch points: the answer of
 * `GET …/threads/:id/alternatives` and of `POST …/threads/:id/alternatives` (a switch).
 *
 * @example
 * ```ts
 * const alternatives: ThreadAlternatives = await (await fetch('/api/threads/chat-1/alternatives')).json();
 * ```
 */
export interface ThreadAlternatives {
  /** The conversation (the thread id the client uses). */
  readonly conversationId: string;
  /** The thread whose path is active: the conversation's own id, or an alternative's. */
  readonly activePath: string;
  /** Every turn of the active path with more than one version, oldest first. */
  readonly branches: readonly AlternativeBranch[];
}

/**
 * The versions of one turn: what a "‹ 2 / 3 ›" control shows and switches between.
 *
 * @example
 * ```ts
 * const v: TurnVersions | undefined = alternatives.versionsOf(message.turnId);
 * if (v) label = `‹ ${v.index + 1} / ${v.count} ›`;
 * ```
 */
export interface TurnVersions {
  /** The turn asked about. */
  readonly turnId: string;
  /** The seq of the active path the versions branch at. */
  readonly atSeq: number;
  /** This turn's index in `versions` (0-based). */
  readonly index: number;
  /** How many versions the turn has (at least 2). */
  readonly count: number;
  /** The versions, oldest first: switch to one with its `threadId`. */
  readonly versions: readonly AlternativeVersion[];
}

const id = z.string().check(z.minLength(1));

/** The `zod/mini` schema of {@link ThreadAlternatives}: versions and `active` index agree. */
export const threadAlternativesMini: z.ZodMiniType<ThreadAlternatives> = z.object({
  conversationId: id,
  activePath: id,
  branches: z.array(
    z
      .object({
        atSeq: z.number().check(z.int(), z.nonnegative()),
        active: z.number().check(z.int(), z.nonnegative()),
        alternatives: z.array(
          z.object({
            threadId: id,
            turnId: z.optional(z.nullable(id)),
            createdAt: z.string(),
          }),
        ),
      })
      .check((ctx) => {
        if (ctx.value.active >= ctx.value.alternatives.length) {
          ctx.issues.push({
            code: 'custom',
            message: '`active` must index `alternatives`',
            input: ctx.value.active,
            path: ['active'],
          });
        }
      }),
  ),
});

/**
 * Validates what a server answered for a thread's alternatives (it crosses a trust boundary).
 *
 * @param value - the parsed JSON
 * @returns the alternatives
 * @throws {ChunklogError} `invalid-page` when it does not match {@link ThreadAlternatives}
 *
 * @example
 * ```ts
 * const alternatives = parseThreadAlternatives(await response.json());
 * ```
 */
export function parseThreadAlternatives(value: unknown): ThreadAlternatives {
  return parseWith(threadAlternativesMini, value, 'invalid-page', 'alternatives');
}

/**
 * Indexes a conversation's branch points by turn id: every version that names its turn. Pure.
 *
 * @param alternatives - what the server answered
 * @returns the versions of each turn that has more than one
 *
 * @example
 * ```ts
 * const byTurn = indexTurnVersions(alternatives);
 * const versions = byTurn.get('turn-7'); // { index: 1, count: 2, versions, … }
 * ```
 */
export function indexTurnVersions(
  alternatives: ThreadAlternatives,
): ReadonlyMap<string, TurnVersions> {
  const byTurn = new Map<string, TurnVersions>();
  for (const branch of alternatives.branches) {
    const versions = branch.alternatives;
    if (versions.length < 2) continue;
    versions.forEach((version, index) => {
      const turnId = version.turnId;
      if (typeof turnId !== 'string' || byTurn.has(turnId)) return;
      byTurn.set(turnId, { turnId, atSeq: branch.atSeq, index, count: versions.length, versions });
    });
  }
  return byTurn;
}
