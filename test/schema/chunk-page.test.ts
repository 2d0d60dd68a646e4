// parseChunkPage, the window's check of a page from the network: rows in strictly ascending seq,
// all of one thread; the first offending row is named by its path.
import { describe, expect, it } from 'vitest';
import { type ChunkRow, parseChunkPage } from '../../src/schema/index.js';
import { rejected } from '../support/chunklog-error.js';

const row = (seq: number, threadId = 't'): ChunkRow => ({
  threadId,
  seq,
  turnId: 'turn',
  step: 0,
  role: 'user',
  type: 'text',
  data: { text: `row ${seq}` },
  createdAt: '2026-01-01T00:00:00.000Z',
});
const page = (chunks: ChunkRow[]) => ({
  chunks,
  total: 9,
  oldestSeq: chunks[0]?.seq ?? null,
  hasMore: true,
});

describe('parseChunkPage', () => {
  it('accepts rows in ascending seq of one thread', () => {
    const good = page([row(3), row(4), row(7)]);
    expect(parseChunkPage(good)).toStrictEqual(good);
  });

  it.each([
    ['a seq out of order', [row(3), row(5), row(4)], 'chunks[2].seq', 'strictly ascending seq'],
    ['a repeated seq', [row(3), row(3)], 'chunks[1].seq', 'strictly ascending seq'],
    ['a row of another thread', [row(3), row(4, 'u')], 'chunks[1].threadId', 'one thread'],
  ])('refuses %s, naming the row', async (_name, chunks, path, message) => {
    const error = await rejected(Promise.resolve().then(() => parseChunkPage(page(chunks))));
    expect(error.code).toBe('invalid-page');
    expect(error.message).toContain(message);
    expect(error.message).toContain(path);
  });
});
