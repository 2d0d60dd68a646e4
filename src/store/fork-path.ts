import { ChunklogError } from '../errors/chunklog-error.js';
import { previewValue } from '../schema/parse.js';
import { asString } from './codec.js';
import type { SelectedThread } from './threads.js';

/**
 * A stretch of a fork's path that lies in another thread: that thread's rows with
 * `after < seq <= upTo`, read by its own thread id (the rows keep their `thread_id` column).
 */
export interface PathSegment {
  readonly threadId: string;
  readonly after: number;
  readonly upTo: number;
}

/**
 * Where a thread's path comes from. A plain thread has no parent and its rows are its own. A fork
 * reads `ancestors` (newest first: descending seqs, dense, ending at seq 1) for seqs up to
 * `forkSeq`, then its own rows.
 */
export interface ThreadOrigin {
  /** The thread it was forked from, or undefined for a plain thread. */
  readonly parentId: string | undefined;
  /** Its own rows have seqs above this (0 for a plain thread). */
  readonly forkSeq: number;
  /** The stretches of other threads its path reads, newest first. Empty for a plain thread. */
  readonly ancestors: readonly PathSegment[];
}

/** The origin of a plain thread. */
export const PLAIN_ORIGIN: ThreadOrigin = { parentId: undefined, forkSeq: 0, ancestors: [] };

function corruptOrigin(threadId: string, what: string, value: unknown): ChunklogError {
  return new ChunklogError(
    'corrupt-row',
    `The row of thread ${JSON.stringify(threadId)} is corrupt: its fork_path ${previewValue(value)} is not ${what}.`,
    { threadId },
  );
}

/**
 * The origin a thread row records (migration 0006), its path checked: contiguous stretches,
 * newest first, the first ending at the fork seq and the last starting at 0.
 *
 * @throws {ChunklogError} `corrupt-row` naming the thread
 */
export function threadOrigin(
  record: Pick<SelectedThread, 'id' | 'parent_id' | 'fork_seq' | 'fork_path'>,
): ThreadOrigin {
  if (record.parent_id === null || record.parent_id === undefined) return PLAIN_ORIGIN;
  const threadId = asString(record.id);
  const forkSeq = Number(record.fork_seq);
  if (!Number.isSafeInteger(forkSeq) || forkSeq < 0) {
    throw corruptOrigin(threadId, 'a fork seq', record.fork_seq);
  }
  const raw = record.fork_path === null ? '[]' : asString(record.fork_path);
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw corruptOrigin(threadId, 'JSON', raw);
  }
  const what = `a list of [thread id, after, up to] stretches ending at seq ${forkSeq}`;
  if (!Array.isArray(parsed)) throw corruptOrigin(threadId, what, raw);
  const ancestors: PathSegment[] = [];
  let expectedTop = forkSeq;
  for (const entry of parsed) {
    if (
      !Array.isArray(entry) ||
      entry.length !== 3 ||
      typeof entry[0] !== 'string' ||
      !Number.isSafeInteger(entry[1]) ||
      entry[2] !== expectedTop ||
      entry[1] < 0 ||
      entry[1] >= entry[2]
    ) {
      throw corruptOrigin(threadId, what, raw);
    }
    ancestors.push({ threadId: entry[0], after: entry[1], upTo: entry[2] });
    expectedTop = entry[1];
  }
  if (expectedTop !== 0) throw corruptOrigin(threadId, what, raw);
  return { parentId: asString(record.parent_id), forkSeq, ancestors };
}

/** The stretches of `path` at or below `seq`, the top one cut at `seq`. */
export function pathUpTo(path: readonly PathSegment[], seq: number): PathSegment[] {
  const kept: PathSegment[] = [];
  for (const segment of path) {
    if (segment.after >= seq) continue;
    kept.push(segment.upTo > seq ? { ...segment, upTo: seq } : segment);
  }
  return kept;
}

/**
 * The path of a fork of `sourceId` at `atSeq`: the source's own rows up to `atSeq`, then what
 * the source reads of other threads up to there. O(depth of the chain), never of its rows.
 */
export function forkPathOf(sourceId: string, source: ThreadOrigin, atSeq: number): PathSegment[] {
  const own: PathSegment[] =
    atSeq > source.forkSeq ? [{ threadId: sourceId, after: source.forkSeq, upTo: atSeq }] : [];
  return [...own, ...pathUpTo(source.ancestors, atSeq)];
}

/** A path as stored in `fork_path`. */
export function encodeForkPath(path: readonly PathSegment[]): string {
  return JSON.stringify(path.map((s) => [s.threadId, s.after, s.upTo]));
}

/** The stretch of `path` that holds `seq`, or undefined (a seq of the thread's own rows). */
export function segmentOf(path: readonly PathSegment[], seq: number): PathSegment | undefined {
  return path.find((s) => s.after < seq && seq <= s.upTo);
}
