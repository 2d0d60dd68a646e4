import type { ChunkEvent } from '../schema/chunk-event.js';
import type { EventMeta, SessionListener } from './event-meta.js';

/**
 * Fans events out to any number of listeners. A listener that throws is reported and kept; it
 * never stops the others or the turn.
 */
export class EventHub {
  #listeners: readonly SessionListener[] = [];
  readonly #onListenerError: (error: unknown, meta: EventMeta) => void;

  /** @param onListenerError - told about every error a listener throws */
  constructor(onListenerError: (error: unknown, meta: EventMeta) => void) {
    this.#onListenerError = onListenerError;
  }

  /** How many listeners are subscribed. */
  get size(): number {
    return this.#listeners.length;
  }

  /**
   * Adds a listener.
   *
   * @returns the function that removes it (calling it twice is harmless)
   */
  subscribe(listener: SessionListener): () => void {
    // Wrap so that the same function subscribed twice gets two independent subscriptions.
    const entry: SessionListener = (event, meta) => listener(event, meta);
    this.#listeners = [...this.#listeners, entry];
    return () => {
      this.#listeners = this.#listeners.filter((l) => l !== entry);
    };
  }

  /** Calls every listener with the event. */
  publish(event: ChunkEvent, meta: EventMeta): void {
    // The array is replaced, never mutated, on (un)subscribe: iterating it is safe even when a
    // listener unsubscribes itself.
    for (const listener of this.#listeners) {
      try {
        listener(event, meta);
      } catch (error) {
        this.#onListenerError(error, meta);
      }
    }
  }
}
