// The inspector's search reaches a conversation's alternatives (which `listThreads` does not
// list): a row only an edited or regenerated version holds is found, shown under its conversation
// and linked to that version, once (the rows a version reads of the conversation are found there
// only); a bounded scan goes on inside a version; a query that is an alternative's id links to it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InspectorOptions } from '../../src/inspect/inspector.js';
import type { ChunkRowDraft } from '../../src/schema/index.js';
import { type ChunkStore, createChunkStore } from '../../src/store/index.js';
import { inspectorGet } from './support.js';

const EVIL = `alt<script>"'&`;

function qa(turnId: string, question: string, answer = `answer to ${question}`): ChunkRowDraft[] {
  return [
    { turnId, step: 0, role: 'user', type: 'text', data: { text: question } },
    { turnId, step: 0, role: 'assistant', type: 'text', data: { text: answer } },
  ];
}

let store: ChunkStore;
beforeAll(async () => {
  store = createChunkStore({ sqlite: ':memory:' });
  await store.migrate();
  await store.appendTurn('conv', qa('t1', 'plan a trip', 'Where to?'));
  await store.appendTurn('conv', qa('t2', 'to Rome', 'Rome by train'));
  // t2 regenerated (the answer names an order id), then t2 edited; the conversation's own
  // version is switched back to, so neither alternative is on the active path.
  await store.addAlternative('conv', { turnId: 't2', newThreadId: 'regen' });
  await store.appendTurn('regen', qa('t2r', 'to Rome', 'Rome by night train, order ORD-77'));
  await store.appendTurn('regen', qa('t3r', 'and back?', 'the same night train'));
  await store.addAlternative('conv', { turnId: 't2r', newThreadId: 'edit' });
  await store.appendTurn('edit', qa('t2e', 'to Lisbon instead'));
  await store.switchAlternative('conv', 'conv');
  // A version whose id is HTML.
  await store.addAlternative('conv', { turnId: 't2', newThreadId: EVIL });
  await store.appendTurn(EVIL, qa('t2x', 'xyzzy', 'xyzzy'));
  await store.switchAlternative('conv', 'conv');
  await store.appendTurn('plain', qa('p1', 'a train to nowhere'));
});
afterAll(() => store.close());

const get = (path: string, options: Partial<InspectorOptions> = {}) =>
  inspectorGet(store, path, options);

/** Each hit as `thread[/alternative] turn seq`, with where its turn link goes. */
const hits = (html: string) =>
  [
    ...html.matchAll(
      /<tr class="hit">\n<td><a href="\/threads\/([^"]+)">.*?<\/a>(?:<br><span class="version">alternative <a href="\/threads\/([^"]+)">.*?<\/a><\/span>)?<\/td><td><a href="\/threads\/([^"]+)\/turns\/([^"]+)">.*?<\/a><\/td>\n<td class="num"><a href="\/threads\/([^"]+)\/rows\?before=\d+#seq-(\d+)">/g,
    ),
  ].map(
    ([, thread, version, turnThread, turn, rowsThread, seq]) =>
      `${thread}${version ? `/${version}` : ''} ${turn} ${seq} → ${turnThread},${rowsThread}`,
  );

describe('the inspector search over alternatives', () => {
  it('finds a row only an alternative holds, under its conversation, linking to that version', async () => {
    const { status, text } = await get('/search?q=ORD-77');
    expect(status).toBe(200);
    expect(hits(text)).toEqual(['conv/regen t2r 4 → regen,regen']);
    expect(text).toContain('<mark>ORD-77</mark>');
    expect(text).toContain(
      '<br><span class="version">alternative <a href="/threads/regen"><code class="id">regen</code></a></span>',
    );
    expect(text).toMatch(/of 2 thread\(s\) and 3 alternative\(s\) read/);
    // Its links open: the turn on its version, the rows of that version.
    expect((await get('/threads/regen/turns/t2r')).text).toContain('order ORD-77');
    expect((await get('/threads/regen/rows?before=5')).text).toContain('id="seq-4"');
  });

  it('finds each row once: a row a version reads of its conversation is found on the conversation', async () => {
    const { text } = await get('/search?q=train');
    expect(hits(text)).toEqual([
      'plain p1 2 → plain,plain',
      'plain p1 1 → plain,plain',
      'conv t2 4 → conv,conv',
      'conv/regen t3r 6 → regen,regen',
      'conv/regen t2r 4 → regen,regen',
    ]);
    expect(hits((await get('/search?q=plan%20a%20trip')).text)).toEqual(['conv t1 1 → conv,conv']);
    // Scoped to the conversation: its alternatives too; to an alternative: its whole path.
    expect(hits((await get('/search?q=lisbon&thread=conv')).text)).toEqual([
      'conv/edit t2e 4 → edit,edit',
      'conv/edit t2e 3 → edit,edit',
    ]);
    expect(hits((await get('/search?q=trip&thread=regen')).text)).toEqual([
      'regen t1 1 → regen,regen',
    ]);
  });

  it('goes on inside an alternative where a bounded scan stopped, finding every row once', async () => {
    const found: string[] = [];
    let path: string | undefined = '/search?q=a';
    const cursors: string[] = [];
    while (path !== undefined && cursors.length < 60) {
      const { status, text } = await get(path, { searchRowLimit: 1 });
      expect(status).toBe(200);
      found.push(...hits(text));
      path = /<a rel="next" href="([^"]+)">go on searching/
        .exec(text)?.[1]
        ?.replaceAll('&amp;', '&');
      if (path !== undefined) cursors.push(path);
    }
    expect(path).toBeUndefined();
    // One row a page: it went on inside an alternative, below a row it had read.
    expect(cursors).toContain('/search?q=a&ti=1&tv=regen&ts=6');
    expect(found).toEqual(hits((await get('/search?q=a')).text));
    expect(found.filter((h) => h.startsWith('conv/regen'))).toHaveLength(3);
    expect(found.filter((h) => h.startsWith('conv/edit'))).toHaveLength(2);
  });

  it("escapes an alternative's id in its hits", async () => {
    const { text } = await get('/search?q=xyzzy');
    expect(text).not.toContain('<script>');
    expect(text).not.toContain(EVIL);
    const href = `/threads/${encodeURIComponent(EVIL).replaceAll("'", '&#39;')}`;
    expect(text).toContain(
      `alternative <a href="${href}"><code class="id">alt&lt;script&gt;&quot;&#39;&amp;</code></a>`,
    );
    expect(text).toContain(`<a href="${href}/turns/t2x">`);
  });

  it("links a query that is an alternative's id to it, naming its conversation", async () => {
    const { text } = await get('/search?q=edit');
    expect(text).toContain(
      '<p class="id-match">Thread <a href="/threads/edit"><code>edit</code></a> has this id, an alternative of <a href="/threads/conv"><code class="id">conv</code></a>.</p>',
    );
    expect((await get('/search?q=nothing-by-this-id')).text).not.toContain('id-match');
  });
});
