import * as z from 'zod/mini';
import type { SafeResult } from '../errors/chunklog-error.js';
import { safeParseWith } from '../schema/parse.js';

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
 * One version of a conversation, on the active path or not: its own thread or one of its
 * alternatives, as `GET …/threads/:id/alternatives` lists it in `versions`.
 *
 * @example
 * ```ts
 * const version: ConversationVersion = {
 *   threadId: 'chat-1~b',
 *   createdAt: '2026-12-05T09:00:00.000Z',
 *   forkOf: { threadId: 'chat-1', atSeq: 12 },
 *   turnId: 'turn-7',
 *   total: 31,
 * };
 * ```
 */
export interface ConversationVersion {
  /** The thread whose path this version is: what `switchAlternative` takes. */
  readonly threadId: string;
  /** When its thread was made (ISO 8601). */
  readonly createdAt: string;
  /**
   * Where it branches: its path holds the path of `threadId` (another version, or the thread the
   * conversation was forked from) up to seq `atSeq`, then its own rows. Absent (or null) for a
   * conversation that is no fork.
   */
  readonly forkOf?: { readonly threadId: string; readonly atSeq: number } | null | undefined;
  /**
   * The turn its own rows start with (row `forkOf.atSeq + 1`, or row 1): for an alternative, its
   * version of the turn it replaces. Absent (or null) while it has no row of its own, or when that
   * row is gone.
   */
  readonly turnId?: string | null | undefined;
  /** The seq of the newest row of its path (its `total`). */
  readonly total: number;
}

/**
 * A conversation's active path, its branch points and every version: the answer of
 * `GET …/threads/:id/alternatives` and of `POST …/threads/:id/alternatives` (a switch).
 *
 * @example
 * ```ts
 * const alternatives = parseThreadAlternatives(await (await fetch('/api/threads/chat-1/alternatives')).json());
 * const picker = alternatives.versions.map((v) => ({ id: v.threadId, made: v.createdAt }));
 * ```
 */
export interface ThreadAlternatives {
  /** The conversation (the thread id the client uses). */
  readonly conversationId: string;
  /** The thread whose path is active: the conversation's own id, or an alternative's. */
  readonly activePath: string;
  /** Every turn of the active path with more than one version, oldest first. */
  readonly branches: readonly AlternativeBranch[];
  /**
   * Every version of the conversation, for a picker of all versions: its own thread first, then
   * each alternative in the order they were made, whether the active path reaches its branch
   * point or not (`branches` lists only the versions of the active path's turns; a version made
   * off another version, or branching beyond the end of the active path, is listed here alone).
   * Each can be switched to by its `threadId`.
   *
   * Empty when the answer had none: a server of a chunklog before this field (during a rolling
   * deploy) sends `branches` only. No list is made up from them: it would miss the very versions
   * this one is for while looking complete, and could not give their `forkOf` or `total`. A
   * server that sends the field lists at least the conversation's own thread, so an empty list
   * means "not told".
   */
  readonly versions: readonly ConversationVersion[];
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
const nat = z.number().check(z.int(), z.nonnegative());

/** A custom issue at `path`, as zod words one. */
function issue(message: string, input: unknown, path: (string | number)[]) {
  return { code: 'custom', message, input, path } as const;
}

const versionMini = z.object({
  threadId: id,
  createdAt: z.string(),
  forkOf: z.optional(z.nullable(z.object({ threadId: id, atSeq: nat }))),
  turnId: z.optional(z.nullable(id)),
  total: nat,
});

/** {@link ThreadAlternatives} as a server may send it: `versions` is absent from an older one's. */
type WireAlternatives = Omit<ThreadAlternatives, 'versions'> & {
  readonly versions?: ThreadAlternatives['versions'] | undefined;
};

/**
 * The `zod/mini` schema of what a server answers for {@link ThreadAlternatives}: versions and
 * `active` index agree; `versions`, when given, starts with the conversation's own thread, lists
 * each thread once and the active path among them.
 */
const wireAlternativesMini: z.ZodMiniType<WireAlternatives> = z
  .object({
    conversationId: id,
    activePath: id,
    branches: z.array(
      z
        .object({
          atSeq: nat,
          active: nat,
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
            ctx.issues.push(
              issue('`active` must index `alternatives`', ctx.value.active, ['active']),
            );
          }
        }),
    ),
    // Absent from the answer of a server before it (a rolling deploy): see the type.
    versions: z.optional(z.array(versionMini)),
  })
  .check((ctx) => {
    const { conversationId, activePath, versions } = ctx.value;
    if (versions === undefined || versions.length === 0) return;
    const seen = new Set<string>();
    for (const [i, { threadId }] of versions.entries()) {
      const problem =
        i === 0 && threadId !== conversationId
          ? "must start with the conversation's own thread"
          : seen.has(threadId)
            ? 'must list each thread once'
            : undefined;
      if (problem !== undefined) {
        ctx.issues.push(issue(`\`versions\` ${problem}`, threadId, ['versions', i, 'threadId']));
        return;
      }
      seen.add(threadId);
    }
    if (!seen.has(activePath)) {
      ctx.issues.push(issue('`versions` must list the active path', activePath, ['activePath']));
    }
  });

/**
 * Validates what a server answered for a thread's alternatives, without throwing; `versions`
 * absent (an older server) gives `[]`.
 *
 * @param value - the parsed JSON
 * @returns the alternatives, or the `invalid-page` error
 */
export function safeParseThreadAlternatives(value: unknown): SafeResult<ThreadAlternatives> {
  const parsed = safeParseWith(wireAlternativesMini, value, 'invalid-page', 'alternatives');
  if (!parsed.success) return parsed;
  const { versions = [] } = parsed.value;
  return { success: true, value: { ...parsed.value, versions } };
}

/**
 * Validates what a server answered for a thread's alternatives (it crosses a trust boundary).
 * An answer without `versions` (a server of a chunklog before it, during a rolling deploy) is
 * taken, with `versions: []`.
 *
 * @param value - the parsed JSON
 * @returns the alternatives
 * @throws {ChunklogError} `invalid-page` when it does not match {@link ThreadAlternatives},
 *   naming the first offending field (`versions[1].total`)
 *
 * @example
 * ```ts
 * const alternatives = parseThreadAlternatives(await response.json());
 * ```
 */
export function parseThreadAlternatives(value: unknown): ThreadAlternatives {
  const parsed = safeParseThreadAlternatives(value);
  if (!parsed.success) throw parsed.error;
  return parsed.value;
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
