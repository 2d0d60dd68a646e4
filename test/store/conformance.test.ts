import * as vitest from 'vitest';
import { afterAll } from 'vitest';
import { describeChunkStore } from '../../src/testing/index.js';
import { availableDialects, createHarness, type DialectHarness } from './support/dialects.js';

const harnesses: DialectHarness[] = [];
for (const name of ['sqlite', 'postgres', 'mysql'] as const) {
  const available = (await availableDialects()).includes(name);
  const harness = available ? createHarness(name) : undefined;
  if (harness) harnesses.push(harness);
  describeChunkStore(name, () => (harness as DialectHarness).openStore(), {
    api: vitest,
    skip: !available,
  });
}

afterAll(async () => {
  for (const h of harnesses) await h.dispose();
});
