// examples/web-chat end to end in headless Chromium: eviction while a long turn streams, older
// pages on scroll, the status bar's counts in words, model output kept inert, every chunk kind,
// a message's state (sending, queued, sent), steering and queueing, a steering message its
// cancelled turn never read (said, and given back), and a screenshot (.tmp/web-chat.png).
import type { ChildProcess } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { CHROMIUM_PATH, chromiumAvailable } from '../support/services.js';
import {
  EXAMPLE_TIMEOUT_MS,
  ensureBuilt,
  exampleEnv,
  ROOT,
  spawnExample,
  tempDir,
} from './support.js';

// Waits are margins load cannot reach, not measures of speed (see EXAMPLE_TIMEOUT_MS).
vi.setConfig({ testTimeout: EXAMPLE_TIMEOUT_MS, hookTimeout: EXAMPLE_TIMEOUT_MS });

const LIMIT = 24;
const temp = tempDir('web-chat');
const hasChromium = chromiumAvailable();
let server: ChildProcess | undefined;
let browser: Browser | undefined;
let baseUrl = '';

beforeAll(async () => {
  if (!hasChromium) return;
  ensureBuilt();
  server = spawnExample(
    'examples/web-chat/main.ts',
    ['--port', '0', '--db', join(temp.dir, 'web.db'), '--limit', String(LIMIT)],
    exampleEnv({ CHUNKLOG_SCRIPTED_DELAY_MS: '10' }),
  );
  baseUrl = await new Promise<string>((resolve, reject) => {
    let out = '';
    server?.stdout?.on('data', (data: Buffer) => {
      out += data.toString();
      const match = /listening on (http:\/\/\S+)/.exec(out);
      if (match) resolve(match[1] as string);
    });
    server?.stderr?.on('data', (data: Buffer) => reject(new Error(data.toString())));
    server?.on('close', (code) => reject(new Error(`server exited with ${code}: ${out}`)));
  });
  browser = await chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
});

afterAll(async () => {
  await browser?.close();
  server?.kill('SIGTERM');
  temp.remove();
});

/** Opens the page on a thread; collects the page's errors and dialogs. */
async function open(thread: string, query = '', height = 760) {
  const page = await (browser as Browser).newPage({ viewport: { width: 1000, height } });
  const problems: string[] = [];
  const dialogs: string[] = [];
  page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console: ${message.text()}`);
  });
  page.on('dialog', (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  await page.goto(`${baseUrl}?thread=${thread}${query}`);
  await page.waitForFunction(() => document.body.dataset.reconcile !== undefined);
  return { page, problems, dialogs };
}

const storedRows = (page: Page) => page.evaluate(() => Number(document.body.dataset.total));

/** Types a message and sends it with Enter. */
async function say(page: Page, text: string): Promise<void> {
  await page.fill('#input', text);
  await page.press('#input', 'Enter');
}

/** Waits until the store holds more than `rows` rows, no turn runs, and the window reconciled. */
async function settled(page: Page, rows: number, timeout = EXAMPLE_TIMEOUT_MS): Promise<void> {
  await page.waitForFunction(
    (before) =>
      Number(document.body.dataset.total) > before &&
      document.body.dataset.running === 'false' &&
      document.body.dataset.reconcile === 'idle',
    rows,
    { timeout },
  );
}

/** Sends a message and waits for its turn to be stored and shown. */
async function turn(page: Page, text: string, timeout?: number): Promise<void> {
  const rows = await storedRows(page);
  await say(page, text);
  await settled(page, rows, timeout);
}

const chunkCount = (page: Page) => page.evaluate(() => document.querySelectorAll('.chunk').length);

describe.skipIf(!hasChromium)('examples/web-chat in Chromium', () => {
  it('never holds more chunks than the limit while a long turn streams; older ones load on scroll', async () => {
    const { page, problems } = await open('long', `&limit=${LIMIT}`);
    // Record the number of chunk elements after every change of the DOM, in the page itself.
    await page.evaluate(() => {
      const w = window as unknown as { maxChunks: number; samples: number };
      w.maxChunks = 0;
      w.samples = 0;
      new MutationObserver(() => {
        w.samples++;
        w.maxChunks = Math.max(w.maxChunks, document.querySelectorAll('.chunk').length);
      }).observe(document.getElementById('log') as HTMLElement, { childList: true, subtree: true });
    });
    await say(page, 'long 150');
    // Sample from outside too, while it streams.
    const sampled: number[] = [];
    while ((await storedRows(page)) === 0) {
      sampled.push(await chunkCount(page));
      await page.waitForTimeout(20);
    }
    await settled(page, 0);
    expect(sampled.length).toBeGreaterThan(10);
    await expect.poll(() => page.textContent('#log')).toContain('Chunk 150 of 150');
    const { maxChunks, samples } = await page.evaluate(() => {
      const w = window as unknown as { maxChunks: number; samples: number };
      return { maxChunks: w.maxChunks, samples: w.samples };
    });
    expect(samples).toBeGreaterThan(50);
    expect(maxChunks).toBeLessThanOrEqual(LIMIT);
    expect(maxChunks).toBeGreaterThanOrEqual(LIMIT - 2); // the limit was reached, not avoided
    expect(Math.max(...sampled)).toBeLessThanOrEqual(LIMIT);
    expect(await page.textContent('#log')).not.toContain('chunk 1 of 150');

    // Scroll up: older pages load (and nothing is evicted while the user reads).
    for (let i = 0; i < 40; i++) {
      const text = (await page.textContent('#log')) ?? '';
      if (text.includes('Thinking, chunk 1 of 150.')) break;
      await page.evaluate(() => {
        const log = document.getElementById('log') as HTMLElement;
        log.scrollTop = 0;
        log.dispatchEvent(new Event('scroll'));
      });
      await page.waitForTimeout(60);
    }
    expect(await page.textContent('#log')).toContain('Thinking, chunk 1 of 150.');
    expect(await chunkCount(page)).toBeGreaterThan(LIMIT);
    expect(await page.textContent('#log')).toContain('long 150'); // the user's message, too
    // The status bar says what it holds, and that the limit waits while the user reads.
    await expect
      .poll(() => page.textContent('#stats'))
      .toMatch(
        new RegExp(
          `^\\d+ rows in memory \\(limit ${LIMIT}, back to it at the bottom\\) · \\d+ stored in the thread`,
        ),
      );

    // Back at the bottom, the window evicts down to the limit again.
    await page.evaluate(() => {
      const log = document.getElementById('log') as HTMLElement;
      log.scrollTop = log.scrollHeight;
      log.dispatchEvent(new Event('scroll'));
    });
    await expect.poll(() => chunkCount(page)).toBeLessThanOrEqual(LIMIT);
    await expect
      .poll(() => page.textContent('#stats'))
      .toMatch(
        new RegExp(
          `^\\d+ rows in memory \\(limit ${LIMIT}\\) · \\d+ stored in the thread · scroll up for older$`,
        ),
      );
    expect(problems).toEqual([]);
    await page.close();
  });

  it('shows model output as inert text: no element, no script, no dialog', async () => {
    const { page, problems, dialogs } = await open('xss');
    await turn(page, 'xss');
    await expect.poll(() => page.textContent('#log')).toContain('Here is what the tools found');
    const text = (await page.textContent('#log')) ?? '';
    expect(text).toContain(
      'Here is some HTML: <img src=x onerror=alert(1)> <script>alert(2)</script>',
    );
    expect(text).toContain('{"city":"<img src=x onerror=alert(1)>"}'); // the tool's input
    expect(text).toContain('"city": "<img src=x onerror=alert(1)>"'); // and its result
    await page.click('details.chunk.thinking summary'); // open the thinking: still text
    expect(await page.textContent('details.chunk.thinking .body')).toContain(
      'Thinking about <img src=x onerror=alert(1)> and <b>bold</b>.',
    );
    expect(await page.locator('#log img, #log script, #log b').count()).toBe(0);
    await page.waitForTimeout(300); // give an onerror handler time to fire, if one existed
    expect(dialogs).toEqual([]);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('says so when a steering message is not sent because its turn was cancelled, and gives it back', async () => {
    const { page, problems } = await open('dropped-steer');
    const before = await storedRows(page);
    await say(page, 'slow 8');
    await page.waitForSelector('.call.running .progress');
    // The server answers 202 at once (chunklog's messages route); stopped before its next step,
    // the turn never reads the message, and its `cancelled` notice lists it as dropped.
    const taken = page.waitForResponse(
      (response) =>
        (response.request().postData() ?? '').includes('please also mention the time') &&
        response.status() === 202,
    );
    await page.fill('#input', 'please also mention the time');
    await page.click('#steer');
    await taken;
    await page.click('#stop');
    await settled(page, before);
    const note = page.locator('#note');
    await expect
      .poll(() => note.textContent())
      .toBe('Not sent: the turn was cancelled. Your message is back in the box.');
    expect(await note.isVisible()).toBe(true);
    expect(await note.getAttribute('role')).toBe('status');
    expect(await page.inputValue('#input')).toBe('please also mention the time');
    expect(await page.locator('.chunk.steering').count()).toBe(0);
    // The thread keeps it, on the cancel's notice, after a reload too; never as steering.
    const notSent = 'Not sent: please also mention the time';
    expect(await page.locator('.chunk.system.kind-cancelled .dropped').textContent()).toBe(notSent);
    await page.reload();
    await page.waitForSelector('.chunk.system.kind-cancelled .dropped');
    expect(await page.locator('.chunk.system.kind-cancelled .dropped').textContent()).toBe(notSent);
    expect(await page.locator('.chunk.steering').count()).toBe(0);
    expect(await note.isVisible()).toBe(false); // the page gives back only what it sent itself
    await page.fill('#input', 'please also mention the time');
    // Sent again, as a turn of its own: the line goes.
    await turn(page, await page.inputValue('#input'));
    expect(await note.isVisible()).toBe(false);
    expect(await page.textContent('#log')).toContain('You said: “please also mention the time”');
    expect(problems).toEqual([]);
    await page.close();
  });

  it('renders every chunk kind, steers and queues while the agent works, and looks right', async () => {
    const { page, problems } = await open('showcase', '&limit=200', 1500);

    // An empty thread says what to type; the hint goes once there is something.
    expect(await page.isVisible('#empty')).toBe(true);
    expect(await page.textContent('#empty')).toContain('weather Paris');
    // The message shows at once and reads "sending…" until the server has accepted it: the POST
    // is held here until the page has shown that.
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route(
      '**/api/threads/showcase/messages',
      async (route) => {
        await held;
        await route.continue();
      },
      { times: 1 },
    );
    const first = await storedRows(page);
    await say(page, 'weather Paris');
    const sending = page.locator('.message.user.sending', { hasText: 'weather Paris' });
    await expect.poll(() => sending.locator('.message-status').textContent()).toBe('sending…');
    release();
    await expect.poll(() => sending.count()).toBe(0);
    await settled(page, first);
    expect(await page.isVisible('#empty')).toBe(false);
    // The status bar's counts, in words (and a legend in its title).
    expect(await page.textContent('#stats')).toMatch(
      /^\d+ rows in memory \(limit 200\) · \d+ stored in the thread$/,
    );
    expect(await page.getAttribute('#stats', 'title')).toContain('A row is one entry');
    // The usage the turn-end event carried.
    expect(await page.textContent('#usage')).toMatch(/^last turn: [\d,]+ in · [\d,]+ out tokens/);
    expect(await page.locator('.chunk.tool-batch .call.done').count()).toBe(2);
    expect(await page.textContent('.chunk.tool-batch')).toContain('"celsius": 21');

    // While a slow tool runs: steer with one message, queue another. The job takes 8 s, so that
    // a loaded machine still finds it running for the queued message.
    const before = await storedRows(page);
    await say(page, 'slow 8');
    await page.waitForSelector('#steer:not([hidden])');
    // Progress text streams into the call while the tool runs.
    const progress = await page.waitForSelector('.call.running .progress');
    expect(await progress.textContent()).toMatch(/^\d+% done\n/);
    // The answer streams: the message it answers reads as sent, with no status under it.
    expect(await page.locator('.message.user .message-status').count()).toBe(0);
    await page.fill('#input', 'please also mention the time');
    await page.click('#steer');
    await page.fill('#input', 'and then say goodbye');
    await page.click('#queue');
    // Accepted by the server, behind the running turn.
    const queued = page.locator('.message.user.queued', { hasText: 'and then say goodbye' });
    await expect
      .poll(() => queued.locator('.message-status').textContent())
      .toBe('queued: it runs after the current turn');
    await expect
      .poll(() => page.textContent('#log'), { timeout: EXAMPLE_TIMEOUT_MS })
      .toContain('You said: “and then say goodbye”');
    await settled(page, before);
    const steering = page.locator('.message.assistant .chunk.steering');
    expect(await steering.textContent()).toContain('please also mention the time');
    expect(await page.textContent('#log')).toContain(
      'while I was working you said: “please also mention the time”',
    );
    expect(await page.locator('.message.user .message-status').count()).toBe(0); // stored rows

    await turn(page, 'ratelimit');
    const separator = page.locator('.chunk.system.kind-model-changed');
    expect(await separator.locator('.kind').textContent()).toBe('model-changed');
    expect(await separator.textContent()).toContain(
      'Switched from claude-opus-scripted to claude-sonnet-scripted',
    );

    await turn(page, 'error');
    // The card names the model that failed and says what to do next.
    expect(await page.locator('.chunk.error .error-title').last().textContent()).toBe(
      'Error from anthropic claude-sonnet-scripted (HTTP 503)',
    );
    expect(await page.locator('.chunk.error .next-step').last().textContent()).toBe(
      'the provider is overloaded: wait a moment, then send again',
    );

    // Stop a running turn: the button posts to chunklog's cancel route, naming the turn.
    const beforeStop = await storedRows(page);
    await say(page, 'slow');
    await page.waitForSelector('.call.running .progress');
    await page.click('#stop');
    await settled(page, beforeStop);
    expect(await page.locator('.chunk.system.kind-cancelled').last().textContent()).toContain(
      'Stopped by the user.',
    );
    // The call it cut short reads so, not "running".
    const stopped = page.locator('article.message.assistant', { hasText: 'Stopped by the user.' });
    expect(await stopped.locator('.call .badge').textContent()).toBe('unfinished');

    await say(page, '/notice Deployed version 2.');
    await page.waitForSelector('.message.system .chunk.system');
    expect(await page.textContent('.message.system')).toContain('Deployed version 2.');

    await page.click('.message.assistant details.chunk.thinking summary');
    expect(await page.locator('details.chunk.thinking[open]').count()).toBe(1);

    // The chunks came back in the order they happened, after a reload from the store alone.
    await page.reload();
    await page.waitForFunction(() => Number(document.body.dataset.chunks) > 10);
    await page.evaluate(() => {
      const log = document.getElementById('log') as HTMLElement;
      log.scrollTop = log.scrollHeight;
    });
    expect(await page.locator('.chunk.steering').count()).toBe(1);
    expect(await page.locator('.message.system').count()).toBe(1);
    expect(await stopped.locator('.call .badge').textContent()).toBe('unfinished');
    // A tool's progress box shows its newest lines, as a terminal does.
    const box = page.locator('.call', { hasText: '"seconds":8' }).locator('pre.progress');
    expect(await box.textContent()).toContain('100% done');
    expect(
      await box.evaluate((pre) => pre.scrollHeight - pre.scrollTop - pre.clientHeight),
    ).toBeLessThanOrEqual(1);
    await page.click('.message.assistant details.chunk.thinking summary >> nth=1');

    mkdirSync(join(ROOT, '.tmp'), { recursive: true });
    await page.screenshot({ path: join(ROOT, '.tmp', 'web-chat.png'), fullPage: false });
    expect(problems).toEqual([]);
    await page.close();
  }, 90_000);
});
