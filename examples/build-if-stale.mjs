// Builds chunklog's dist/ (with `tsup --silent`) when it is missing or older than the sources,
// so that `npm run demo` and `npm run example:*` stay quick on the second run. The examples
// import `chunklog` by name, which resolves to dist/ (notes/0015).
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');
const entries = ['index', 'store/index', 'session/index', 'window/index', 'testing/index'].map(
  (entry) => join(root, 'dist', `${entry}.d.ts`),
);

function newest(path) {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let time = stat.mtimeMs;
  for (const name of readdirSync(path)) time = Math.max(time, newest(join(path, name)));
  return time;
}

const built = entries.every((file) => existsSync(file))
  ? Math.min(...entries.map((file) => statSync(file).mtimeMs))
  : -1;
const sources = Math.max(
  newest(join(root, 'src')),
  ...['package.json', 'tsup.config.ts', 'tsconfig.json'].map(
    (f) => statSync(join(root, f)).mtimeMs,
  ),
);
if (built < sources) {
  process.stderr.write('building chunklog (dist/)…\n');
  execFileSync(join(root, 'node_modules', '.bin', 'tsup'), ['--silent'], {
    cwd: root,
    stdio: 'inherit',
  });
}
