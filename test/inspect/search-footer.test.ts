// The search page's footer says what stopped the scan — the hit cap, the row cap of a page, or the
// end — with that bound's figure and the rows really read (a first user's search for a word on a
// long thread stopped at 100 hits, and the footer blamed the 20,000-row cap).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InspectorOptions } from '../../src/inspect/inspector.js';
import type { ChunkRowDraft } from '../../src/schema/index.js';
import { type ChunkStore, createChunkStore } from '../../src/store/index.js';
import { inspectorGet } from './support.js';

function qa(turnId: string, question: string): ChunkRowDraft[] {
  return [
    { turnId, step: 0, role: 'user', type: 'text', data: { text: question } },
    { turnId, step: 0, role: 'assistant', type: 'text', data: { text: `noted ${turnId}` } },
  ];
}

let store: ChunkStore;
beforeAll(async () => {
  store = createChunkStore({ sqlite: ':memory:' });
  await store.migrate();
  // 150 turns: 300 rows, 150 of them (the user's) holding A12.
  for (let i = 0; i < 150; i++) await store.appendTurn('long', qa(`t${i}`, `seat A12 row ${i}`));
  await store.appendTurn('solo', qa('s1', 'seat A12, once'));
});
afterAll(() => store.close());

const get = (path: string, options: Partial<InspectorOptions> = {}) =>
  inspectorGet(store, path, options);

const footer = (html: string) => /<p class="scan">(.*?)<\/p>/s.exec(html)?.[1] ?? '';
const hitCount = (html: string) => html.match(/<tr class="hit">/g)?.length ?? 0;
const nextHref = (html: string) =>
  /<a rel="next" href="([^"]+)">go on searching/.exec(html)?.[1]?.replaceAll('&amp;', '&');

describe('the search footer', () => {
  it('names the hit cap when the hits stopped it, with the rows it read, not the row cap', async () => {
    const { status, text } = await get('/search?q=A12&thread=long');
    expect(status).toBe(200);
    expect(hitCount(text)).toBe(100);
    // The rows read are those fetched: one page of up to 500, here the thread's 300.
    expect(footer(text)).toContain('100 hit(s) in thread');
    expect(footer(text)).toContain('300 row(s) of 1 thread(s) read.');
    expect(footer(text)).toContain(
      'It stopped at 100 hits, the most a page shows: go on for more.',
    );
    expect(footer(text)).not.toContain('20,000');
    // Going on finds the other 50, and then says it read everything.
    const rest = await get(nextHref(text) as string);
    expect(hitCount(rest.text)).toBe(50);
    expect(footer(rest.text)).toContain('That is every row.');
    expect(nextHref(rest.text)).toBeUndefined();
  });

  it('names the hit cap it was given', async () => {
    const { text } = await get('/search?q=A12', { searchHitLimit: 7 });
    expect(hitCount(text)).toBe(7);
    expect(footer(text)).toContain('It stopped at 7 hits, the most a page shows');
  });

  it('names the row cap of a page when the rows read stopped it', async () => {
    const { text } = await get('/search?q=A12&thread=long', { searchRowLimit: 50 });
    expect(hitCount(text)).toBe(25);
    expect(footer(text)).toContain('25 hit(s) in thread');
    expect(footer(text)).toContain('50 row(s) of 1 thread(s) read.');
    expect(footer(text)).toContain(
      'It stopped there: a page reads at most 50 rows. Go on for more.',
    );
    expect(footer(text)).not.toContain('hits, the most');
    expect(nextHref(text)).toBeDefined();
  });

  it('says it read every row when it reached the end, even on a hit that fills the cap', async () => {
    const none = await get('/search?q=zz-nowhere');
    expect(footer(none.text)).toContain('0 hit(s) in every thread');
    expect(footer(none.text)).toContain('302 row(s) of 2 thread(s) read. That is every row.');
    // The cap reached on the last row there is to read: nothing is left, so that is the end.
    const exact = await get('/search?q=A12&thread=solo', { searchHitLimit: 1 });
    expect(hitCount(exact.text)).toBe(1);
    expect(footer(exact.text)).toContain('That is every row.');
    expect(footer(exact.text)).not.toContain('stopped');
    expect(nextHref(exact.text)).toBeUndefined();
  });
});
