// The inspector's handler over a seeded store, without a browser: which Host values it answers,
// malformed paths and query values, the turns list and its pages, filters, the bounded search,
// the model input of a step with its cache breakpoints, neighbours, a running turn reloading.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createInspector, type InspectorOptions } from '../../src/inspect/inspector.js';
import { inspectorHosts } from '../../src/inspect/serve.js';
import { type ChunkStore, createChunkStore, type PriceFunction } from '../../src/store/index.js';
import { explodeTurn } from '../../src/transforms/index.js';
import { seedInspectorStore } from './seed.js';

let store: ChunkStore;
beforeAll(async () => {
  store = createChunkStore({ sqlite: ':memory:' });
  await store.migrate();
  await seedInspectorStore(store);
});
afterAll(() => store.close());

const HOSTS = inspectorHosts('127.0.0.1', 4000);

function inspector(options: Partial<InspectorOptions> = {}) {
  return createInspector(store, { source: 'test.db', hosts: HOSTS, ...options });
}

async function get(
  path: string,
  options: Partial<InspectorOptions> = {},
  init: { host?: string | null; method?: string } = {},
): Promise<{ status: number; text: string; headers: Headers }> {
  const headers = new Headers();
  if (init.host !== null) headers.set('host', init.host ?? 'localhost:4000');
  const request = new Request(`http://inspector.invalid${path}`, {
    method: init.method ?? 'GET',
    headers,
    ...(init.method === 'POST' ? { body: 'x' } : {}),
  });
  const response = await inspector(options)(request);
  return { status: response.status, text: await response.text(), headers: response.headers };
}

/** The ids of the turns a page links to, in order, once each. */
const turnLinks = (html: string, threadId: string) => [
  ...new Set(
    [...html.matchAll(new RegExp(`href="/threads/${threadId}/turns/([^"/?]+)"`, 'g'))].map((m) =>
      decodeURIComponent(m[1] as string),
    ),
  ),
];
const count = (html: string, needle: string) => html.split(needle).length - 1;

describe('the inspector handler', () => {
  it('answers only its own Host values (DNS rebinding), and only GET and HEAD', async () => {
    for (const host of ['localhost:4000', '127.0.0.1:4000', '[::1]:4000', 'LOCALHOST:4000']) {
      expect((await get('/', {}, { host })).status, host).toBe(200);
    }
    for (const host of [
      'evil.example:4000',
      'localhost:4001',
      'localhost',
      '127.0.0.1.evil.example:4000',
    ]) {
      const response = await get('/', {}, { host });
      expect(response.status, host).toBe(403);
      expect(response.text).not.toContain('Trip planning');
    }
    expect((await get('/', {}, { host: null })).status).toBe(403);
    const post = await get('/', {}, { method: 'POST' });
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET, HEAD');
    expect(inspectorHosts('0.0.0.0', 80, ['box.lan'])).toEqual(
      expect.arrayContaining(['0.0.0.0:80', 'localhost', 'localhost:80', 'box.lan', 'box.lan:80']),
    );
    expect(inspectorHosts('::1', 5000)).toContain('[::1]:5000');
  });

  it('answers 400 to a malformed %-escape or query value, naming it', async () => {
    for (const path of ['/threads/%E0%A4%A', '/threads/showcase/turns/%ZZ', '/threads/%']) {
      const response = await get(path);
      expect(response.status, path).toBe(400);
      expect(response.text).toContain('valid %-escapes');
    }
    const bad: Array<[string, string]> = [
      ['/threads/long?before=abc', 'before must be an integer'],
      ['/threads/long?status=done', 'status must be one of running, completed'],
      ['/threads/long/rows?role=robot', 'role must be one of user, assistant'],
      ['/threads/long/rows?type=nope', 'type must be one of'],
      ['/threads/showcase/turns/turn-1/input?step=7', 'step must be from 0 to 1'],
      [`/search?q=${'x'.repeat(201)}`, 'q must be at most 200 characters'],
    ];
    for (const [path, message] of bad) {
      const response = await get(path);
      expect(response.status, path).toBe(400);
      expect(response.text, path).toContain(message);
    }
    expect((await get('/threads/nope')).status).toBe(404);
    expect((await get('/threads/showcase/turns/nope')).status).toBe(404);
    expect((await get('/threads/showcase/elsewhere')).status).toBe(404);
  });

  it("lists a thread's turns newest first, a page at a time", async () => {
    const seen: string[] = [];
    let path: string | undefined = '/threads/long';
    while (path !== undefined) {
      const { text } = await get(path);
      const ids = turnLinks(text, 'long');
      expect(ids.length).toBeLessThanOrEqual(30);
      seen.push(...ids);
      path = /<a rel="next" href="([^"]+)">older turns/.exec(text)?.[1]?.replaceAll('&amp;', '&');
    }
    expect(seen).toEqual(Array.from({ length: 120 }, (_, i) => `long-${120 - i}`));
    const { text } = await get('/threads/long');
    expect(text).toContain('question 120'); // what the user said
    expect(text).toContain('239–240'); // its seqs
  });

  it('shows status, steps, tokens, duration and model per turn, and a cost only with a price', async () => {
    const plain = (await get('/threads/showcase')).text;
    expect(turnLinks(plain, 'showcase')).toEqual(['turn-2', 'turn-1']);
    expect(plain).not.toContain('<th>cost</th>');
    const turn1 = plain.slice(plain.indexOf('<tr class="turn turn-failed">'));
    expect(turn1).toContain('status-failed');
    expect(turn1).toContain('2,600 in · 130 out');
    expect(turn1).toContain('2.3 s');
    expect(turn1).toContain('claude-opus-4-1, claude-sonnet-4-5');
    const price: PriceFunction = (model, u) =>
      model === 'claude-sonnet-4-5'
        ? ((u.inputTokens ?? 0) * 3 + (u.outputTokens ?? 0) * 15) / 1e6
        : Number.NaN;
    const priced = (await get('/threads/showcase', { price })).text;
    expect(priced).toContain('<th>cost</th>');
    expect(priced).toContain('$0.0047'); // turn-2: 1,500 × 3 + 12 × 15 per million
    // turn-1 has an unpriced model: no cost rather than a wrong one.
    expect(priced.slice(priced.indexOf('turn-failed'))).toMatch(/<td class="num">—<\/td>/);
    const failed = (await get('/threads/showcase?status=failed')).text;
    expect(turnLinks(failed, 'showcase')).toEqual(['turn-1']);
    const completed = (await get('/threads/showcase?status=completed')).text;
    expect(turnLinks(completed, 'showcase')).toEqual(['turn-2']);
  });

  it('filters rows by role, type, errors and turn status, reading a bounded number of rows', async () => {
    const ids = (html: string) => [...html.matchAll(/id="seq-(\d+)"/g)].map((m) => Number(m[1]));
    expect(ids((await get('/threads/showcase/rows?type=tool_call')).text)).toEqual([3, 4]);
    expect(ids((await get('/threads/showcase/rows?errors=1')).text)).toEqual([6, 15]);
    expect(ids((await get('/threads/showcase/rows?role=user')).text)).toEqual([1, 8, 17]); // 8: steering
    expect(ids((await get('/threads/showcase/rows?status=failed&role=user')).text)).toEqual([1, 8]);
    const bounded = (await get('/threads/long/rows?role=user', { filterScanLimit: 50 })).text;
    expect(ids(bounded)).toEqual(Array.from({ length: 25 }, (_, i) => 191 + 2 * i));
    expect(bounded).toContain('in seqs 191–240 (50 rows read)');
    expect(bounded).toContain('href="/threads/long/rows?role=user&amp;before=191"');
  });

  it('finds text across threads, case-insensitively, and goes on where a bounded scan stopped', async () => {
    const one = (await get('/search?q=TRAINS')).text;
    expect(one).toContain('<mark>trains</mark>');
    expect(turnLinks(one, 'showcase')).toEqual(['turn-1']);
    const hits = (html: string) => count(html, '<tr class="hit">');
    const capped = (await get('/search?q=answer')).text;
    expect(hits(capped)).toBe(100); // a page holds at most 100 hits: long's newest answers
    expect(turnLinks(capped, 'long')[0]).toBe('long-120');
    expect(capped).toContain('go on searching');
    let total = 0;
    let pages = 0;
    let path: string | undefined = '/search?q=question';
    while (path !== undefined) {
      const { text } = await get(path, { searchRowLimit: 70 });
      expect(text).toMatch(/row\(s\) of \d+ thread\(s\) read/);
      total += hits(text);
      pages++;
      path = /<a rel="next" href="([^"]+)">go on searching/
        .exec(text)?.[1]
        ?.replaceAll('&amp;', '&');
    }
    expect(total).toBe(120); // "question n" in each of long's 120 turns, each found once
    expect(pages).toBeGreaterThan(3);
    const scoped = (await get('/search?q=answer&thread=t07')).text;
    expect(hits(scoped)).toBe(1);
    expect(scoped).toContain('in thread <a href="/threads/t07">');
    const html = (await get(`/search?q=${encodeURIComponent('<img')}`)).text;
    expect(html).toContain('<mark>&lt;img</mark>');
    expect(html).not.toContain('<img src=x');
  });

  it('rebuilds the model input of each step with its cache breakpoints', async () => {
    const step0 = (await get('/threads/showcase/turns/turn-2/input?step=0')).text;
    // turn-1 as history (user, assistant, tool, steering user, assistant), then turn-2's message
    expect(count(step0, '<article class="model-message')).toBe(6);
    expect(count(step0, 'new in this step</span>')).toBe(1); // the turn's own message
    expect(step0).toContain('16 rows of history before the turn; 1 new in this step');
    expect(step0).toContain('And the way back?');
    expect(count(step0, 'class="breakpoint"')).toBe(3);
    expect(step0).toContain('<dd>3 (Anthropic');
    expect(step0).toContain('1,500 input tokens recorded for this step');
    const step1 = (await get('/threads/showcase/turns/turn-1/input?step=1')).text;
    expect(count(step1, '<article class="model-message')).toBe(4);
    expect(count(step1, 'new in this step</span>')).toBe(3);
    expect(step1).toContain('only trains, please');
    expect(step1).not.toContain('Overloaded'); // errors never reach the model
    expect(step1).toContain('href="/threads/showcase/turns/turn-1/input?step=0"');
  });

  it('links each turn to the turns before and after it; a running turn reloads until it ends', async () => {
    const first = (await get('/threads/showcase/turns/turn-1')).text;
    expect(first).toContain('<a rel="next" href="/threads/showcase/turns/turn-2">');
    expect(first).toContain('first turn');
    const second = (await get('/threads/showcase/turns/turn-2')).text;
    expect(second).toContain('<a rel="prev" href="/threads/showcase/turns/turn-1">');
    expect(second).not.toContain('http-equiv="refresh"');

    const id = '0d9e3c8a-5b7f-4c1e-9a2d-6f3b8e1c4a70';
    await store.beginTurn(
      'live',
      explodeTurn(id, [{ type: 'text', step: 0, text: 'Go' }], { role: 'user' }),
    );
    const running = (await get(`/threads/live/turns/${id}`, { refreshSeconds: 3 })).text;
    expect(running).toContain('<meta http-equiv="refresh" content="3">');
    expect(running).toContain('running — this page reloads every 3 s');
    expect(count(running, id)).toBe(2); // in full once (and in the page's own link), short elsewhere
    expect(running).toContain('<h1>Turn 0d9e3c8a…</h1>');
    const list = (await get('/threads/live')).text;
    expect(list).toContain('http-equiv="refresh"');
    expect(list).toContain(`title="${id}">0d9e3c8a…</code>`);
    await store.appendSteps(
      'live',
      id,
      explodeTurn(id, [{ type: 'text', step: 0, text: 'Done' }], { role: 'assistant' }),
      { status: 'completed' },
    );
    const ended = (await get(`/threads/live/turns/${id}`)).text;
    expect(ended).not.toContain('http-equiv="refresh"');
    expect(ended).toContain('status-completed');
  });
});
