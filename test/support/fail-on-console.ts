import { afterEach, beforeEach } from 'vitest';

// A test fails on any stray console output: library code must never log, and a test that
// prints is usually hiding a problem. Tests that expect output spy on console themselves.
const methods = ['log', 'info', 'warn', 'error', 'debug', 'trace'] as const;
const originals = new Map<string, (...args: unknown[]) => void>();
let calls: string[] = [];

beforeEach(() => {
  calls = [];
  for (const method of methods) {
    originals.set(method, console[method]);
    console[method] = (...args: unknown[]) => {
      calls.push(`console.${method}: ${args.map(String).join(' ')}`);
    };
  }
});

afterEach(() => {
  for (const method of methods) {
    const original = originals.get(method);
    if (original) console[method] = original;
  }
  if (calls.length > 0) {
    const printed = calls.join('\n');
    calls = [];
    throw new Error(`Unexpected console output:\n${printed}`);
  }
});
