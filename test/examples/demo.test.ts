// `npm run demo`, as a newcomer runs it: offline, on a fresh SQLite file. (How fast it runs is
// not asserted here: a busy machine may run it slowly and still be right.)
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { createChunkStore } from 'chunklog/store';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  EXAMPLE_TIMEOUT_MS,
  ensureBuilt,
  exampleEnv,
  ROOT,
  type RunResult,
  tempDir,
} from './support.js';

// Waits are margins load cannot reach, not measures of speed (see EXAMPLE_TIMEOUT_MS).
vi.setConfig({ testTimeout: EXAMPLE_TIMEOUT_MS, hookTimeout: EXAMPLE_TIMEOUT_MS });

const temp = tempDir('demo');
beforeAll(() => ensureBuilt());
afterAll(() => temp.remove());

function npmRunDemo(env: NodeJS.ProcessEnv): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = spawn('npm', ['run', '--silent', 'demo'], { cwd: ROOT, env });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (data: Buffer) => {
      stdout += data.toString();
    });
    child.stderr.on('data', (data: Buffer) => {
      stderr += data.toString();
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** Asserts that each text occurs in `out`, in this order. */
function expectInOrder(out: string, texts: readonly string[]): void {
  let from = 0;
  for (const text of texts) {
    const at = out.indexOf(text, from);
    expect(at, `"${text}" after position ${from}`).toBeGreaterThanOrEqual(0);
    from = at + text.length;
  }
}

describe('npm run demo', () => {
  it('renders the turn live, then the stored rows page by page and the next model input', async () => {
    // On a fresh clone: the database's folder does not exist yet.
    const db = join(temp.dir, 'not-yet', 'demo.db');
    const { code, stdout, stderr } = await npmRunDemo(exampleEnv({ CHUNKLOG_DEMO_DB: db }));
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(stdout).not.toContain('\u001b['); // NO_COLOR: no ANSI codes at all
    expect(existsSync(db)).toBe(true);

    const [live, rest = ''] = stdout.split('━━ stored rows');
    expectInOrder(live as string, [
      'model: scripted, offline',
      'you ▸ What is the weather in Paris',
      '┊ thinking  The user wants the weather',
      'Let me check the weather and the headlines together.',
      '⚙ weather {"city":"Paris"}',
      '⚙ headlines {"city":"Paris"}',
      '── model-changed ── Switched from claude-opus-demo to claude-sonnet-demo (rate limit, HTTP 429)',
      '┊ thinking  Sunny and 21°C',
      "It's 21°C and sunny in Paris",
      '╰ stop',
      'you ▸ And tomorrow?',
      // The fallback was tried, and failed too: the switch is recorded, then its error.
      '── model-changed ── Switched from claude-opus-demo to claude-sonnet-demo (overloaded, HTTP 503)',
      // The error names the model that failed and says what to do.
      '✖ Error from anthropic claude-sonnet-demo (HTTP 503): Overloaded, try again later — the provider is overloaded: wait a moment, then send again',
      '── config-reload ── Tool settings reloaded.',
    ]);
    // Both tools ran at once and streamed progress text, each line in its order, and each
    // ended with its result: the second tool's first line came before the first tool's result.
    expectInOrder(live as string, [
      '⚙ headlines {"city":"Paris"}',
      '⇢ weather locating Paris…',
      '⇢ weather reading the nearest station…',
      '✓ weather {"city":"Paris","celsius":21',
    ]);
    expectInOrder(live as string, [
      '⚙ headlines {"city":"Paris"}',
      '⇢ headlines fetching the front page…',
      '⇢ headlines ranking 2 stories…',
      '✓ headlines {"city":"Paris","headlines"',
    ]);
    expect((live as string).indexOf('⇢ headlines fetching')).toBeLessThan(
      (live as string).indexOf('✓ weather'),
    );
    expect((live as string).indexOf('⇢ weather locating')).toBeLessThan(
      (live as string).indexOf('⇢ headlines ranking'),
    );

    const [pages, input = ''] = rest.split('━━ model input for the next call');
    expectInOrder(pages as string, [
      '(14 rows)',
      'page 1  getChunks({ limit: 6 })  seqs 9–14 of 14, hasMore: true',
      'page 2  getChunks({ limit: 6, before: 9 })  seqs 3–8 of 14, hasMore: true',
      'page 3  getChunks({ limit: 6, before: 3 })  seqs 1–2 of 14, hasMore: false',
    ]);
    // The progress text is stored with each call's result.
    expect(pages).toMatch(
      /6\s+tool\s+tool_result\s+weather → .* progress="locating Paris… reading/,
    );
    expect(pages).toMatch(
      /7\s+tool\s+tool_result\s+headlines → .* progress="fetching the front page…/,
    );
    expect(pages).toMatch(/12\s+assistant\s+system\s+\[model-changed\] Switched/);
    expect(pages).toMatch(
      /13\s+assistant\s+error\s+Error from anthropic claude-sonnet-demo \(HTTP 503\): Overloaded/,
    );
    expect(pages).toMatch(/14\s+system\s+system\s+\[config-reload\]/);

    // The next input: no notices, no errors, no progress text, no thinking signed by a model
    // before the last switch (the second turn's); tool calls with their results; cache breakpoints.
    expect(input).not.toMatch(
      /Switched|Overloaded|settings reloaded|The user wants|Sunny and|locating|front page/,
    );
    expectInOrder(input, [
      'user      text        "What is the weather in Paris',
      'assistant tool-call   weather(',
      'assistant tool-call   headlines(',
      'tool      tool-result weather →',
      'tool      tool-result headlines →',
      'assistant text        "It\'s 21°C and sunny in Paris',
      'user      text        "And tomorrow?"',
      'user      text        "Thanks! Let’s try again: and tomorrow?" ⚑ cache',
    ]);
  });

  it('leaves the turn in .tmp/demo.db, in order, and colours the terminal when asked to', async () => {
    const { code, stdout } = await npmRunDemo(exampleEnv({ NO_COLOR: '', FORCE_COLOR: '1' }));
    expect(code).toBe(0);
    expect(stdout).toContain('\u001b[2m  ┊ thinking'); // thinking dimmed
    expect(stdout).toContain('\u001b[31m  ✖ Error from anthropic'); // errors in red
    expect(stdout).toContain('\u001b[33m  ── model-changed'); // notices as separators

    const store = createChunkStore({ sqlite: `${ROOT}/.tmp/demo.db` });
    try {
      const rows = await store.getRows('demo');
      expect(
        rows.filter((row) => row.type === 'tool_result').map((row) => row.data.progress),
      ).toEqual([
        'locating Paris…\nreading the nearest station…\n',
        'fetching the front page…\nranking 2 stories…\n',
      ]);
      expect(rows.map((row) => `${row.role}:${row.type}`)).toEqual([
        'user:text',
        'assistant:thinking',
        'assistant:text',
        'assistant:tool_call',
        'assistant:tool_call',
        'tool:tool_result',
        'tool:tool_result',
        'assistant:system',
        'assistant:thinking',
        'assistant:text',
        'user:text',
        'assistant:system',
        'assistant:error',
        'system:system',
      ]);
      expect(rows.map((row) => row.seq)).toEqual(rows.map((_, i) => i + 1));
    } finally {
      await store.close();
    }
  });
});
