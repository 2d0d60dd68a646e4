// Where a redactor applies: the strings of a chunk, a row's data and an event that hold what a
// user or a model wrote. Ids, signatures, provider metadata, tool names, kinds, media types and
// file data are left as they are (notes/0085).
import type { Chunk, ToolApproval, ToolCallEntry } from '../schema/chunk.js';
import type { ChunkRowDraft } from '../schema/chunk-row.js';
import type { JSONValue } from '../schema/json.js';
import type { RedactionCounts } from '../schema/redaction.js';
import type { Citation, Source } from '../schema/source.js';
import type { NoticeFields } from '../schema/system-message.js';
import { addCounts, countsAny, type Redactor, redactionNotice } from './redactor.js';

/** A redactor with the counts of what it replaced so far. */
export class CountingRedactor {
  readonly counts: Record<string, number> = {};
  readonly #redactor: Redactor;

  constructor(redactor: Redactor) {
    this.#redactor = redactor;
  }

  /** `text`, redacted (counted). */
  text(text: string): string {
    const out = this.#redactor.redact(text);
    addCounts(this.counts, out.counts);
    return out.text;
  }

  /** The optional string `text`, redacted. */
  optional(text: string | undefined): string | undefined {
    return text === undefined ? undefined : this.text(text);
  }

  /** Every string value (not key) of a JSON value, redacted; the same value when none changed. */
  json(value: JSONValue): JSONValue {
    if (typeof value === 'string') return this.text(value);
    if (value === null || typeof value !== 'object') return value;
    if (Array.isArray(value)) {
      let changed = false;
      const out = value.map((item) => {
        const next = this.json(item);
        if (next !== item) changed = true;
        return next;
      });
      return changed ? out : value;
    }
    let changed = false;
    const out: Record<string, JSONValue> = {};
    for (const key of Object.keys(value)) {
      const item = value[key] as JSONValue;
      const next = this.json(item);
      if (next !== item) changed = true;
      out[key] = next;
    }
    return changed ? out : value;
  }

  /** The optional JSON value, redacted. */
  optionalJson(value: JSONValue | undefined): JSONValue | undefined {
    return value === undefined ? undefined : this.json(value);
  }

  /** A source's url and title (its id and provider metadata stay). */
  source(source: Source): Source {
    return source.sourceType === 'url'
      ? with_(source, { url: this.text(source.url), title: this.optional(source.title) })
      : with_(source, { title: this.text(source.title) });
  }

  /** A citation's passage and source. */
  citation(citation: Citation): Citation {
    return with_(citation, {
      source: this.source(citation.source),
      citedText: this.optional(citation.citedText),
    });
  }

  /** An approval's reason (its id and signature stay). */
  approval(approval: ToolApproval | undefined): ToolApproval | undefined {
    return approval === undefined
      ? undefined
      : with_(approval, { reason: this.optional(approval.reason) });
  }

  /** The counts so far, forgotten from here on. */
  take(): RedactionCounts {
    const taken = { ...this.counts };
    for (const kind of Object.keys(this.counts)) delete this.counts[kind];
    return taken;
  }

  /** Whether it replaced anything so far. */
  get any(): boolean {
    return countsAny(this.counts);
  }
}

/** `base` with `changes`, leaving out changes to undefined of fields `base` does not have. */
function with_<T extends object>(base: T, changes: Partial<T>): T {
  const out: Record<string, unknown> = { ...(base as Record<string, unknown>) };
  for (const [key, value] of Object.entries(changes)) {
    if (value !== undefined || key in base) out[key] = value;
  }
  return out as T;
}

/**
 * A notice (a system event, chunk or row data) with its texts redacted: its own and those of the
 * steering its cancel dropped. A `redacted` notice says only counts: redacting it again would
 * count nothing, so it is returned as it is.
 *
 * @param notice - anything with a notice's fields
 * @param r - the redactor, counting what it replaces
 * @returns the notice, redacted
 */
export function redactNotice<T extends NoticeFields>(notice: T, r: CountingRedactor): T {
  if (notice.kind === 'redacted') return notice;
  return with_(notice, {
    text: r.text(notice.text),
    dropped: notice.dropped?.map((d) => ({ ...d, text: r.text(d.text) })),
  } as Partial<T>);
}

type CallFields = Pick<ToolCallEntry, 'input' | 'inputText' | 'title' | 'approval'>;
type OutcomeFields = Pick<ToolCallEntry, 'result' | 'preliminary' | 'progress'>;

function callFields<T extends CallFields>(c: T, r: CountingRedactor): T {
  return with_(c, {
    input: r.optionalJson(c.input),
    inputText: r.optional(c.inputText),
    title: r.optional(c.title),
    approval: r.approval(c.approval),
  } as Partial<T>);
}

function outcomeFields<T extends OutcomeFields>(c: T, r: CountingRedactor): T {
  return with_(c, {
    result: r.optionalJson(c.result),
    preliminary: r.optionalJson(c.preliminary),
    progress: r.optional(c.progress),
  } as Partial<T>);
}

/** The data of a row (or the fields of a chunk of the same type), redacted. */
function redactFields<T extends { readonly type: string; readonly data: unknown }>(
  row: T,
  r: CountingRedactor,
): T['data'] {
  const draft = row as unknown as ChunkRowDraft;
  switch (draft.type) {
    case 'text': {
      const d = draft.data;
      return with_(d, {
        text: r.text(d.text),
        citations: d.citations?.map((c) => r.citation(c)),
      });
    }
    case 'thinking':
      // The text only: its signature (provider metadata) stays as the provider sent it.
      return with_(draft.data, { text: r.text(draft.data.text) });
    case 'tool_call':
      return callFields(draft.data, r);
    case 'tool_result':
      return outcomeFields(draft.data, r);
    case 'error':
      return with_(draft.data, { message: r.text(draft.data.message) });
    case 'system':
      return redactNotice(draft.data, r);
    case 'steering':
      return with_(draft.data, { text: r.text(draft.data.text) });
    case 'source':
      return with_(draft.data, { source: r.source(draft.data.source) });
    case 'file':
      // The content is not read (base64 of any media type); its name is.
      return with_(draft.data, { filename: r.optional(draft.data.filename) });
    case 'custom':
      return draft.data;
    case 'data':
      return with_(draft.data, { data: r.json(draft.data.data) });
    default: {
      const never: never = draft;
      return (never as ChunkRowDraft).data;
    }
  }
}

/**
 * A chunk with every string that holds what a user or a model wrote redacted, and the counts.
 * Ids, signatures and provider metadata stay as they are.
 *
 * @param chunk - the chunk
 * @param redactor - the redactor (for example {@link redactSecrets})
 * @returns the chunk (the same object when nothing was replaced) and what was replaced
 *
 * @example
 * ```ts
 * const { chunk, counts } = redactChunk({ type: 'text', step: 0, text: 'ada@example.com' }, redactSecrets);
 * // chunk.text === '[redacted:email]', counts.email === 1
 * ```
 */
export function redactChunk(
  chunk: Chunk,
  redactor: Redactor,
): { readonly chunk: Chunk; readonly counts: RedactionCounts } {
  const r = new CountingRedactor(redactor);
  const out = redactChunkWith(chunk, r);
  return { chunk: r.any ? out : chunk, counts: r.counts };
}

function redactChunkWith(chunk: Chunk, r: CountingRedactor): Chunk {
  if (chunk.type === 'tool-batch') {
    return { ...chunk, calls: chunk.calls.map((c) => outcomeFields(callFields(c, r), r)) };
  }
  // Every other chunk type is a row type of the same name, whose data is the chunk's fields.
  const { type, step, ...data } = chunk;
  return { type, step, ...redactFields({ type, data }, r) } as Chunk;
}

/**
 * Row drafts with {@link redactChunk}'s fields redacted, followed, when anything was replaced,
 * by a `redacted` system row recording the counts (in the last draft's turn, step and message).
 * What the store's `redact` option does to every write.
 *
 * @param drafts - one turn's drafts, valid (checked against their schema)
 * @param redactor - the redactor
 * @returns the drafts to store (the same array when nothing was replaced)
 * @example
 * ```ts
 * // assumes: store, threadId, drafts
 * await store.appendTurn(threadId, redactDrafts(drafts, redactSecrets));
 * ```
 */
export function redactDrafts(
  drafts: readonly ChunkRowDraft[],
  redactor: Redactor,
): readonly ChunkRowDraft[] {
  const r = new CountingRedactor(redactor);
  const out = drafts.map((draft) => ({ ...draft, data: redactFields(draft, r) }) as ChunkRowDraft);
  const last = out[out.length - 1];
  if (!r.any || last === undefined) return drafts;
  const { type, ...notice } = redactionNotice(r.counts);
  void type;
  out.push({
    turnId: last.turnId,
    step: last.step,
    role: last.role === 'tool' ? 'assistant' : last.role,
    type: 'system',
    data: notice,
  });
  return out;
}
