// The redaction hook's contract, and what the store and the session share to apply it: counts by
// kind, and the `redacted` system notice that records them (notes/0085).
import { invalidOption } from '../errors/invalid-option.js';
import type { SystemEvent } from '../schema/chunk-event.js';
import type { RedactionCounts } from '../schema/redaction.js';

/** What a {@link Redactor} made of one string. */
export interface RedactedText {
  /** The string with every secret replaced (the same string when there was none). */
  readonly text: string;
  /** How many secrets of each kind it replaced; empty when none. */
  readonly counts: RedactionCounts;
}

/**
 * The redaction hook: a function of one string, applied to every string of a chunk that holds
 * what a user or a model wrote (text, reasoning text, tool inputs and results, progress, errors,
 * notices, steering), never to ids, signatures, provider metadata, tool names or file data. It
 * must be idempotent (its replacements contain no secret it would replace again): the session
 * and the store may both apply it.
 *
 * @example
 * ```ts
 * const noTickets: Redactor = {
 *   redact: (text) => {
 *     let n = 0;
 *     const out = text.replace(/\bTICKET-\d{6}\b/g, () => (n++, '[redacted:ticket]'));
 *     return { text: out, counts: n === 0 ? {} : { ticket: n } };
 *   },
 * };
 * ```
 */
export interface Redactor {
  /** Replaces the secrets in `text`, counting them by kind. */
  readonly redact: (text: string) => RedactedText;
  /**
   * Where the end of a growing text (a block still streaming) that a secret may still grow from
   * begins: live deltas are held back from there until more text or the block's end. Default:
   * {@link pendingTail}, right for patterns that hold no whitespace but the `Bearer` prefix and
   * card-number groups.
   */
  readonly pending?: ((text: string) => number) | undefined;
}

// A tail a secret may still grow from: from a word start, any words that end in a digit and one
// space or dash (card-number groups) or in `bearer` and whitespace, then the last word and the
// spaces after it (a line break ends it: no pattern spans one but the `Bearer` prefix). The
// leftmost start that reaches the end is the longest such tail.
const TAIL = /(?<!\S)(?:\S*\d[ -]|\S*bearer\s+)*\S*[^\S\n]*$/i;

/**
 * The default {@link Redactor.pending}: the index of the last word of `text`, moved back over
 * the card-number digit groups and the `Bearer` prefix that may lead up to it (and 0 for a text
 * of one word); the end of a text that ends a line (nothing held), unless it ends in `Bearer`.
 * A pattern that matches no whitespace otherwise cannot straddle it.
 *
 * @param text - the text streamed so far that was not sent out yet
 * @returns the index from which `text` is held back
 *
 * @example
 * ```ts
 * pendingTail('send it to Bearer ab'); // 11: "Bearer ab" may be the start of a token
 * ```
 */
export function pendingTail(text: string): number {
  return TAIL.exec(text)?.index ?? text.length;
}

/** Adds `more` into `into` (both by kind). */
export function addCounts(into: Record<string, number>, more: RedactionCounts): void {
  for (const kind in more) into[kind] = (into[kind] ?? 0) + (more[kind] as number);
}

/** Whether `counts` counts anything. */
export function countsAny(counts: RedactionCounts): boolean {
  for (const kind in counts) if ((counts[kind] as number) > 0) return true;
  return false;
}

/**
 * The `redacted` system event that records a redaction: its counts, and a text that says them
 * (`Redacted 2 secrets: 1 api-key, 1 email.`), never the secrets.
 *
 * @param counts - what was redacted, by kind (not empty)
 * @returns the system event
 *
 * @example
 * ```ts
 * redactionNotice({ email: 2 }); // { type: 'system', kind: 'redacted', text: 'Redacted 2 secrets: 2 email.', … }
 * ```
 */
export function redactionNotice(counts: RedactionCounts): SystemEvent & { kind: 'redacted' } {
  const kinds = Object.keys(counts)
    .filter((kind) => (counts[kind] as number) > 0)
    .sort();
  const sorted: Record<string, number> = {};
  let total = 0;
  for (const kind of kinds) {
    sorted[kind] = counts[kind] as number;
    total += counts[kind] as number;
  }
  const list = kinds.map((kind) => `${sorted[kind]} ${kind}`).join(', ');
  return {
    type: 'system',
    kind: 'redacted',
    text: `Redacted ${total} ${total === 1 ? 'secret' : 'secrets'}: ${list}.`,
    redaction: { counts: sorted },
  };
}

/**
 * Checks a `redact` option (of `createAgentSession` and `createChunkStore`): a {@link Redactor},
 * or undefined for none.
 *
 * @param where - the public function, for the error
 * @param value - the untrusted option
 * @returns the redactor, or undefined
 * @throws {ChunklogError} `invalid-option` (option `redact`)
 */
export function checkRedactor(where: string, value: unknown): Redactor | undefined {
  if (value === undefined) return undefined;
  const r = value as Partial<Redactor> | null;
  if (
    typeof r !== 'object' ||
    r === null ||
    typeof r.redact !== 'function' ||
    (r.pending !== undefined && typeof r.pending !== 'function')
  ) {
    invalidOption(
      where,
      'redact',
      '`redact` must be a Redactor: `{ redact(text) → { text, counts }, pending?(text) → index }`, such as `redactSecrets`',
      value,
    );
  }
  return r as Redactor;
}
