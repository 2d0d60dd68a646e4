// The README's quick start, run as a user would: in an empty directory, offline.

import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, expect, it, vi } from 'vitest';
import { EXAMPLE_TIMEOUT_MS, ensureBuilt, exampleEnv, ROOT, tempDir } from './support.js';

// Waits are margins load cannot reach, not measures of speed (see EXAMPLE_TIMEOUT_MS).
vi.setConfig({ testTimeout: EXAMPLE_TIMEOUT_MS, hookTimeout: EXAMPLE_TIMEOUT_MS });

beforeAll(() => ensureBuilt());

it('streams the answer, prints the three stored rows and the next model input', () => {
  const temp = tempDir('quick-start');
  try {
    const result = spawnSync(
      join(ROOT, 'node_modules/.bin/tsx'),
      [join(ROOT, 'examples/quick-start/main.ts')],
      { cwd: temp.dir, env: exampleEnv(), encoding: 'utf8', timeout: EXAMPLE_TIMEOUT_MS },
    );
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    const lines = result.stdout.split('\n');
    expect(lines.slice(0, 4)).toEqual([
      'Hello!',
      '1 user text {"text":"Hi there"}',
      '2 assistant thinking {"text":"The user greets me.","id":"0-0","providerMetadata":{"anthropic":{"signature":"sig-0-0"}},"modelId":"scripted-model"}',
      '3 assistant text {"text":"Hello!","id":"0-1"}',
    ]);
    expect(result.stdout).toContain(
      "{ role: 'user', content: [ { type: 'text', text: 'And now?' } ] }",
    );
    expect(existsSync(join(temp.dir, 'chat.db'))).toBe(true);
  } finally {
    temp.remove();
  }
});
