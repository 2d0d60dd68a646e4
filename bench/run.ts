// `npm run bench`: runs every bench/*.bench.ts (or those named on the command line) and prints a
// summary of the limits each figure is held to. Figures are ratios measured side by side.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { allComparisons } from './harness.js';

const dir = import.meta.dirname;
const wanted = process.argv.slice(2);
const files = readdirSync(dir)
  .filter((f) => f.endsWith('.bench.ts'))
  .filter((f) => wanted.length === 0 || wanted.some((w) => f.includes(w)))
  .sort();
for (const file of files) {
  console.log(`\n### ${file}`);
  await import(pathToFileURL(join(dir, file)).href);
}
const verdicts = allComparisons().flatMap((c) => c.verdicts.map((v) => ({ title: c.title, ...v })));
console.log('\n### summary');
for (const v of verdicts)
  console.log(`${v.ok ? 'PASS' : 'MISS'}  ${v.title}: ${v.text.trim().slice(5)}`);
const missed = verdicts.filter((v) => !v.ok).length;
console.log(`${verdicts.length - missed}/${verdicts.length} limits met`);
if (missed > 0 && process.env.BENCH_STRICT === '1') process.exitCode = 1;
