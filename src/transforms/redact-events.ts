// Redaction of a turn's live events, before they are folded, published or stored (notes/0085).
// Deltas of a block still streaming are held back from where a secret may still be growing
// (`Redactor.pending`) and sent, redacted, once more text shows where it ends, or at the block's
// end: a secret split across deltas is never sent in pieces.
import type { ChunkEvent } from '../schema/chunk-event.js';
import type { ProviderMetadata } from '../schema/json.js';
import { pendingJsonText, redactJsonText } from './json-text.js';
import { CountingRedactor, redactNotice } from './redact-fields.js';
import { countsAny, pendingTail, type Redactor, redactionNotice } from './redactor.js';

type HeldKind = 'text' | 'reasoning' | 'input' | 'progress';

/** The delta event that carries `text` for a held stream. */
function deltaOf(kind: HeldKind, id: string | undefined, text: string): ChunkEvent {
  switch (kind) {
    case 'text':
      return { type: 'text-delta', ...(id === undefined ? {} : { id }), text };
    case 'reasoning':
      return { type: 'reasoning-delta', ...(id === undefined ? {} : { id }), text };
    case 'input':
      return { type: 'tool-input-delta', toolCallId: id as string, delta: text };
    case 'progress':
      return { type: 'tool-progress', toolCallId: id as string, text };
  }
}

interface Held {
  readonly kind: HeldKind;
  readonly id: string | undefined;
  text: string;
}

/**
 * The redaction of one turn's events: {@link LiveRedaction.apply} turns each event into the
 * events to send in its place (none while a delta is held back, several when a block's end
 * releases what was held), and adds a `redacted` system event before each `step-finish` and
 * before `turn-end` when something was replaced since the last one.
 *
 * @example
 * ```ts
 * const redaction = new LiveRedaction(redactSecrets);
 * for (const event of events) for (const out of redaction.apply(event)) publish(out);
 * ```
 */
export class LiveRedaction {
  readonly #r: CountingRedactor;
  readonly #redactor: Redactor;
  readonly #pending: (text: string) => number;
  readonly #held = new Map<string, Held>();

  /**
   * @param redactor - what to replace in every text (for example `redactSecrets`)
   * @example
   * ```ts
   * const redaction = new LiveRedaction(redactSecrets);
   * ```
   */
  constructor(redactor: Redactor) {
    this.#r = new CountingRedactor(redactor);
    this.#redactor = redactor;
    this.#pending = redactor.pending ?? pendingTail;
  }

  /**
   * A whole text (the user's message), redacted; its counts go into the next notice.
   *
   * @param text - the text
   * @returns the text with every secret replaced
   * @example
   * ```ts
   * redaction.text('mail me at ada@example.com'); // 'mail me at [redacted:email]'
   * ```
   */
  text(text: string): string {
    return this.#r.text(text);
  }

  /**
   * The events to send for `event`, redacted.
   *
   * @param event - the next event of the turn
   * @returns the events to send in its place, in order (none while a delta is held back)
   * @example
   * ```ts
   * for (const out of redaction.apply({ type: 'text-delta', id: 't', delta: 'key sk-' })) publish(out);
   * ```
   */
  apply(event: ChunkEvent): ChunkEvent[] {
    const r = this.#r;
    switch (event.type) {
      case 'text-delta':
        return this.#grow('text', event.id, event.text, event.providerMetadata);
      case 'reasoning-delta':
        return this.#grow('reasoning', event.id, event.text, event.providerMetadata);
      case 'tool-input-delta':
        return this.#grow('input', event.toolCallId, event.delta, undefined);
      case 'text-end':
        return [
          ...this.#release('text', event.id),
          event.citations === undefined
            ? event
            : { ...event, citations: event.citations.map((c) => r.citation(c)) },
        ];
      case 'reasoning-end':
        return [...this.#release('reasoning', event.id), event];
      case 'tool-call':
        return [
          ...this.#release('input', event.toolCallId),
          {
            ...event,
            input: r.json(event.input),
            ...(event.title === undefined ? {} : { title: r.text(event.title) }),
          },
        ];
      case 'tool-progress': {
        const out =
          event.text === undefined
            ? []
            : this.#grow('progress', event.toolCallId, event.text, undefined);
        if (event.output === undefined) return out;
        // Preliminary output goes out after the progress text released with it.
        const { text: _text, ...rest } = event;
        return [...out, { ...rest, output: r.json(event.output) }];
      }
      case 'tool-result':
        return [
          ...this.#release('progress', event.toolCallId),
          { ...event, output: r.json(event.output) },
        ];
      case 'tool-input-start':
        return [event.title === undefined ? event : { ...event, title: r.text(event.title) }];
      case 'tool-approval-request':
      case 'tool-approval-response':
        return [event.reason === undefined ? event : { ...event, reason: r.text(event.reason) }];
      case 'source':
        return [{ ...event, source: r.source(event.source) }];
      case 'file':
        return [
          event.filename === undefined ? event : { ...event, filename: r.text(event.filename) },
        ];
      case 'steering-message':
        return [{ ...event, text: r.text(event.text) }];
      case 'error':
        return [{ ...event, message: r.text(event.message) }];
      case 'system':
        return [redactNotice(event, r)];
      case 'step-finish':
      case 'turn-end':
        return [...this.#releaseAll(), ...this.#notice(), event];
      case 'turn-start':
      case 'step-start':
      case 'text-start':
      case 'reasoning-start':
      case 'custom':
        return [event];
      default: {
        const never: never = event;
        return [never];
      }
    }
  }

  /** A delta: what is stable now goes out redacted, the rest waits. */
  #grow(
    kind: HeldKind,
    id: string | undefined,
    delta: string,
    providerMetadata: ProviderMetadata | undefined,
  ): ChunkEvent[] {
    const key = `${kind}:${id ?? ''}`;
    const held = this.#held.get(key);
    const text = (held?.text ?? '') + delta;
    const cut = kind === 'input' ? pendingJsonText(text, this.#pending) : this.#pending(text);
    const stable = text.slice(0, cut);
    const rest = text.slice(cut);
    if (rest === '') this.#held.delete(key);
    else if (held === undefined) this.#held.set(key, { kind, id, text: rest });
    else held.text = rest;
    const out = stable === '' ? '' : this.#redact(kind, stable);
    if (out === '' && providerMetadata === undefined) return [];
    const event = deltaOf(kind, id, out);
    return [
      providerMetadata === undefined ? event : ({ ...event, providerMetadata } as ChunkEvent),
    ];
  }

  /** What a stream held back, redacted, at its end. */
  #release(kind: HeldKind, id: string | undefined): ChunkEvent[] {
    const key = `${kind}:${id ?? ''}`;
    const held = this.#held.get(key);
    if (held === undefined) return [];
    this.#held.delete(key);
    return [deltaOf(kind, id, this.#redact(kind, held.text))];
  }

  // A tool's streamed input is raw JSON text, and a draft of its `tool-call` input, which
  // replaces it in the turn: the secrets are counted there, once.
  #redact(kind: HeldKind, text: string): string {
    return kind === 'input' ? redactJsonText(text, this.#redactor) : this.#r.text(text);
  }

  #releaseAll(): ChunkEvent[] {
    const out: ChunkEvent[] = [];
    for (const held of [...this.#held.values()]) out.push(...this.#release(held.kind, held.id));
    return out;
  }

  /** The `redacted` notice of what was replaced since the last one, if anything was. */
  #notice(): ChunkEvent[] {
    if (!countsAny(this.#r.counts)) return [];
    return [redactionNotice(this.#r.take())];
  }
}
