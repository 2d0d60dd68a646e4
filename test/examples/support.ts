// Helpers for the example tests: the examples import `chunklog` by name, which resolves to the
// built `dist/`, so the tests build it once when it is missing; and they run examples as a user
// would, with tsx in a child process.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

export const ROOT: string = resolve(import.meta.dirname, '../..');

/**
 * Builds `dist/` when it is missing or older than `src/` (`examples/build-if-stale.mjs`, which
 * `npm run demo` and the `example:*` scripts run too). Several test files may ask at once: one
 * builds under a lock directory, the others wait for it.
 */
export function ensureBuilt(): void {
  mkdirSync(join(ROOT, '.tmp'), { recursive: true });
  const lock = join(ROOT, '.tmp', 'build.lock');
  const deadline = Date.now() + 180_000;
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch {
      // A lock older than three minutes was left by a killed run.
      const since = statSync(lock, { throwIfNoEntry: false })?.mtimeMs ?? Date.now();
      if (Date.now() - since > 180_000) rmSync(lock, { recursive: true, force: true });
      if (Date.now() > deadline)
        throw new Error('timed out waiting for another test to build dist/');
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 250);
    }
  }
  try {
    execFileSync(process.execPath, [join(ROOT, 'examples/build-if-stale.mjs')], {
      cwd: ROOT,
      stdio: 'ignore',
    });
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

/** A fresh temporary directory, removed by the returned function. */
export function tempDir(prefix: string): { dir: string; remove: () => void } {
  const dir = mkdtempSync(join(tmpdir(), `chunklog-${prefix}-`));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** The environment an example runs in: no provider keys (so it stays offline), no colours. */
export function exampleEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1' };
  delete env.ANTHROPIC_API_KEY;
  delete env.OPENAI_API_KEY;
  delete env.FORCE_COLOR;
  return { ...env, ...extra };
}

export interface RunResult {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs `tsx <script> ...args` from the repository root and collects its output. */
export function runExample(
  script: string,
  args: readonly string[] = [],
  options: { env?: NodeJS.ProcessEnv; timeoutMs?: number } = {},
): Promise<RunResult> {
  return new Promise((resolvePromise, reject) => {
    const child = spawnExample(script, args, options.env);
    let stdout = '';
    let stderr = '';
    child.stdout?.on('data', (data: Buffer) => {
      stdout += data.toString();
    });
    child.stderr?.on('data', (data: Buffer) => {
      stderr += data.toString();
    });
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${script} timed out\nstdout:\n${stdout}\nstderr:\n${stderr}`));
    }, options.timeoutMs ?? EXAMPLE_TIMEOUT_MS);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolvePromise({ code, stdout, stderr });
    });
  });
}

/**
 * Starts `node --import tsx <script> ...args` with pipes: one process (the tsx command would
 * start a second), so that a signal sent to it reaches the example itself, and a busy machine
 * starts one Node.js instead of two.
 */
export function spawnExample(
  script: string,
  args: readonly string[] = [],
  env: NodeJS.ProcessEnv = exampleEnv(),
): ChildProcess {
  return spawn(process.execPath, ['--import', 'tsx', script, ...args], {
    cwd: ROOT,
    env,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
}

/**
 * How long an example test may wait for something that must happen: a margin that load
 * cannot reach (the suite runs on a busy 2-core machine), never a measure of speed. Give it to
 * `vi.setConfig` in every example test file.
 */
export const EXAMPLE_TIMEOUT_MS = 300_000;
