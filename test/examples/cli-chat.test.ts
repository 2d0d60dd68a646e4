// examples/cli-chat, driven through its stdin and stdout like a user at a terminal, then
// restarted on the same store file.
import type { ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { createChunkStore } from 'chunklog/store';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, exampleEnv, spawnExample, tempDir } from './support.js';

const temp = tempDir('cli-chat');
const db = join(temp.dir, 'chat.db');
beforeAll(() => ensureBuilt());
afterAll(() => temp.remove());

/** A running chat: write lines, wait for output. */
class Chat {
  readonly child: ChildProcess;
  output = '';
  private mark = 0;
  private readonly exited: Promise<number | null>;

  constructor(args: string[]) {
    this.child = spawnExample('examples/cli-chat/main.ts', args, exampleEnv());
    this.child.stdout?.on('data', (data: Buffer) => {
      this.output += data.toString();
    });
    this.child.stderr?.on('data', (data: Buffer) => {
      this.output += `[stderr] ${data.toString()}`;
    });
    this.exited = new Promise((resolve) => this.child.on('close', resolve));
  }

  /** Sends a line and returns the output from now on once it matches `until`. */
  async say(line: string, until: RegExp, timeoutMs = 15_000): Promise<string> {
    this.mark = this.output.length;
    this.child.stdin?.write(`${line}\n`);
    return this.waitFor(until, timeoutMs);
  }

  async waitFor(pattern: RegExp, timeoutMs = 15_000): Promise<string> {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      const since = this.output.slice(this.mark);
      if (pattern.test(since)) return since;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    throw new Error(`timed out waiting for ${pattern}; output so far:\n${this.output}`);
  }

  async quit(): Promise<number | null> {
    this.child.stdin?.write('/quit\n');
    return this.exited;
  }
}

describe('examples/cli-chat', () => {
  let forkId = '';

  it('chats, shows history, cancels a running turn and forks the thread', async () => {
    const chat = new Chat(['--db', db]);
    await chat.waitFor(/on thread "main" \(0 rows/);

    let out = await chat.say('hello there', /╰ stop/);
    expect(out).toContain('┊ thinking  The user said “hello there”.');
    expect(out).toContain('You said: “hello there”.');

    out = await chat.say('/history', /You said/);
    expect(out).toMatch(/you ▸ hello there\nagent\n {2}┊ thinking/);

    // The latest turn, read by its id: the user's message and the answer, from seq 1.
    out = await chat.say('/turn', /You said/);
    const turnId = /turn (\S+): (\d+) rows, seqs 1–(\d+)/.exec(out);
    expect(turnId?.[2]).toBe(turnId?.[3]);
    expect(out).toMatch(/you ▸ hello there\nagent\n {2}┊ thinking/);
    out = await chat.say(`/turn ${turnId?.[1]}`, /You said/);
    expect(out).toContain(`turn ${turnId?.[1]}: ${turnId?.[2]} rows`);
    out = await chat.say('/turn nope', /no turn/);
    expect(out).toContain('no turn "nope" in this thread');

    // A slow tool: cancel it while it runs.
    out = await chat.say('slow', /⇢ slow_job/);
    expect(out).toContain('⚙ slow_job {"seconds":3}');
    out = await chat.say('/cancel', /╰ ended/);
    expect(out).toContain('── cancelled ── cancelled from the terminal');

    // Steer a running turn: the message joins it at the next step.
    await chat.say('slow', /⇢ slow_job/);
    out = await chat.say('/steer keep it short', /steering delivered at step 1/);
    out = await chat.waitFor(/▸ you \(while it worked\): keep it short[\s\S]*╰ stop/);
    expect(out).toContain('Noted, while I was working you said: “keep it short”.');

    // A message while a turn runs is queued, and runs after it.
    await chat.say('weather Oslo', /⚙ weather/);
    out = await chat.say('and after that?', /You said: “and after that\?”/);
    expect(out).toContain('(queued: it runs after this turn)');
    expect(out.indexOf('Here is what the tools found')).toBeLessThan(
      out.indexOf('You said: “and after that?”'),
    );
    await chat.waitFor(/You said: “and after that\?”[\s\S]*╰ stop/);

    out = await chat.say('/fork', /now on thread/);
    const match = /forked "main" at seq (\d+) into "([^"]+)"/.exec(out);
    expect(match).not.toBeNull();
    forkId = match?.[2] as string;
    expect(out).toContain(`now on thread "${forkId}" (${match?.[1]} rows`);

    out = await chat.say('on the fork', /You said: “on the fork”[\s\S]*╰ stop/);
    expect(await chat.quit()).toBe(0);
    expect(chat.output).not.toContain('[stderr]');
    expect(chat.output).not.toContain('error:');
  }, 60_000);

  it('resumes after a restart: the same thread, its history, and the next turn sees it', async () => {
    const chat = new Chat(['--db', db]);
    // The most recently active thread is the fork.
    const start = await chat.waitFor(/You said: “on the fork”/);
    expect(start).toContain(`on thread "${forkId}"`);

    let out = await chat.say('/history 100', /on the fork[\s\S]*agent/);
    expect(out).toContain('you ▸ hello there');
    expect(out).toContain('── cancelled ── cancelled from the terminal');
    expect(out).toContain('⚙ slow_job {"seconds":3} (no result)');

    out = await chat.say('/threads', /main/);
    expect(out).toContain(`* ${forkId}`);

    out = await chat.say('/switch main', /now on thread "main"/);
    out = await chat.say('/history 100', /you ▸ and after that\?[\s\S]*agent/);
    expect(out).not.toContain('on the fork');
    expect(await chat.quit()).toBe(0);

    // The store holds each turn once, with dense seqs, in both threads.
    const store = createChunkStore({ sqlite: db });
    try {
      for (const thread of ['main', forkId]) {
        const rows = await store.getRows(thread);
        expect(rows.map((row) => row.seq)).toEqual(rows.map((_, i) => i + 1));
      }
      const main = await store.getMessages('main');
      const userTexts = main
        .filter((m) => m.role === 'user')
        .map((m) => (m.chunks[0]?.type === 'text' ? m.chunks[0].text : ''));
      expect(userTexts).toEqual(['hello there', 'slow', 'slow', 'weather Oslo', 'and after that?']);
      const steering = main.flatMap((m) => m.chunks).filter((c) => c.type === 'steering');
      expect(steering.map((c) => (c.type === 'steering' ? c.text : ''))).toEqual(['keep it short']);
      const fork = await store.getMessages(forkId);
      expect(fork.filter((m) => m.role === 'user')).toHaveLength(6);
    } finally {
      await store.close();
    }
  }, 60_000);
});
