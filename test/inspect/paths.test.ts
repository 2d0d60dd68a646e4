// The inspector over forks and alternatives (issue 32): a conversation's page shows its active
// path and its branch points (each version a link to its path, the active one marked), `?path=`
// opens another of its paths, an alternative's and a fork's pages say where they come from, and
// thread and turn ids (user data) are escaped wherever they appear.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InspectorOptions } from '../../src/inspect/inspector.js';
import type { InspectedStore } from '../../src/inspect/reads.js';
import type { ChunkRowDraft } from '../../src/schema/index.js';
import { type ChunkStore, createChunkStore } from '../../src/store/index.js';
import { inspectorGet } from './support.js';

/** An alternative whose id, and the id of the turn it starts with, are HTML. */
const EVIL = `alt<script>"'&`;
const EVIL_TURN = 'turn<img src=x onerror=alert(1)>"';

function qa(turnId: string, question: string): ChunkRowDraft[] {
  return [
    { turnId, step: 0, role: 'user', type: 'text', data: { text: question } },
    { turnId, step: 0, role: 'assistant', type: 'text', data: { text: `answer to ${question}` } },
  ];
}

let store: ChunkStore;
beforeAll(async () => {
  store = createChunkStore({ sqlite: ':memory:' });
  await store.migrate();
  for (const [turn, text] of [
    ['t1', 'one'],
    ['t2', 'two'],
    ['t3', 'three'],
  ] as const) {
    await store.appendTurn('conv', qa(turn, text));
  }
  // Three versions of t2 (the conversation's own, alt-1's, EVIL's); alt-1 is active.
  await store.addAlternative('conv', { turnId: 't2', newThreadId: 'alt-1' });
  await store.appendTurn('alt-1', qa('t2b', 'two again'));
  await store.addAlternative('conv', { turnId: 't2b', newThreadId: EVIL });
  await store.appendTurn(EVIL, qa(EVIL_TURN, 'two, evil'));
  await store.switchAlternative('conv', 'alt-1');
  // Forks by reference: of the conversation at its second turn, and of the evil alternative.
  await store.forkThread('conv', { atSeq: 4, newThreadId: 'fork-1' });
  await store.appendTurn('fork-1', qa('f1', 'forked'));
  await store.forkThread(EVIL, { atSeq: 4, newThreadId: 'fork-2' });
  await store.appendTurn('plain', qa('p1', 'plain'));
});
afterAll(() => store.close());

const get = (
  path: string,
  options: Partial<InspectorOptions> = {},
  target: InspectedStore = store,
) => inspectorGet(target, path, options);

/** The turn links of a page, as `thread/turn`, in order. */
const turnLinks = (html: string) =>
  [...html.matchAll(/<td><a href="\/threads\/([^"/]+)\/turns\/([^"/?]+)">/g)].map((m) =>
    decodeURIComponent(`${m[1]}/${m[2]}`.replaceAll('&#39;', "'").replaceAll('&amp;', '&')),
  );
/** The versions of the page's branch points: `n:href:active?`, per branch point. */
const versions = (html: string) =>
  [...html.matchAll(/<tr class="branch"><td class="num">(\d+)<\/td>(.*?)<\/tr>/gs)].map((m) => ({
    atSeq: Number(m[1]),
    versions: [
      ...(m[2] as string).matchAll(
        /<li class="version( active)?"><a href="([^"]+)">version (\d+)/g,
      ),
    ].map((v) => `${v[3]}:${(v[2] as string).replaceAll('&amp;', '&')}${v[1] ? ':active' : ''}`),
  }));
const EVIL_HREF = `/threads/${encodeURIComponent(EVIL).replaceAll("'", '&#39;')}`;

describe('the inspector over forks and alternatives', () => {
  it('opens a conversation on its active path and lists its branch points, the active version marked', async () => {
    const { status, text } = await get('/threads/conv');
    expect(status).toBe(200);
    expect(text).toContain(
      'Showing the active path: alternative <a href="/threads/alt-1"><code class="id">alt-1</code></a>.',
    );
    // alt-1's path: t1 (read from conv by reference), then its own t2b; not conv's t2 or t3.
    expect(turnLinks(text)).toEqual(['alt-1/t2b', 'alt-1/t1']);
    expect(text).toContain('<a href="/threads/alt-1/rows">4 rows</a> on the path shown');
    expect(versions(text)).toEqual([
      {
        atSeq: 2,
        versions: ['1:/threads/conv?path=conv', '2:/threads/alt-1:active', `3:${EVIL_HREF}`],
      },
    ]);
    expect(text.split('<span class="badge active">active</span>')).toHaveLength(2);
    // Each version names the turn it starts with, as a link to that turn on its path.
    expect(text).toContain('turn <a href="/threads/conv/turns/t2"><code class="id">t2</code></a>');
    expect(text).toContain('turn <a href="/threads/alt-1/turns/t2b">');
    expect(text).not.toContain('Forked from');
  });

  it('opens any path of a conversation, and keeps it in the pages that follow', async () => {
    const own = (await get('/threads/conv?path=conv', { turnsPerPage: 2 })).text;
    expect(own).toContain("Showing the conversation's own path; the active path is alternative");
    expect(turnLinks(own)).toEqual(['conv/t3', 'conv/t2']);
    expect(own).toContain('href="/threads/conv?path=conv&amp;before=3">older turns');
    expect(own).toContain('href="/threads/conv?path=conv&amp;status=failed"');
    const older = (await get('/threads/conv?path=conv&before=3', { turnsPerPage: 2 })).text;
    expect(turnLinks(older)).toEqual(['conv/t1']);
    const evil = (await get(`/threads/conv?path=${encodeURIComponent(EVIL)}`)).text;
    expect(evil).toContain('Showing alternative');
    expect(evil).toContain('the active path is alternative <a href="/threads/alt-1">');
    expect(turnLinks(evil)).toEqual([`${EVIL}/${EVIL_TURN}`, `${EVIL}/t1`]);
    // Only the conversation and its alternatives are its paths.
    for (const path of [
      '/threads/conv?path=fork-1',
      '/threads/conv?path=nope',
      '/threads/alt-1?path=conv',
    ]) {
      const response = await get(path);
      expect(response.status, path).toBe(400);
      expect(response.text, path).toContain('path must be');
    }
  });

  it("shows an alternative's conversation and a fork's parent and seq", async () => {
    const alt = (await get('/threads/alt-1')).text;
    expect(alt).toContain(
      'Alternative of <a href="/threads/conv"><code class="id">conv</code></a>, branching at seq <span class="seq">2</span>.',
    );
    expect(alt).toContain('Branch points of <a href="/threads/conv">');
    expect(versions(alt)[0]?.versions[1]).toBe('2:/threads/alt-1:active');
    expect(alt).not.toContain('Showing');
    expect(turnLinks(alt)).toEqual(['alt-1/t2b', 'alt-1/t1']);
    const fork = (await get('/threads/fork-1')).text;
    expect(fork).toContain(
      'Forked from <a href="/threads/conv"><code class="id">conv</code></a> at seq <span class="seq">4</span>.',
    );
    expect(fork).not.toContain('Branch points');
    expect(turnLinks(fork)).toEqual(['fork-1/f1', 'fork-1/t2', 'fork-1/t1']);
    const plain = (await get('/threads/plain')).text;
    expect(plain).not.toContain('class="lineage');
    expect(plain).not.toContain('Branch points');
  });

  it("lists a thread's forks, and those of the path shown, each with where it forks", async () => {
    /** The forks table's rows: `fork ← parent @ seq (rows)`. */
    const forks = (html: string) =>
      [
        ...html.matchAll(
          /<tr class="fork"><td><a href="\/threads\/([^"]+)">.*?<\/a><\/td><td><a href="\/threads\/([^"]+)">.*?<\/a><\/td><td class="num">(\d+)<\/td><td class="num">(\d+)<\/td>/g,
        ),
      ].map((m) => `${decodeURIComponent(m[1] as string)} ← ${m[2]} @ ${m[3]} (${m[4]})`);
    // The conversation on its active path (alt-1): conv's own fork; alt-1 has none.
    const conv = (await get('/threads/conv')).text;
    expect(conv).toContain('<h2>Forks</h2>');
    expect(forks(conv)).toEqual(['fork-1 ← conv @ 4 (6)']);
    // On the evil alternative's path: conv's fork and the evil alternative's.
    const evil = (await get(`/threads/conv?path=${encodeURIComponent(EVIL)}`)).text;
    expect(forks(evil).map((f) => f.replace(/ ← .*/, ''))).toEqual(['fork-1', 'fork-2']);
    expect(forks((await get(`/threads/${encodeURIComponent(EVIL)}`)).text)).toHaveLength(1);
    // Alternatives are not forks; a thread without forks has no table.
    expect(conv).not.toMatch(/<tr class="fork"><td><a href="\/threads\/alt-1"/);
    expect((await get('/threads/fork-1')).text).not.toContain('<h2>Forks</h2>');
    expect((await get('/threads/plain')).text).not.toContain('<h2>Forks</h2>');
  });

  it("shows the rows of a conversation's active path, or of the path asked for", async () => {
    const seqs = (html: string) => [...html.matchAll(/id="seq-(\d+)"/g)].map((m) => Number(m[1]));
    const active = (await get('/threads/conv/rows')).text;
    expect(active).toContain('<h1>Rows of <code>alt-1</code></h1>');
    expect(active).toContain('<a href="/threads/conv">← thread conv</a>');
    expect(active).toContain('Showing the active path: alternative');
    expect(seqs(active)).toEqual([1, 2, 3, 4]);
    expect(active).toContain('href="/threads/alt-1/turns/t2b"');
    const own = (await get('/threads/conv/rows?path=conv')).text;
    expect(own).toContain('<h1>Rows of <code>conv</code></h1>');
    expect(seqs(own)).toEqual([1, 2, 3, 4, 5, 6]);
  });

  it('escapes thread and turn ids in links, text and titles', async () => {
    const pages = [
      (await get('/threads/conv')).text,
      (await get(`/threads/conv?path=${encodeURIComponent(EVIL)}`)).text,
      (await get(`/threads/${encodeURIComponent(EVIL)}`)).text,
      (await get('/threads/fork-2')).text,
    ];
    for (const page of pages) {
      expect(page).not.toContain('<script>');
      expect(page).not.toContain('<img');
      expect(page).not.toContain(EVIL);
      expect(page).not.toContain(EVIL_TURN);
    }
    const [conv, , evil, fork] = pages as [string, string, string, string];
    expect(conv).toContain(`<a href="${EVIL_HREF}">version 3</a>`);
    expect(conv).toContain('<code class="id">alt&lt;script&gt;&quot;&#39;&amp;</code>');
    expect(conv).toContain(
      `turn <a href="${EVIL_HREF}/turns/${encodeURIComponent(EVIL_TURN)}"><code class="id" title="turn&lt;img src=x onerror=alert(1)&gt;&quot;">turn&lt;img…</code></a>`,
    );
    expect(evil).toContain('<h1>Thread <code>alt&lt;script&gt;&quot;&#39;&amp;</code></h1>');
    expect(evil).toContain(
      // Made from alt-1's turn t2b, it branches where alt-1 does: it reads conv's rows only.
      'Alternative of <a href="/threads/conv"><code class="id">conv</code></a>, branching at seq <span class="seq">2</span>.',
    );
    expect(fork).toContain(`Forked from <a href="${EVIL_HREF}"><code class="id">`);
  });

  it('names the alternative whose rows a version ends with as the one it branches from', async () => {
    const own = createChunkStore({ sqlite: ':memory:' });
    try {
      await own.migrate();
      await own.appendTurn('c', qa('t1', 'one'));
      await own.appendTurn('c', qa('t2', 'two'));
      await own.addAlternative('c', { turnId: 't2', newThreadId: 'a1' });
      await own.appendTurn('a1', qa('t2b', 'two again'));
      await own.appendTurn('a1', qa('t3b', 'three'));
      // A version of a1's t3b reads a1's t2b (seqs 3–4): it branches from a1.
      await own.addAlternative('c', { turnId: 't3b', newThreadId: 'a2' });
      const { text } = await get('/threads/a2', {}, own);
      expect(text).toContain(
        'Alternative of <a href="/threads/c"><code class="id">c</code></a>, branching from <a href="/threads/a1"><code class="id">a1</code></a> at seq <span class="seq">4</span>.',
      );
    } finally {
      await own.close();
    }
  });

  it('lists the versions no branch point of the active path leads to, each with where it branches', async () => {
    const own = createChunkStore({ sqlite: ':memory:' });
    try {
      await own.migrate();
      for (const [turn, text] of [
        ['t1', 'one'],
        ['t2', 'two'],
        ['t3', 'three'],
      ] as const) {
        await own.appendTurn('c', qa(turn, text));
      }
      await own.addAlternative('c', { turnId: 't2', newThreadId: 'a1' });
      await own.appendTurn('a1', qa('t2b', 'two again'));
      await own.appendTurn('a1', qa('t3b', 'three'));
      // A version of a1's t3b, then a switch back to c: c's path does not go through a1's t3b.
      await own.addAlternative('c', { turnId: 't3b', newThreadId: 'a2' });
      await own.appendTurn('a2', qa('t3c', 'three again'));
      await own.switchAlternative('c', 'c');
      const { text } = await get('/threads/c', {}, own);
      expect(versions(text)).toEqual([
        { atSeq: 2, versions: ['1:/threads/c?path=c:active', '2:/threads/a1'] },
      ]);
      expect(text).toContain('<h2>Versions off the active path</h2>');
      expect(text).toContain(
        '<tr class="off-path"><td><a href="/threads/a2"><code class="id">a2</code></a></td><td><a href="/threads/a1"><code class="id">a1</code></a></td><td class="num">4</td><td>turn <a href="/threads/a2/turns/t3c"><code class="id">t3c</code></a></td><td class="num">6</td></tr>',
      );
      // Its link opens its path.
      const a2 = (await get('/threads/a2', {}, own)).text;
      expect(turnLinks(a2)).toEqual(['a2/t3c', 'a2/t2b', 'a2/t1']);
      // A conversation whose versions are all on the active path lists none off it.
      expect((await get('/threads/conv')).text).not.toContain('Versions off the active path');
    } finally {
      await own.close();
    }
  });

  it('shows every thread on its own path when the store cannot read alternatives (before 0007)', async () => {
    const failing = () => Promise.reject(new Error('no such column: conversation_id'));
    const old: InspectedStore = {
      listThreads: (o) => store.listThreads(o),
      getThread: (id) => store.getThread(id),
      getChunks: (id, o) => store.getChunks(id, o),
      getChunksAfter: (id, o) => store.getChunksAfter(id, o),
      getTurn: (id, t, o) => store.getTurn(id, t, o),
      getTurnInfo: (id, t) => store.getTurnInfo(id, t),
      listTurns: (id, o) => store.listTurns(id, o),
      getTurnUsage: (id, t, o) => store.getTurnUsage(id, t, o),
      getThreadUsage: (id, o) => store.getThreadUsage(id, o),
      getAlternatives: failing,
      activePath: failing,
    };
    const { status, text } = await get('/threads/conv', {}, old);
    expect(status).toBe(200);
    expect(turnLinks(text)).toEqual(['conv/t3', 'conv/t2', 'conv/t1']);
    expect(text).not.toContain('Branch points');
    expect(text).not.toContain('Showing');
  });
});
