import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'examples/**/*.test.ts'],
    setupFiles: ['test/support/fail-on-console.ts', 'test/support/property-seed.ts'],
    typecheck: { enabled: true, include: ['test/**/*.test-d.ts'], tsconfig: './tsconfig.json' },
    // A timeout guards against a hang, not a slow machine: under scripts/stress-test.sh (four
    // busy loops on two cores, beside other jobs) a pure property test took 33 s, past the 30 s
    // this was: it fails only when it never ends.
    testTimeout: 120_000,
    // expect.poll waits for a state, not for a time: on a loaded machine (scripts/stress-test.sh)
    // a state reached in 50 ms when idle can take seconds, so the default 1 s would fail there.
    expect: { poll: { timeout: 20_000 } },
    hookTimeout: 180_000,
    pool: 'forks',
  },
});
