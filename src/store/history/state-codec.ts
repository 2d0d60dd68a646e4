import { MESSAGE_FOLD_FORMAT, type MessageFoldState } from '../../transforms/message-fold.js';
import type { HistoryStateRecord } from '../tables.js';

// A history state is a thread's rows folded into messages at a seq (`MessageFold.state()`),
// stored as JSON text in parts. It is derived from the rows: a state that does not decode, or
// whose digest does not match, is never used (the rows are read instead).

/**
 * The most characters of JSON one part holds: at most 12 MB of UTF-8, which MySQL's default
 * 16 MB `max_allowed_packet` takes in one insert.
 */
export const STATE_PART_CHARS = 4_000_000;

type Hash = { update(text: string): Hash; digest(encoding: 'hex'): string };
type Crypto = { createHash(algorithm: string): Hash };

let crypto: Crypto | null | undefined;

/** Node's `crypto`, where there is one (history states are not used without it). */
function nodeCrypto(): Crypto | undefined {
  if (crypto === undefined) {
    const builtin = (
      globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }
    ).process?.getBuiltinModule?.('node:crypto') as Crypto | undefined;
    crypto = typeof builtin?.createHash === 'function' ? builtin : null;
  }
  return crypto ?? undefined;
}

/** Whether history states can be written and read here (Node's `crypto` is there). */
export function statesAvailable(): boolean {
  return nodeCrypto() !== undefined;
}

/**
 * The digest a state is stored with: SHA-256 over the thread, the seq and the whole JSON, so that
 * a state read back is used only when it is exactly what the store wrote for that thread and seq
 * (over the parts' tags when the parts are encrypted: each part's tag then vouches for it).
 */
function digestOf(
  c: Crypto,
  threadId: string,
  atSeq: number,
  parts: readonly string[],
  sealed: boolean,
): string {
  let hash = c
    .createHash('sha256')
    .update(`chunklog-history:${MESSAGE_FOLD_FORMAT}:${threadId}:${atSeq}:`);
  // An encrypted part is authenticated by its own tag, at its end: the digest of the tags tells
  // one state from another without hashing megabytes of base64 again.
  for (const part of parts) hash = hash.update(sealed ? part.slice(-SEALED_TAIL) : part);
  return hash.digest('hex');
}

/** The end of an encrypted part the digest covers: its last base64 characters, the tag in them. */
const SEALED_TAIL = 32;

/**
 * A state as the rows of the history states table, or undefined when it cannot be stored here
 * (no `crypto`, or it does not serialize).
 *
 * @param threadId - the thread
 * @param state - the fold of its rows up to `state.seq`
 * @param now - the time it is written, in milliseconds
 * @param seal - encrypts each part (`(part, text)`), when the store encrypts: the digest is then
 *   over the encrypted parts
 */
export function encodeState(
  threadId: string,
  state: MessageFoldState,
  now: number,
  seal?: (part: number, text: string) => string,
): HistoryStateRecord[] | undefined {
  const c = nodeCrypto();
  if (c === undefined) return undefined;
  let json: string;
  try {
    json = JSON.stringify(state);
  } catch {
    return undefined;
  }
  const parts: string[] = [];
  for (let at = 0; at < json.length; at += STATE_PART_CHARS) {
    const text = json.slice(at, at + STATE_PART_CHARS);
    parts.push(seal === undefined ? text : seal(parts.length, text));
  }
  const digest = digestOf(c, threadId, state.seq, parts, seal !== undefined);
  return parts.map((data, part) => ({
    thread_id: threadId,
    at_seq: state.seq,
    part,
    parts: parts.length,
    format: MESSAGE_FOLD_FORMAT,
    digest,
    data,
    created_at: now,
  }));
}

/** A stored part of a state, as read. */
export interface StoredStatePart {
  readonly part: unknown;
  readonly parts: unknown;
  readonly format: unknown;
  readonly digest: unknown;
  readonly data: unknown;
}

/**
 * The state a thread's stored parts at `atSeq` hold, or undefined when they do not make one: a
 * part missing, another format, a digest that does not match (or not `digest`, the one the read
 * chose), JSON that does not parse; with `open` (the store encrypts), a part that does not open.
 */
export function decodeState(
  threadId: string,
  atSeq: number,
  digest: string,
  records: readonly StoredStatePart[],
  open?: (part: number, stored: string) => string | undefined,
): MessageFoldState | undefined {
  const c = nodeCrypto();
  const first = records[0];
  if (c === undefined || first === undefined) return undefined;
  const count = Number(first.parts);
  if (records.length !== count) return undefined;
  const parts: string[] = [];
  for (let i = 0; i < records.length; i++) {
    const record = records[i] as StoredStatePart;
    if (
      Number(record.part) !== i ||
      Number(record.parts) !== count ||
      Number(record.format) !== MESSAGE_FOLD_FORMAT ||
      record.digest !== digest ||
      typeof record.data !== 'string'
    ) {
      return undefined;
    }
    parts.push(record.data);
  }
  if (digestOf(c, threadId, atSeq, parts, open !== undefined) !== digest) return undefined;
  const texts: string[] = [];
  for (let i = 0; i < parts.length; i++) {
    const text = open === undefined ? parts[i] : open(i, parts[i] as string);
    if (text === undefined) return undefined;
    texts.push(text);
  }
  let state: MessageFoldState;
  try {
    state = JSON.parse(texts.join('')) as MessageFoldState;
  } catch {
    return undefined;
  }
  return state?.format === MESSAGE_FOLD_FORMAT && state.seq === atSeq ? state : undefined;
}
