// `chunklog inspect` (dist/cli.js, the package's bin) over a seeded SQLite file, in headless
// Chromium: threads in pages with title and owner, pages of rows, one turn with its steps and
// every chunk kind, HTML from the store inert, read-only (the file is unchanged, POST refused).
// Screenshot: .tmp/inspector.png.
import { type ChildProcess, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createChunkStore } from '../../src/store/index.js';
import { seedInspectorStore } from '../inspect/seed.js';
import { chromiumAvailable } from '../support/services.js';
import { launchChromium, listeningUrl, openPage } from './browser.js';
import { ensureBuilt, ROOT, tempDir } from './support.js';

const temp = tempDir('inspector');
const file = join(temp.dir, 'store.db');
const hasChromium = chromiumAvailable();
let server: ChildProcess | undefined;
let browser: Browser | undefined;
let baseUrl = '';
const digest = () => createHash('sha256').update(readFileSync(file)).digest('hex');
let before = '';

beforeAll(async () => {
  ensureBuilt();
  const store = createChunkStore({ sqlite: file });
  await store.migrate();
  await seedInspectorStore(store);
  await store.close();
  before = digest();
  server = spawn(process.execPath, [join(ROOT, 'dist/cli.js'), 'inspect', file, '--port', '0'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  baseUrl = await listeningUrl(server);
  if (hasChromium) browser = await launchChromium();
}, 180_000);

afterAll(async () => {
  await browser?.close();
  server?.kill('SIGTERM');
  temp.remove();
});

describe('chunklog inspect', () => {
  it('answers GET only, with a policy that allows no script', async () => {
    const post = await fetch(baseUrl, { method: 'POST', body: 'x' });
    expect(post.status).toBe(405);
    const page = await fetch(baseUrl);
    expect(page.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(await page.text()).not.toContain('<script');
    expect((await fetch(`${baseUrl}threads/nope`)).status).toBe(404);
    expect((await fetch(`${baseUrl}threads/showcase/turns/nope`)).status).toBe(404);
  });

  it('refuses a file that is not there, and prints its usage', async () => {
    const child = spawn(
      process.execPath,
      [join(ROOT, 'dist/cli.js'), 'inspect', join(temp.dir, 'none.db')],
      {
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let err = '';
    child.stderr?.on('data', (data: Buffer) => {
      err += data.toString();
    });
    const code = await new Promise((resolve) => child.on('close', resolve));
    expect(code).toBe(2);
    expect(err).toContain('none.db');
    expect(err).toContain('Usage: chunklog inspect <target>');
  });

  it.skipIf(!hasChromium)(
    'browses threads, rows and a turn with every chunk kind, and changes nothing',
    async () => {
      const { page, problems, dialogs } = await openPage(browser as Browser, baseUrl, {
        width: 1200,
        height: 1600,
      });
      // Threads, most recently active first, 50 a page, with title and owner.
      const first = await page.locator('table.threads tbody tr').count();
      expect(first).toBe(50);
      const showcase = page.locator('table.threads tr', { hasText: 'showcase' });
      expect(await showcase.textContent()).toContain('Trip planning');
      expect(await showcase.textContent()).toContain('ada');
      const legacy = page.locator('table.threads tr', { hasText: 'legacy' });
      expect(await legacy.textContent()).toContain('Old notes'); // 0.1.0: title in metadata
      expect(await legacy.textContent()).toContain('grace');
      await page.click('a[rel=next]');
      expect(await page.locator('table.threads tbody tr').count()).toBe(58 - 50);

      // A long thread's rows, newest page first, then older by keyset.
      await page.goto(`${baseUrl}threads/long`);
      expect(await page.locator('h2').textContent()).toBe('Rows 141–240 of 240');
      await page.click('a[rel=next] >> nth=0');
      expect(await page.locator('h2').textContent()).toBe('Rows 41–140 of 240');
      await page.click('a[rel=next] >> nth=0');
      expect(await page.locator('h2').textContent()).toBe('Rows 1–40 of 240');
      expect(await page.locator('a[rel=next]').count()).toBe(0);

      // The showcase thread, then its turn.
      await page.goto(`${baseUrl}threads/showcase`);
      expect(await page.locator('table.rows tbody tr').count()).toBe(16);
      await page.click('table.rows a >> nth=0');
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
      expect(await page.textContent('.chunk.error')).toContain('Error 529');
      // HTML from the store is text.
      const text = (await page.textContent('main')) ?? '';
      expect(text).toContain('Take the train. <script>alert(3)</script>');
      expect(text).toContain('Plan a trip <img src=x onerror=alert(1)>');
      expect(await page.locator('main img, main script').count()).toBe(0);
      await page.click('details.chunk.thinking summary');
      expect(await page.textContent('details.chunk.thinking .body')).toContain(
        'Two tools at once. <img src=x onerror=alert(1)>',
      );
      await page.waitForTimeout(200);
      expect(dialogs).toEqual([]);
      mkdirSync(join(ROOT, '.tmp'), { recursive: true });
      await page.screenshot({ path: join(ROOT, '.tmp', 'inspector.png'), fullPage: true });
      expect(problems).toEqual([]);
      await page.close();
      expect(digest()).toBe(before); // read-only: the file is byte for byte what it was
    },
    60_000,
  );
});
