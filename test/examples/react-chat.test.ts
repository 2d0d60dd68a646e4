// examples/react-chat end to end in headless Chromium, both views. The chunk view (chunklog/react):
// send (a message reads "sending…" until the server accepted it, "queued" while it waits), stream,
// steer, queue, stop, every chunk kind, usage, retry on an error card, a reload while a turn runs,
// older pages on scroll, Markdown and HTML kept inert; the thread switcher (list, switch, new
// thread, back). The useChat view (@ai-sdk/react on chunklog's UI message handlers): send,
// stream, tool progress inside its tool, steer, stop, notices (live, in a turn and between turns),
// retry, a reload while a turn runs (resume).
// Both views: editable history (regenerate, edit, "‹ n / m ›" switches between versions).
// Screenshots in .tmp/ (react-chat-chunks.png, react-chat-usechat.png, react-chat-threads.png).
// The server builds the page with Vite at start-up, offline.
import type { ChildProcess } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumAvailable } from '../support/services.js';
import { launchChromium, listeningUrl, openPage } from './browser.js';
import { ensureBuilt, exampleEnv, ROOT, spawnExample, tempDir } from './support.js';

const temp = tempDir('react-chat');
const hasChromium = chromiumAvailable();
let server: ChildProcess | undefined;
let browser: Browser | undefined;
let baseUrl = '';

beforeAll(async () => {
  if (!hasChromium) return;
  ensureBuilt();
  server = spawnExample(
    'examples/react-chat/main.ts',
    ['--port', '0', '--db', join(temp.dir, 'chat.db'), '--out', join(temp.dir, 'page')],
    exampleEnv({ CHUNKLOG_SCRIPTED_DELAY_MS: '10' }),
  );
  baseUrl = await listeningUrl(server);
  browser = await launchChromium();
}, 180_000);

afterAll(async () => {
  await browser?.close();
  server?.kill('SIGTERM');
  temp.remove();
});

const data = (page: Page, key: string) => page.evaluate((k) => document.body.dataset[k] ?? '', key);

async function say(page: Page, text: string): Promise<void> {
  await page.fill('#input', text);
  await page.press('#input', 'Enter');
}

/** Chunk view: the store holds more than `rows` rows, no turn runs, the window reconciled. */
async function settled(page: Page, rows: number, timeout = 20_000): Promise<void> {
  await page.waitForFunction(
    (before) =>
      Number(document.body.dataset.total) > before &&
      document.body.dataset.running === 'false' &&
      document.body.dataset.reconcile === 'idle',
    rows,
    { timeout },
  );
}

async function turn(page: Page, text: string, timeout?: number): Promise<void> {
  const rows = Number(await data(page, 'total'));
  await say(page, text);
  await settled(page, rows, timeout);
}

const screenshot = (page: Page, name: string) => {
  mkdirSync(join(ROOT, '.tmp'), { recursive: true });
  return page.screenshot({ path: join(ROOT, '.tmp', name) });
};

describe.skipIf(!hasChromium)('examples/react-chat in Chromium', () => {
  it('chunk view: every chunk kind, steer, queue, stop, usage, Markdown, inert HTML', async () => {
    const { page, problems, dialogs } = await openPage(
      browser as Browser,
      `${baseUrl}?view=chunks&thread=showcase&limit=400`,
      { width: 1100, height: 1400 },
    );
    await page.waitForFunction(() => document.body.dataset.reconcile === 'idle');
    // An empty thread says what to type.
    expect(await page.textContent('.empty')).toContain('weather Paris');

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
    const first = Number(await data(page, 'total'));
    await say(page, 'weather Paris');
    const sending = page.locator('.message.user.sending', { hasText: 'weather Paris' });
    await expect.poll(() => sending.locator('.message-status').textContent()).toBe('sending…');
    release();
    await expect.poll(() => sending.count()).toBe(0);
    await settled(page, first);
    expect(await page.locator('.empty').count()).toBe(0);
    expect(await page.locator('.chunk.tool-batch .call.done').count()).toBe(2);
    expect(await page.textContent('.chunk.tool-batch')).toContain('"celsius": 21');
    expect(await page.textContent('.chunk.tool-batch')).toContain('reading the nearest station…');
    // The usage the turn-end event carried.
    expect(await page.textContent('#usage')).toMatch(/last turn: [\d,]+ in · [\d,]+ out tokens/);

    // While the slow tool runs: its progress streams; steer with one message, queue another.
    // The job takes 8 s, so that a loaded machine still finds it running for the queued message.
    const before = Number(await data(page, 'total'));
    await say(page, 'slow 8');
    await page.waitForSelector('.call.running .progress');
    expect(await page.textContent('#status')).toBe('working…');
    // The answer streams: the message it answers reads as sent, with no status under it.
    expect(await page.locator('.message.user', { hasText: 'slow 8' }).count()).toBe(1);
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
      .poll(() => page.textContent('#log'), { timeout: 20_000 })
      .toContain('You said: “and then say goodbye”');
    await settled(page, before);
    expect(await page.textContent('.chunk.steering')).toContain('please also mention the time');
    expect(await page.locator('.message.user .message-status').count()).toBe(0);

    await turn(page, 'ratelimit');
    expect(await page.textContent('.chunk.system.kind-model-changed')).toContain(
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
    // Retry, on the newest turn's error card: the user's last message again, as a new turn.
    expect(await page.locator('.chunk.error .retry').count()).toBe(1);
    const errors = await page.locator('.chunk.error').count();
    const beforeRetry = Number(await data(page, 'total'));
    await page.click('.chunk.error .retry');
    await settled(page, beforeRetry);
    expect(await page.locator('.chunk.error').count()).toBe(errors + 1);
    expect(await page.locator('article.message.user', { hasText: /^error$/ }).count()).toBe(2);
    expect(await page.locator('.chunk.error .retry').count()).toBe(1); // on the newest only

    const beforeStop = Number(await data(page, 'total'));
    await say(page, 'slow 8');
    await page.waitForSelector('.call.running .progress');
    // A steering message the stop beats to the model: the cancelled notice says it was not sent.
    const steered = page.waitForResponse(
      (answer) => answer.url().endsWith('/messages') && answer.status() === 202,
    );
    await page.fill('#input', 'never mind the time');
    await page.click('#steer');
    await steered;
    await page.click('#stop');
    await settled(page, beforeStop);
    const cancelled = page.locator('.chunk.system.kind-cancelled').last();
    expect(await cancelled.textContent()).toContain('Stopped by the user.');
    expect(await cancelled.locator('.dropped').textContent()).toBe('Not sent: never mind the time');
    const stopped = page.locator('article.message.assistant', { hasText: 'Stopped by the user.' });
    expect(await stopped.locator('.call.unfinished .tool-name').textContent()).toBe('slow_job');

    await say(page, '/notice Deployed version 2.');
    await page.waitForSelector('.message.system .chunk.system.kind-notice');
    expect(await page.textContent('.message.system')).toContain('Deployed version 2.');

    // Markdown is rendered by react-markdown; its unsafe link and raw HTML stay inert.
    await turn(page, 'markdown');
    expect(await page.textContent('.markdown h2')).toBe('A formatted answer');
    expect(await page.locator('.markdown strong').last().textContent()).toBe('bold');
    expect(await page.getAttribute('.markdown a >> text=safe link', 'href')).toBe(
      'https://www.npmjs.com/package/chunklog',
    );
    const unsafe = await page.getAttribute('.markdown a >> text=unsafe one', 'href');
    expect(unsafe ?? '').not.toMatch(/javascript/i);
    expect(await page.textContent('.markdown >> text=Raw HTML stays text')).toContain(
      'Raw HTML stays text: <img src=x onerror=alert(4)>',
    );
    await turn(page, 'xss');
    const text = (await page.textContent('#log')) ?? '';
    expect(text).toContain(
      'Here is some HTML: <img src=x onerror=alert(1)> <script>alert(2)</script>',
    );
    expect(text).toContain('{"city":"<img src=x onerror=alert(1)>"}');
    expect(await page.locator('#log img, #log script, #log b').count()).toBe(0);

    // Thinking is in place and collapsible.
    const thinking = page.locator('details.chunk.thinking', { hasText: 'Thinking about' }).last();
    await thinking.locator('summary').click();
    expect(await thinking.getAttribute('open')).not.toBeNull();
    expect(await thinking.textContent()).toContain('Thinking about <img src=x onerror=alert(1)>');

    await page.waitForTimeout(300); // give an onerror handler time to fire, if one existed
    expect(dialogs).toEqual([]);
    await page.locator('details.chunk.thinking').nth(0).locator('summary').click();
    await page.evaluate(() => {
      const log = document.getElementById('log') as HTMLElement;
      log.scrollTop = 0;
    });
    await screenshot(page, 'react-chat-chunks.png');
    expect(problems).toEqual([]);
    await page.close();
  }, 120_000);

  it('chunk view: a reload while a turn runs picks the turn up where it is', async () => {
    const { page, problems } = await openPage(
      browser as Browser,
      `${baseUrl}?view=chunks&thread=reload`,
    );
    await page.waitForFunction(() => document.body.dataset.reconcile === 'idle');
    await turn(page, 'hello there');
    const before = Number(await data(page, 'total'));
    // The job takes 8 s, so that a reload slowed down by a loaded machine still finds it running.
    await say(page, 'slow 8');
    await page.waitForSelector('.call.running .progress');
    await page.reload();
    // After the reload the running turn comes back from the server's replay: its tool card is
    // running again and its progress goes on.
    await page.waitForSelector('.call.running .progress', { timeout: 20_000 });
    // The page sets its data attributes in an effect after it renders: wait for that render.
    await page.waitForFunction(() => document.body.dataset.running === 'true');
    expect(await page.textContent('#log')).toContain('You said: “hello there”');
    await settled(page, before);
    expect(await page.locator('.call.done').count()).toBe(1);
    expect(await page.textContent('#log')).toContain('Here is what the tools found');
    expect(problems).toEqual([]);
    await page.close();
  }, 60_000);

  it('chunk view: the window stays within its limit while a long turn streams; older pages load on scroll', async () => {
    const limit = 24;
    const { page, problems } = await openPage(
      browser as Browser,
      `${baseUrl}?view=chunks&thread=long&limit=${limit}`,
    );
    await page.waitForFunction(() => document.body.dataset.reconcile === 'idle');
    await page.evaluate(() => {
      const w = window as unknown as { maxRows: number };
      w.maxRows = 0;
      new MutationObserver(() => {
        w.maxRows = Math.max(w.maxRows, Number(document.body.dataset.rows));
      }).observe(document.body, { attributes: true, attributeFilter: ['data-rows'] });
    });
    await turn(page, 'long 100', 90_000);
    await expect.poll(() => page.textContent('#log')).toContain('Chunk 100 of 100');
    const maxRows = await page.evaluate(() => (window as unknown as { maxRows: number }).maxRows);
    expect(maxRows).toBeLessThanOrEqual(limit + 2); // the open chunk's rows may exceed it
    expect(maxRows).toBeGreaterThanOrEqual(limit - 2);
    expect(await page.textContent('#log')).not.toContain('Thinking, chunk 1 of 100.');
    // Scroll to the top again and again: each time a page of older rows loads above.
    const deadline = Date.now() + 60_000;
    while (
      !((await page.textContent('#log')) ?? '').includes('long 100') &&
      Date.now() < deadline
    ) {
      await page.evaluate(() => {
        const log = document.getElementById('log') as HTMLElement;
        log.scrollTop = 0;
        log.dispatchEvent(new Event('scroll'));
      });
      await page.waitForFunction(() => document.body.dataset.loadingOlder === 'false');
    }
    expect(await page.textContent('#log')).toContain('long 100'); // the user's message
    expect(Number(await data(page, 'rows'))).toBeGreaterThan(limit);
    await page.evaluate(() => {
      const log = document.getElementById('log') as HTMLElement;
      log.scrollTop = log.scrollHeight;
      log.dispatchEvent(new Event('scroll'));
    });
    await expect.poll(() => data(page, 'rows').then(Number)).toBeLessThanOrEqual(limit);
    // The status bar says it in words.
    await expect
      .poll(() => page.textContent('#stats'))
      .toMatch(
        /^\d+ rows in memory \(limit 24\) · \d+ stored in the thread · scroll up for older$/,
      );
    expect(problems).toEqual([]);
    await page.close();
  }, 150_000);

  it('thread switcher: lists the threads, switches, makes a new one, and Back returns', async () => {
    const { page, problems } = await openPage(
      browser as Browser,
      `${baseUrl}?view=chunks&thread=switch-a`,
    );
    await page.waitForFunction(() => document.body.dataset.reconcile === 'idle');
    await turn(page, 'hello from a');
    // The list is the store's (`listThreads`): after the turn, thread switch-a is in it, with its rows.
    const option = (id: string) => page.locator(`#thread-select option[value="${id}"]`);
    await expect.poll(() => option('switch-a').textContent()).toMatch(/^switch-a · \d+ rows$/);

    // A new thread (`createThread`): the view switches to it, empty, and the URL names it.
    await page.click('#new-thread');
    await page.waitForFunction(() => document.body.dataset.thread?.startsWith('chat-'));
    const created = await data(page, 'thread');
    expect(new URL(page.url()).searchParams.get('thread')).toBe(created);
    await page.waitForFunction(() => document.body.dataset.reconcile === 'idle');
    expect(await page.textContent('.empty')).toContain('weather Paris');
    expect(await page.inputValue('#thread-select')).toBe(created);
    expect(await option(created).textContent()).toMatch(/^New chat .+ · empty$/);
    await turn(page, 'hello from the new one');
    expect(await page.textContent('#log')).not.toContain('hello from a');

    // Switch back with the list: the thread's own history, nothing of the other one.
    await page.selectOption('#thread-select', 'switch-a');
    await expect.poll(() => page.textContent('#log')).toContain('You said: “hello from a”');
    expect(await page.textContent('#log')).not.toContain('hello from the new one');
    await screenshot(page, 'react-chat-threads.png');
    // Back: the new thread again.
    await page.goBack();
    await expect.poll(() => data(page, 'thread')).toBe(created);
    await expect
      .poll(() => page.textContent('#log'))
      .toContain('You said: “hello from the new one”');
    // The other view keeps the thread.
    await page.click('a[href*="view=usechat"]');
    await page.waitForFunction(() => document.body.dataset.status === 'ready');
    expect(await page.inputValue('#thread-select')).toBe(created);
    await expect
      .poll(() => page.textContent('#log'))
      .toContain('You said: “hello from the new one”');
    expect(problems).toEqual([]);
    await page.close();
  }, 60_000);

  it('useChat view: send, stream, steer, notices, stop, a reload while a turn runs, inert HTML', async () => {
    const { page, problems, dialogs } = await openPage(
      browser as Browser,
      `${baseUrl}?view=usechat&thread=chat`,
      { width: 1100, height: 1200 },
    );
    const ready = () =>
      page.waitForFunction(() => document.body.dataset.status === 'ready', null, {
        timeout: 20_000,
      });
    await ready();
    expect(await page.textContent('.empty')).toContain('weather Paris');

    // The weather tools run for a quarter of a second: whether the page renders them running is a
    // race with the machine's load, so the running state is checked on the slow tool below.
    await say(page, 'weather Paris');
    await ready();
    await expect.poll(() => page.textContent('#log')).toContain('Here is what the tools found');
    expect(await page.locator('.call.done').count()).toBe(2);

    // Steer the slow tool's turn through chunklog's JSON route: the steering message shows up
    // in the useChat stream. The tool's progress streams inside its card, as in the chunk view.
    await say(page, 'slow');
    await page.waitForSelector('.call.running .progress');
    expect(await page.locator('#log pre.progress').count()).toBe(
      await page.locator('#log .call pre.progress').count(),
    );
    await page.fill('#input', 'please hurry');
    await page.click('#steer');
    // A notice while the turn runs joins it (chunklog's notices route, not a steering message):
    // it shows in the turn's stream, as it does in the chunk view.
    await say(page, '/notice Deploying version 3.');
    const notice = (text: string) => page.locator('.chunk.system.kind-notice', { hasText: text });
    await expect.poll(() => notice('Deploying version 3.').count()).toBe(1);
    await ready();
    expect(await page.textContent('.chunk.steering')).toContain('please hurry');
    expect(await notice('Deploying version 3.').count()).toBe(1);
    expect(await page.textContent('#log')).toContain(
      'while I was working you said: “please hurry”',
    );

    // Stop: useChat stops reading, the turn is cancelled on the server, and its stored end is
    // read back through the resume route.
    await say(page, 'slow');
    await page.waitForSelector('.call.running');
    await page.click('#stop');
    await page.waitForSelector('.chunk.system.kind-cancelled', { timeout: 20_000 });
    await ready();
    // What the turn had when it was stopped stays: its text and the tool call, cut short.
    const stopped = page.locator('article.message.assistant', { hasText: 'Stopped by the user.' });
    expect(await stopped.textContent()).toContain('Starting a slow job');
    expect(await stopped.locator('.call .tool-name').textContent()).toBe('slow_job');
    await expect.poll(() => stopped.locator('.call.running').count()).toBe(0); // cut short

    // A notice between turns is a system turn of its own, stored by the time the notices route
    // answers: the view shows it then, as the chunk view does from its event, not after a reload.
    await say(page, '/notice Deployed version 3.');
    await expect.poll(() => notice('Deployed version 3.').count()).toBe(1);
    expect(
      await page.locator('article.message', { has: notice('Deployed version 3.') }).count(),
    ).toBe(1);

    // A reload while a turn runs: useChat's resume picks the turn up from its start.
    // The job takes 8 s, so that a reload slowed down by a loaded machine still finds it running.
    const doneBefore = await page.locator('.call.done').count();
    await say(page, 'slow 8');
    await page.waitForSelector('.call.running');
    await page.reload();
    await page.waitForSelector('.call.running', { timeout: 20_000 });
    await ready();
    await expect.poll(() => page.locator('.call.done').count()).toBe(doneBefore + 1);
    // Once it ended, the view shows the stored thread: the user's message of the resumed turn too.
    await expect.poll(() => page.locator('article.message.user').count()).toBe(4);

    await say(page, 'xss');
    await ready();
    await expect.poll(() => page.textContent('#log')).toContain('<img src=x onerror=alert(1)>');
    expect(await page.locator('#log img, #log script, #log b').count()).toBe(0);

    // An error card, and Retry on it: the last user text sent again, as a new turn.
    const idle = () =>
      page.waitForFunction(() => document.body.dataset.running === 'false', null, {
        timeout: 20_000,
      });
    await say(page, 'error');
    await page.waitForSelector('article.message.assistant .chunk.error .retry');
    await idle();
    const errors = page.locator('article.message.assistant .chunk.error');
    expect(await errors.count()).toBe(1);
    // From the UI message's data part: the same title and next step as the chunk view.
    expect(await errors.locator('.error-title').textContent()).toBe(
      'Error from anthropic claude-sonnet-scripted (HTTP 503)',
    );
    expect(await errors.locator('.next-step').textContent()).toBe(
      'the provider is overloaded: wait a moment, then send again',
    );
    await page.click('article.message.assistant .chunk.error .retry');
    await expect.poll(() => errors.count(), { timeout: 20_000 }).toBe(2);
    await idle();
    expect(await page.locator('article.message.user', { hasText: /^error$/ }).count()).toBe(2);
    await expect.poll(() => page.locator('.chunk.error .retry').count()).toBe(1);

    await page.waitForTimeout(300);
    expect(dialogs).toEqual([]);
    await screenshot(page, 'react-chat-usechat.png');
    expect(problems).toEqual([]);
    await page.close();
  }, 120_000);

  // Editable history (issue 32), in both views: regenerate the second answer ("‹ 2 / 2 ›"), ‹
  // brings the first answer back ("‹ 1 / 2 ›"), an edit of the first message makes a new
  // version of it and the later turns follow the active path, ‹ on it brings them back.
  const tools = (page: Page, role: 'user' | 'assistant', nth: number) =>
    page.locator(`.message-tools.${role}`).nth(nth);
  const versionsOf = (page: Page, role: 'user' | 'assistant', nth: number) =>
    tools(page, role, nth).locator('.versions');
  const answerText = (page: Page, nth: number) =>
    page.locator('article.message.assistant').nth(nth).textContent();

  /** The thread switcher's row count of a thread, and the rows of its active path. */
  const listedAndActive = (page: Page, threadId: string) =>
    page.evaluate(async (id) => {
      const list = (await (await fetch('/api/threads')).json()) as {
        threads: { id: string; total: number }[];
      };
      const page = (await (await fetch(`/api/threads/${id}/chunks?limit=1`)).json()) as {
        total: number;
      };
      return [list.threads.find((t) => t.id === id)?.total, page.total];
    }, threadId);

  async function editableHistory(
    page: Page,
    threadId: string,
    idle: () => Promise<unknown>,
  ): Promise<void> {
    for (const text of ['hello one', 'hello two']) {
      await say(page, text);
      await expect.poll(() => page.textContent('#log')).toContain(`You said: “${text}”`);
      await idle();
    }
    expect(await page.locator('.versions').count()).toBe(0);
    expect(await answerText(page, 1)).not.toContain('(Answer 2 to this.)');

    // Regenerate the second answer: a new version of its turn, shown on the answer.
    await tools(page, 'assistant', 1).locator('.regenerate').click();
    await expect
      .poll(() => versionsOf(page, 'assistant', 1).textContent(), { timeout: 20_000 })
      .toBe('‹ 2 / 2 ›');
    await idle();
    expect(await answerText(page, 1)).toContain('You said: “hello two”. (Offline');
    expect(await answerText(page, 1)).toContain('(Answer 2 to this.)');
    expect(await page.locator('article.message.user').count()).toBe(2);
    expect(await versionsOf(page, 'assistant', 0).count()).toBe(0); // the first turn has one

    // ‹ : the first answer again.
    await versionsOf(page, 'assistant', 1).locator('.prev').click();
    await expect.poll(() => versionsOf(page, 'assistant', 1).textContent()).toBe('‹ 1 / 2 ›');
    await idle();
    expect(await answerText(page, 1)).toContain('You said: “hello two”');
    expect(await answerText(page, 1)).not.toContain('(Answer 2 to this.)');
    expect(await page.locator('article.message.assistant').count()).toBe(2);

    // Edit the first message: a new version of the first turn; the second turn belongs to the
    // old version, so the active path ends with the edited turn.
    await tools(page, 'user', 0).locator('.edit').click();
    await tools(page, 'user', 0).locator('textarea').fill('hello one, edited');
    await tools(page, 'user', 0).locator('.save').click();
    await expect
      .poll(() => versionsOf(page, 'user', 0).textContent(), { timeout: 20_000 })
      .toBe('‹ 2 / 2 ›');
    await idle();
    await expect.poll(() => page.textContent('#log')).toContain('You said: “hello one, edited”');
    expect(await page.locator('article.message.user').count()).toBe(1);
    expect(await page.textContent('#log')).not.toContain('hello two');
    // The thread switcher counts the rows of the path shown (one turn), not the conversation's.
    const [listed, active] = await listedAndActive(page, threadId);
    expect(listed).toBe(active);

    // ‹ on it: the first version, and the turns that followed it, with their versions.
    await versionsOf(page, 'user', 0).locator('.prev').click();
    await expect.poll(() => versionsOf(page, 'user', 0).textContent()).toBe('‹ 1 / 2 ›');
    await idle();
    await expect.poll(() => page.locator('article.message.user').count()).toBe(2);
    expect(await page.textContent('#log')).toContain('You said: “hello two”');
    expect(await page.textContent('#log')).not.toContain('hello one, edited');
    expect(await versionsOf(page, 'assistant', 1).textContent()).toBe('‹ 1 / 2 ›');
    // › on the second answer: the regenerated one again.
    await versionsOf(page, 'assistant', 1).locator('.next').click();
    await expect.poll(() => versionsOf(page, 'assistant', 1).textContent()).toBe('‹ 2 / 2 ›');
    await expect.poll(() => answerText(page, 1)).toContain('(Answer 2 to this.)');
  }

  it('chunk view: regenerate, switch versions, edit a message (editable history)', async () => {
    const { page, problems } = await openPage(
      browser as Browser,
      `${baseUrl}?view=chunks&thread=versions`,
      { width: 1100, height: 1200 },
    );
    await page.waitForFunction(() => document.body.dataset.reconcile === 'idle');
    const idle = () =>
      page.waitForFunction(
        () =>
          document.body.dataset.running === 'false' &&
          document.body.dataset.reconcile === 'idle' &&
          document.body.dataset.switching === 'false',
        null,
        { timeout: 20_000 },
      );
    await editableHistory(page, 'versions', idle);
    // The window holds the active path only: as many rows as the store's path has.
    expect(Number(await data(page, 'rows'))).toBe(Number(await data(page, 'total')));
    await screenshot(page, 'react-chat-versions.png');
    expect(problems).toEqual([]);
    await page.close();
  }, 90_000);

  it('useChat view: regenerate, switch versions, edit a message (editable history)', async () => {
    const { page, problems } = await openPage(
      browser as Browser,
      `${baseUrl}?view=usechat&thread=versions-ui`,
      { width: 1100, height: 1200 },
    );
    const idle = () =>
      page.waitForFunction(
        () =>
          document.body.dataset.status === 'ready' && document.body.dataset.switching === 'false',
        null,
        { timeout: 20_000 },
      );
    await idle();
    await editableHistory(page, 'versions-ui', idle);
    expect(problems).toEqual([]);
    await page.close();
  }, 90_000);
});
