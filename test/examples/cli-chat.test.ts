// examples/cli-chat, driven through its stdin and stdout like a user at a terminal, then
// restarted on the same store file.
import type { ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { createChunkStore } from 'chunklog/store';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { EXAMPLE_TIMEOUT_MS, ensureBuilt, exampleEnv, spawnExample, tempDir } from './support.js';

// Waits are margins load cannot reach, not measures of speed (see EXAMPLE_TIMEOUT_MS).
vi.setConfig({ testTimeout: EXAMPLE_TIMEOUT_MS, hookTimeout: EXAMPLE_TIMEOUT_MS });

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

  constructor(args: string[], env: Record<string, string> = {}) {
    this.child = spawnExample('examples/cli-chat/main.ts', args, exampleEnv(env));
    this.child.stdout?.on('data', (data: Buffer) => {
      this.output += data.toString();
    });
    this.child.stderr?.on('data', (data: Buffer) => {
      this.output += `[stderr] ${data.toString()}`;
    });
    this.exited = new Promise((resolve) => this.child.on('close', resolve));
  }

  /** Sends a line and returns the output from now on once it matches `until`. */
  async say(line: string, until: RegExp, timeoutMs = EXAMPLE_TIMEOUT_MS): Promise<string> {
    this.mark = this.output.length;
    this.child.stdin?.write(`${line}\n`);
    return this.waitFor(until, timeoutMs);
  }

  async waitFor(pattern: RegExp, timeoutMs = EXAMPLE_TIMEOUT_MS): Promise<string> {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      const since = this.output.slice(this.mark);
      if (pattern.test(since)) return since;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    throw new Error(`timed out waiting for ${pattern}; output so far:\n${this.output}`);
  }

  /** Sends Ctrl-C (the signal a terminal sends), then waits for `until`. */
  async interrupt(until: RegExp): Promise<string> {
    this.mark = this.output.length;
    this.child.kill('SIGINT');
    return this.waitFor(until);
  }

  /** Resolves with the exit code. */
  exit(): Promise<number | null> {
    return this.exited;
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

    // History says the seqs of each message's rows: what /fork takes.
    out = await chat.say('/history', /You said/);
    const seqs = /you ▸ hello there {2}· seq 1\nagent {2}· seqs 2–(\d+)\n {2}┊ thinking/.exec(out);
    expect(seqs, out).not.toBeNull();

    // The latest turn, read by its id: the user's message and the answer, from seq 1.
    out = await chat.say('/turn', /You said/);
    const turnId = /turn (\S+): (\d+) rows, seqs 1–(\d+)/.exec(out);
    expect(turnId?.[2]).toBe(turnId?.[3]);
    expect(turnId?.[3]).toBe(seqs?.[1]);
    expect(out).toMatch(/you ▸ hello there {2}· seq 1\nagent {2}· seqs 2–\d+\n {2}┊ thinking/);
    out = await chat.say(`/turn ${turnId?.[1]}`, /You said/);
    expect(out).toContain(`turn ${turnId?.[1]}: ${turnId?.[2]} rows`);
    out = await chat.say('/turn nope', /no turn/);
    expect(out).toContain('no turn "nope" in this thread');

    // A slow tool (30 s: a margin no load reaches): cancel it while it runs.
    out = await chat.say('slow 30', /⇢ slow_job/);
    expect(out).toContain('⚙ slow_job {"seconds":30}');
    out = await chat.say('/cancel', /╰ ended/);
    expect(out).toContain('── cancelled ── cancelled from the terminal');

    // Steer a running turn: the message joins it at the next step.
    await chat.say('slow 8', /⇢ slow_job/); // 8 s: the steer arrives while it runs
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

    // A fork point that is not a seq says what a seq is, and forks nothing.
    out = await chat.say('/fork abc', /\/fork alone forks them all/);
    expect(out).toContain('/fork takes a seq: the number of a row in this thread');
    expect(out).not.toContain('error:');

    out = await chat.say('/fork', /now on thread/);
    const match = /forked "main" at seq (\d+) into "([^"]+)"/.exec(out);
    expect(match).not.toBeNull();
    forkId = match?.[2] as string;
    expect(out).toContain(`now on thread "${forkId}" (${match?.[1]} rows`);

    out = await chat.say('on the fork', /You said: “on the fork”[\s\S]*╰ stop/);
    expect(await chat.quit()).toBe(0);
    expect(chat.output).not.toContain('[stderr]');
    expect(chat.output).not.toContain('error:');
  });

  it('Ctrl-C cancels the running turn, then leaves; a queued message says so at once, on a line of its own', async () => {
    const chat = new Chat(['--db', join(temp.dir, 'interrupt.db'), '--thread', 'ctrl-c'], {
      CHUNKLOG_CLI_PROMPT: '1',
    });
    await chat.waitFor(/on thread "ctrl-c"/);
    // While the slow tool runs: a steer and a message are both answered at once, not when the
    // tool ends (the tool's "100% done" comes later).
    await chat.say('slow 30', /⇢ slow_job/);
    let out = await chat.say('/steer be brief', /\(steering: it joins the running turn/);
    out = await chat.say('and then?', /\(queued: it runs after this turn\)/);
    expect(out).not.toContain('100% done');
    // Ctrl-C stops the running turn, which is stored with its cancelled notice; the queued
    // message runs after it.
    out = await chat.interrupt(/── cancelled ── cancelled with Ctrl-C/);
    out = await chat.waitFor(/You said: “and then\?”[\s\S]*╰ stop/);
    // The queued turn's output never starts on the prompt's line.
    expect(chat.output).not.toMatch(/you ▸ (?!\r)[^\n]*(┊|⚙|You said|╰)/);
    // /switch to a thread that does not exist says so.
    out = await chat.say('/switch nope', /now on thread "nope"/);
    expect(out).toContain('no thread "nope" yet: it is created by its first message');
    // Ctrl-C with nothing running leaves.
    chat.child.kill('SIGINT');
    expect(await chat.exit()).toBe(0);
    expect(chat.output).not.toContain('[stderr]');
    const store = createChunkStore({ sqlite: join(temp.dir, 'interrupt.db') });
    try {
      const rows = await store.getRows('ctrl-c');
      expect(rows.some((r) => r.type === 'system' && r.data.kind === 'cancelled')).toBe(true);
      await expect(store.getThread('nope')).rejects.toMatchObject({ code: 'thread-not-found' });
    } finally {
      await store.close();
    }
  });

  it('resumes after a restart: the same thread, its history, and the next turn sees it', async () => {
    const chat = new Chat(['--db', db]);
    // The most recently active thread is the fork.
    const start = await chat.waitFor(/You said: “on the fork”/);
    expect(start).toContain(`on thread "${forkId}"`);

    let out = await chat.say('/history 100', /on the fork[\s\S]*agent/);
    expect(out).toContain('you ▸ hello there  · seq 1');
    expect(out).toContain('── cancelled ── cancelled from the terminal');
    expect(out).toContain('⚙ slow_job {"seconds":30} (no result)');

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
      expect(userTexts).toEqual([
        'hello there',
        'slow 30',
        'slow 8',
        'weather Oslo',
        'and after that?',
      ]);
      const steering = main.flatMap((m) => m.chunks).filter((c) => c.type === 'steering');
      expect(steering.map((c) => (c.type === 'steering' ? c.text : ''))).toEqual(['keep it short']);
      const fork = await store.getMessages(forkId);
      expect(fork.filter((m) => m.role === 'user')).toHaveLength(6);
    } finally {
      await store.close();
    }
  });
});
