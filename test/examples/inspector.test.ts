// `chunklog inspect` (dist/cli.js, the package's bin) over a seeded SQLite file, in headless
// Chromium: threads in pages, a thread's turns, pages of rows with filters, one turn with every
// chunk kind and its neighbours, the model input of a step with its cache breakpoints, the
// search box, HTML from the store inert, read-only (the file unchanged, POST refused); a running
// turn followed live; Host, %-escape and method checks over plain HTTP. Screenshots:
// .tmp/inspector.png (a turn), .tmp/inspector-turns.png, .tmp/inspector-input.png.
import { type ChildProcess, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type ChunkStore, createChunkStore } from '../../src/store/index.js';
import { explodeTurn } from '../../src/transforms/index.js';
import { seedInspectorStore } from '../inspect/seed.js';
import { chromiumAvailable } from '../support/services.js';
import { launchChromium, listeningUrl, openPage } from './browser.js';
import { EXAMPLE_TIMEOUT_MS, ensureBuilt, ROOT, tempDir } from './support.js';

// Waits are margins load cannot reach, not measures of speed (see EXAMPLE_TIMEOUT_MS).
vi.setConfig({ testTimeout: EXAMPLE_TIMEOUT_MS, hookTimeout: EXAMPLE_TIMEOUT_MS });

const temp = tempDir('inspector');
const file = join(temp.dir, 'store.db');
const liveFile = join(temp.dir, 'live.db');
const hasChromium = chromiumAvailable();
const servers: ChildProcess[] = [];
let browser: Browser | undefined;
let baseUrl = '';
let liveUrl = '';
let writer: ChunkStore | undefined;
const digest = () => createHash('sha256').update(readFileSync(file)).digest('hex');
let before = '';

function inspect(target: string, ...args: string[]): ChildProcess {
  const child = spawn(
    process.execPath,
    [join(ROOT, 'dist/cli.js'), 'inspect', target, '--port', '0', ...args],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  servers.push(child);
  return child;
}

beforeAll(async () => {
  ensureBuilt();
  const store = createChunkStore({ sqlite: file });
  await store.migrate();
  await seedInspectorStore(store);
  await store.close();
  before = digest();
  // A second store, written while the inspector reads it.
  writer = createChunkStore({ sqlite: liveFile });
  await writer.migrate();
  await writer.appendTurn(
    'live',
    explodeTurn('warm-up', [{ type: 'text', step: 0, text: 'Hello' }], { role: 'user' }),
  );
  const [main, live] = [inspect(file, '--price', '*=3,15'), inspect(liveFile)];
  [baseUrl, liveUrl] = await Promise.all([listeningUrl(main), listeningUrl(live)]);
  if (hasChromium) browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  for (const server of servers) server.kill('SIGTERM');
  await writer?.close();
  temp.remove();
});

/** A raw HTTP request (fetch cannot send TRACE, nor choose the Host header). */
function raw(
  url: string,
  method: string,
  path: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: string }> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const req = request({ hostname, port, method, path, headers }, (res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => {
        body += chunk.toString();
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    // A CONNECT's answer comes as a `connect` event, whatever its status.
    req.on('connect', (res, socket) => {
      socket.destroy();
      resolve({ status: res.statusCode ?? 0, body: '' });
    });
    req.on('error', reject);
    req.end();
  });
}

describe('chunklog inspect', () => {
  it('answers GET only, with a policy that allows no script', async () => {
    const post = await fetch(baseUrl, { method: 'POST', body: 'x' });
    expect(post.status).toBe(405);
    const page = await fetch(baseUrl);
    expect(page.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(page.headers.get('content-security-policy')).toContain("form-action 'self'");
    expect(await page.text()).not.toContain('<script');
    expect((await fetch(`${baseUrl}threads/nope`)).status).toBe(404);
    expect((await fetch(`${baseUrl}threads/showcase/turns/nope`)).status).toBe(404);
  });

  it('refuses other Host values, malformed escapes and other methods, over plain HTTP', async () => {
    const { port } = new URL(baseUrl);
    const rebound = await raw(baseUrl, 'GET', '/threads/showcase', {
      host: `evil.example:${port}`,
    });
    expect(rebound.status).toBe(403);
    expect(rebound.body).not.toContain('Trip planning');
    expect((await raw(baseUrl, 'GET', '/', { host: `localhost:${port}` })).status).toBe(200);
    expect((await raw(baseUrl, 'GET', '/', { host: `[::1]:${port}` })).status).toBe(200);
    expect((await raw(baseUrl, 'GET', '/', { host: 'localhost:1' })).status).toBe(403);
    const malformed = await raw(baseUrl, 'GET', '/threads/%E0%A4%A');
    expect(malformed.status).toBe(400);
    expect(malformed.body).not.toContain('URI malformed');
    for (const method of ['TRACE', 'OPTIONS', 'DELETE', 'PUT', 'PATCH', 'POST', 'CONNECT']) {
      const path = method === 'CONNECT' ? `127.0.0.1:${port}` : '/';
      expect((await raw(baseUrl, method, path)).status, method).toBe(405);
    }
  });

  it('refuses a file that is not there, saying so once, as a failure (exit 1, no usage)', async () => {
    const child = spawn(
      process.execPath,
      [join(ROOT, 'dist/cli.js'), 'inspect', join(temp.dir, 'none.db')],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let err = '';
    child.stderr?.on('data', (data: Buffer) => {
      err += data.toString();
    });
    const code = await new Promise((resolve) => child.on('close', resolve));
    expect(code).toBe(1);
    expect(err).toMatch(/^chunklog inspect: cannot open .*none\.db: no such file\n$/);
    expect(err).not.toContain('Usage:');
  });

  it.skipIf(!hasChromium)(
    'browses threads, turns, rows, a turn with every chunk kind and its model input, and changes nothing',
    async () => {
      const { page, problems, dialogs } = await openPage(browser as Browser, baseUrl, {
        width: 1200,
        height: 1600,
      });
      mkdirSync(join(ROOT, '.tmp'), { recursive: true });
      // Threads, most recently active first, 50 a page, with title and owner.
      expect(await page.locator('table.threads tbody tr').count()).toBe(50);
      const showcase = page.locator('table.threads tr', { hasText: 'showcase' });
      expect(await showcase.textContent()).toContain('Trip planning');
      expect(await showcase.textContent()).toContain('ada');
      expect(await showcase.locator('time').first().getAttribute('datetime')).toMatch(
        /^\d{4}-\d\d-\d\dT/,
      );
      const legacy = page.locator('table.threads tr', { hasText: 'legacy' });
      expect(await legacy.textContent()).toContain('Old notes'); // 0.1.0: title in metadata
      expect(await legacy.textContent()).toContain('grace');
      await page.click('a[rel=next]');
      expect(await page.locator('table.threads tbody tr').count()).toBe(58 - 50);

      // A thread: its turns, newest first, with their facts and the cost (a price was given).
      await page.goto(`${baseUrl}threads/showcase`);
      expect(await page.locator('table.turns tbody tr').count()).toBe(2);
      const failed = page.locator('tr.turn-failed');
      expect(await failed.locator('.status').textContent()).toBe('failed');
      expect(await failed.textContent()).toContain('2,600 in · 130 out');
      expect(await failed.textContent()).toContain('$0.0097');
      expect(await page.textContent('dd.usage')).toContain('over 2 turn(s), 3 step(s)');
      await page.screenshot({ path: join(ROOT, '.tmp', 'inspector-turns.png'), fullPage: true });
      await page.click('a:has-text("failed")'); // the status filter
      expect(await page.locator('table.turns tbody tr').count()).toBe(1);

      // A long thread's rows, newest page first, then older by keyset; then a filter.
      await page.goto(`${baseUrl}threads/long/rows`);
      expect(await page.locator('h2').textContent()).toBe('Rows 141–240 of 240');
      await page.click('a[rel=next] >> nth=0');
      expect(await page.locator('h2').textContent()).toBe('Rows 41–140 of 240');
      await page.click('a[rel=next] >> nth=0');
      expect(await page.locator('h2').textContent()).toBe('Rows 1–40 of 240');
      expect(await page.locator('a[rel=next]').count()).toBe(0);
      await page.goto(`${baseUrl}threads/showcase/rows`);
      expect(await page.locator('table.rows tbody tr').count()).toBe(18);
      await page.selectOption('form.filters select[name=type]', 'tool_result');
      await page.check('form.filters input[name=errors]');
      await page.click('form.filters button');
      expect(await page.locator('table.rows tbody tr').count()).toBe(1);
      expect(await page.textContent('table.rows tbody')).toContain('HTTP 500');

      // The turn, from the thread's list.
      await page.goto(`${baseUrl}threads/showcase`);
      await page.click('tr.turn-failed a');
      expect(await page.locator('h1').textContent()).toBe('Turn turn-1');
      const facts = (await page.textContent('dl.facts')) ?? '';
      expect(facts).toContain('failed'); // the status the store recorded, over what the rows tell
      expect(facts).toContain('in 2,600 (cached 1,000) · out 130 (reasoning 12)'); // usage summed
      expect(await page.locator('.step').allTextContents()).toEqual([
        'step 0 · in 1,200 (cached 1,000) · out 40 (reasoning 12) · claude-opus-4-1 · 2.3 s',
        'step 1 · in 1,400 · out 90 · claude-sonnet-4-5',
      ]);
      expect(await page.locator('details.chunk.thinking').count()).toBe(1);
      expect(await page.locator('.call.done').count()).toBe(1);
      expect(await page.locator('.call.error').count()).toBe(1);
      expect(await page.textContent('.call.done .progress')).toContain('reading the station…');
      expect(await page.textContent('.chunk.system.kind-model-changed')).toContain(
        'opus to sonnet',
      );
      expect(await page.textContent('.chunk.system.kind-cancelled')).toContain(
        'Stopped by the user.',
      );
      expect(await page.textContent('.chunk.steering')).toContain('only trains, please');
      expect(await page.getAttribute('.chunk.source a', 'href')).toBe('https://example.com/trains');
      expect(await page.locator('.chunk.source a').count()).toBe(1); // the javascript: one is text
      expect(await page.textContent('.chunk.file')).toContain('map.png');
      expect(await page.textContent('.chunk.custom')).toContain('anthropic.fallback');
      expect(await page.textContent('.chunk.data')).toContain('"celsius": 21');
      expect(await page.textContent('.chunk.error')).toContain('Error (HTTP 529)');
      expect(await page.textContent('.chunk.error .next-step')).toBe(
        'the provider is overloaded: wait a moment, then send again',
      );
      // HTML from the store is text.
      const text = (await page.textContent('main')) ?? '';
      expect(text).toContain('Take the train. <script>alert(3)</script>');
      expect(text).toContain('Plan a trip <img src=x onerror=alert(1)>');
      expect(await page.locator('main img, main script').count()).toBe(0);
      await page.click('details.chunk.thinking summary');
      expect(await page.textContent('details.chunk.thinking .body')).toContain(
        'Two tools at once. <img src=x onerror=alert(1)>',
      );
      await page.screenshot({ path: join(ROOT, '.tmp', 'inspector.png'), fullPage: true });

      // Its neighbour, then the next turn's model input: the first turn as history.
      await page.click('a[rel=next] >> nth=0');
      expect(await page.locator('h1').textContent()).toBe('Turn turn-2');
      await page.click('a:has-text("model input, step by step")');
      expect(await page.locator('h1').textContent()).toBe('Model input of turn turn-2, step 0');
      expect(await page.locator('article.model-message').count()).toBe(6);
      expect(await page.locator('.breakpoint').count()).toBe(3);
      expect(await page.textContent('article.model-message:last-child')).toContain(
        'And the way back?',
      );
      await page.screenshot({ path: join(ROOT, '.tmp', 'inspector-input.png'), fullPage: true });

      // The search box in the header.
      await page.fill('header input[name=q]', 'only TRAINS');
      await page.press('header input[name=q]', 'Enter');
      await page.waitForSelector('table.hits');
      expect(await page.locator('table.hits tbody tr').count()).toBe(1);
      expect(await page.textContent('table.hits mark')).toBe('only trains');

      expect(dialogs).toEqual([]);
      expect(problems).toEqual([]);
      await page.close();
      expect(digest()).toBe(before); // read-only: the file is byte for byte what it was
    },
  );

  it.skipIf(!hasChromium)('follows a running turn until it ends', async () => {
    const store = writer as ChunkStore;
    const user = explodeTurn('run-1', [{ type: 'text', step: 0, text: 'Count to three' }], {
      role: 'user',
    });
    await store.beginTurn('live', user);
    const { page, problems } = await openPage(
      browser as Browser,
      `${liveUrl}threads/live/turns/run-1`,
    );
    expect(await page.textContent('.status')).toBe('running');
    expect(await page.locator('meta[http-equiv=refresh]').count()).toBe(1);
    const step = (n: number, text: string) =>
      explodeTurn('run-1', [{ type: 'text', step: n, text }], { role: 'assistant' });
    await store.appendSteps('live', 'run-1', step(0, 'One, two'));
    // The page reloads itself: the step written after it was opened appears.
    await page.waitForSelector('text=One, two', { timeout: EXAMPLE_TIMEOUT_MS });
    await store.appendSteps('live', 'run-1', step(1, 'three.'), { status: 'completed' });
    await page.waitForSelector('.status-completed', { timeout: EXAMPLE_TIMEOUT_MS });
    expect(await page.textContent('main')).toContain('three.');
    expect(await page.locator('meta[http-equiv=refresh]').count()).toBe(0);
    expect(problems).toEqual([]);
    await page.close();
  });
});
