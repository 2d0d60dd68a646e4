import { describe, expect, it } from 'vitest';

import { ChunklogError } from '../../src/errors/index.js';
import { type ChunkEvent, ChunkPageSchema, type ChunkRow } from '../../src/schema/index.js';
import {
  type ChunkPage,
  ChunkWindow,
  type ChunkWindowOptions,
  parseChunkPage,
} from '../../src/window/index.js';

const loadPage = (): ChunkPage => ({ chunks: [], total: 0, oldestSeq: null, hasMore: false });

function optionError(options: unknown): ChunklogError {
  try {
    new ChunkWindow(options as ChunkWindowOptions);
  } catch (error) {
    if (ChunklogError.isInstance(error)) return error;
    throw error;
  }
  throw new Error('expected the constructor to throw');
}

describe('options and validation', () => {
  it.each([
    [{ limit: 0, loadPage }, 'limit'],
    [{ limit: 1.5, loadPage }, 'limit'],
    [{ limit: Number.POSITIVE_INFINITY, loadPage }, 'limit'],
    [{ limit: '10', loadPage }, 'limit'],
    [{ loadPage }, 'limit'],
    [{ limit: 10, pageSize: 0, loadPage }, 'pageSize'],
    [{ limit: 10, pageSize: -3, loadPage }, 'pageSize'],
    [{ limit: 10 }, 'loadPage'],
    [{ limit: 10, loadPage: 'GET /chunks' }, 'loadPage'],
    [null, 'options'],
  ])('rejects %o naming %s', (options, option) => {
    const error = optionError(options);
    expect(error.code).toBe('invalid-option');
    expect(error.option).toBe(option);
    expect(error.message).toContain(option);
  });

  it('uses a page size of 50 by default', async () => {
    const requests: unknown[] = [];
    const window = new ChunkWindow({
      limit: 10,
      loadPage: (r) => {
        requests.push(r);
        return loadPage();
      },
    });
    await window.loadOlder();
    expect(requests).toEqual([{ limit: 50 }]);
  });

  it('rejects an invalid event with invalid-event and changes nothing', () => {
    const window = new ChunkWindow({ limit: 10, loadPage });
    window.apply({ type: 'turn-start', turnId: 't' });
    const snapshot = window.getSnapshot();
    let notified = 0;
    window.subscribe(() => notified++);
    for (const bad of [
      { type: 'text-delta' },
      { type: 'no-such-event' },
      { type: 'turn-start', turnId: 7 },
      null,
    ]) {
      expect(() => window.apply(bad as unknown as ChunkEvent)).toThrow(
        expect.objectContaining({ code: 'invalid-event' }),
      );
    }
    expect(window.getSnapshot()).toBe(snapshot);
    expect(notified).toBe(0);
  });

  it('validates the chunks and turn id of a pending user message', () => {
    const window = new ChunkWindow({ limit: 10, loadPage });
    expect(() =>
      window.addPendingUserMessage([{ type: 'text', step: 0 } as unknown as never]),
    ).toThrow(expect.objectContaining({ code: 'invalid-chunk' }));
    expect(() => window.addPendingUserMessage('hi', { turnId: '' })).toThrow(
      expect.objectContaining({ code: 'invalid-option', option: 'turnId' }),
    );
    expect(window.log).toEqual([]);
  });

  it('the page schema checks order, thread and oldestSeq', () => {
    const row = (seq: number, threadId = 'a'): ChunkRow => ({
      threadId,
      seq,
      turnId: 't',
      step: 0,
      role: 'assistant',
      type: 'text',
      data: { text: `${seq}` },
    });
    const page = (chunks: ChunkRow[], oldestSeq: number | null) => ({
      chunks,
      total: 9,
      oldestSeq,
      hasMore: false,
    });
    expect(ChunkPageSchema.safeParse(page([row(1), row(2)], 1)).success).toBe(true);
    expect(ChunkPageSchema.safeParse(page([], null)).success).toBe(true);
    expect(ChunkPageSchema.safeParse(page([row(2), row(1)], 2)).success).toBe(false);
    expect(ChunkPageSchema.safeParse(page([row(1), row(1)], 1)).success).toBe(false);
    expect(ChunkPageSchema.safeParse(page([row(1), row(2, 'b')], 1)).success).toBe(false);
    expect(ChunkPageSchema.safeParse(page([row(1)], 2)).success).toBe(false);
    expect(() => parseChunkPage(page([row(2), row(1)], 2))).toThrow(
      expect.objectContaining({ code: 'invalid-page', path: ['chunks', 1, 'seq'] }),
    );
  });
});
