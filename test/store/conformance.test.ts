import * as vitest from 'vitest';
import { afterAll } from 'vitest';
import { createMemoryKeyProvider } from '../../src/store/index.js';
import { describeChunkStore } from '../../src/testing/index.js';
import { availableDialects, createHarness, type DialectHarness } from './support/dialects.js';

// Every suite runs on every dialect twice: in clear, and with encryption at rest (its own
// tables, so that the two runs share no rows).
const harnesses: DialectHarness[] = [];
for (const name of ['sqlite', 'postgres', 'mysql'] as const) {
  const available = (await availableDialects()).includes(name);
  for (const encrypted of [false, true]) {
    const harness = available ? createHarness(name) : undefined;
    if (harness) harnesses.push(harness);
    const options = encrypted ? { encryption: { keys: createMemoryKeyProvider() } } : {};
    describeChunkStore(
      encrypted ? `${name}, encrypted` : name,
      () => (harness as DialectHarness).openStore(options),
      { api: vitest, skip: !available },
    );
  }
}

afterAll(async () => {
  for (const h of harnesses) await h.dispose();
});
