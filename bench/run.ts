// `npm run bench`: runs every bench/*.bench.ts (or those named on the command line), each in a
// fresh Node.js process so that one file's heap and JIT state cannot skew another's figures, and
// prints a summary of the limits each figure is held to. Figures are ratios measured side by side
// within one process (see harness.ts).
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { allComparisons } from './harness.js';

const RESULT = 'BENCH_RESULT ';
const dir = import.meta.dirname;

interface Verdict {
  readonly title: string;
  readonly ok: boolean;
  readonly text: string;
}

if (process.env.BENCH_CHILD !== undefined) {
  // One file, in this process; the verdicts go to the parent on one line.
  await import(pathToFileURL(join(dir, process.env.BENCH_CHILD)).href);
  const verdicts: Verdict[] = allComparisons().flatMap((c) =>
    c.verdicts.map((v) => ({ title: c.title, ok: v.ok, text: v.text })),
  );
  console.log(`${RESULT}${JSON.stringify(verdicts)}`);
} else {
  const wanted = process.argv.slice(2);
  const files = readdirSync(dir)
    .filter((f) => f.endsWith('.bench.ts'))
    .filter((f) => wanted.length === 0 || wanted.some((w) => f.includes(w)))
    .sort();
  const verdicts: Verdict[] = [];
  for (const file of files) {
    console.log(`\n### ${file}`);
    const child = spawnSync(process.execPath, [...process.execArgv, import.meta.filename], {
      env: { ...process.env, BENCH_CHILD: file },
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'inherit'],
      maxBuffer: 64 * 1024 * 1024,
    });
    for (const line of child.stdout.split('\n')) {
      if (line.startsWith(RESULT))
        verdicts.push(...(JSON.parse(line.slice(RESULT.length)) as Verdict[]));
      else if (line !== '') console.log(line);
    }
    if (child.status !== 0) {
      console.log(`  ${file} failed (exit ${child.status ?? child.signal})`);
      verdicts.push({
        title: file,
        ok: false,
        text: `     the bench exited with ${child.status ?? child.signal}`,
      });
    }
  }
  console.log('\n### summary');
  for (const v of verdicts)
    console.log(`${v.ok ? 'PASS' : 'MISS'}  ${v.title}: ${v.text.trim().slice(5)}`);
  const missed = verdicts.filter((v) => !v.ok).length;
  console.log(`${verdicts.length - missed}/${verdicts.length} limits met`);
  if (missed > 0 && process.env.BENCH_STRICT === '1') process.exitCode = 1;
}
