// Checks the packed tarball the way a user receives it:
//   1. publint (package.json exports, files, types);
//   2. are-the-types-wrong (every subpath's types resolve; ESM-only profile);
//   3. a smoke test that installs the tarball in a scratch project and imports every subpath
//      from ESM and through Node's require(esm) from CommonJS;
//   4. the core entry, chunklog/window and chunklog/react bundle for a browser (no Node built-ins,
//      no drivers), each within its gzipped size limit (BROWSER_BUNDLES), the window and react
//      ones without classic zod; and chunklog/react renders on a server (react-dom/server)
//      without a DOM.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';

// What `export * from '<entry>'` costs a browser app: minified ESM, gzipped (level 9), React
// external (the app's own copy). The window and react bundles validate with zod/mini; the
// public `…Schema` exports (classic zod views, src/schema/classic-view.ts) must not reach them.
const BROWSER_BUNDLES = [
  // Mostly the AI SDK (`ai`, for the two UI-message helpers) and classic zod (the public
  // schemas): a guard against regressions, not a target.
  { entry: 'chunklog', limit: 215_000, classicZod: true },
  { entry: 'chunklog/window', limit: 30_000, classicZod: false },
  { entry: 'chunklog/react', limit: 35_000, classicZod: false },
];
const bytes = (n) => n.toLocaleString('en-US');

const root = resolve(import.meta.dirname, '..');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const subpaths = Object.keys(pkg.exports).filter((p) => p !== './package.json');
const run = (cmd, args, options = {}) =>
  execFileSync(cmd, args, { cwd: root, stdio: 'inherit', ...options });

const scratch = mkdtempSync(join(tmpdir(), 'chunklog-pack-'));
try {
  const tarball = execFileSync(
    'npm',
    ['pack', '--silent', '--ignore-scripts', '--pack-destination', scratch],
    {
      cwd: root,
      encoding: 'utf8',
    },
  )
    .trim()
    .split('\n')
    .pop();
  const tarPath = join(scratch, tarball);
  console.log(`packed ${tarball}`);

  run(join(root, 'node_modules/.bin/publint'), ['run', '--strict', '--pack', 'false', tarPath], {
    cwd: root,
  });
  run(join(root, 'node_modules/.bin/attw'), [
    tarPath,
    '--profile',
    'esm-only',
    '--format',
    'table-flipped',
  ]);

  // Scratch project: the tarball unpacked as node_modules/chunklog, peers linked from ours.
  const project = join(scratch, 'project');
  const modules = join(project, 'node_modules');
  mkdirSync(join(modules, 'chunklog'), { recursive: true });
  execFileSync('tar', ['-xzf', tarPath, '-C', join(modules, 'chunklog'), '--strip-components=1']);
  for (const dep of [
    'ai',
    'zod',
    'kysely',
    'better-sqlite3',
    'pg',
    'mysql2',
    '@ai-sdk',
    '@opentelemetry',
    '@standard-schema',
    '@vercel',
    'eventsource-parser',
    'bindings',
    'file-uri-to-path',
    'react',
    'react-dom',
    'scheduler',
  ]) {
    const target = join(root, 'node_modules', dep);
    try {
      symlinkSync(target, join(modules, dep), 'dir');
    } catch {
      // not installed: that peer is optional
    }
  }
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'smoke', private: true }));
  const esm = subpaths
    .map(
      (p, i) =>
        `import * as m${i} from '${join('chunklog', p)}'; console.log('esm ${p}', Object.keys(m${i}).length);`,
    )
    .join('\n');
  writeFileSync(join(project, 'esm.mjs'), esm);
  const cjs = subpaths
    .map((p) => `console.log('cjs ${p}', Object.keys(require('${join('chunklog', p)}')).length);`)
    .join('\n');
  writeFileSync(join(project, 'cjs.cjs'), cjs);
  run(process.execPath, ['esm.mjs'], { cwd: project });
  run(process.execPath, ['cjs.cjs'], { cwd: project });

  // Browser: bundle the browser-safe entries with platform=browser; any Node built-in or
  // database driver import fails the build, and so does a bundle over its size limit.
  const esbuild = await import('esbuild');
  const problems = [];
  for (const { entry, limit, classicZod } of BROWSER_BUNDLES) {
    const result = await esbuild.build({
      stdin: { contents: `export * from '${entry}';`, resolveDir: project },
      bundle: true,
      platform: 'browser',
      format: 'esm',
      minify: true,
      write: false,
      metafile: true,
      logLevel: 'silent',
      external: ['react'], // the app's own copy
    });
    const inputs = Object.keys(result.metafile.inputs);
    const bad = inputs.filter((i) => /node:|better-sqlite3|\/pg\/|mysql2|kysely/.test(i));
    if (bad.length > 0)
      throw new Error(
        `${entry} pulls server-only modules into a browser bundle: ${bad.join(', ')}`,
      );
    // What each module left in the bundle after tree shaking (inputs lists them all).
    const [output] = Object.values(result.metafile.outputs);
    const used = Object.entries(output.inputs)
      .filter(([, input]) => input.bytesInOutput > 0)
      .map(([path, input]) => [path.replace(/^.*node_modules\//, ''), input.bytesInOutput]);
    const zodBytes = used
      .filter(([path]) => path.startsWith('zod/'))
      .reduce((sum, [, size]) => sum + size, 0);
    const minified = result.outputFiles[0].contents;
    const gzipped = gzipSync(minified, { level: 9 }).length;
    console.log(
      `browser bundle ${entry}: ${bytes(gzipped)} bytes gzipped (limit ${bytes(limit)}), ` +
        `${bytes(minified.length)} minified, of which zod ${bytes(zodBytes)}; ${used.length} modules`,
    );
    if (gzipped > limit)
      problems.push(`${entry} is ${bytes(gzipped)} bytes gzipped, over its ${bytes(limit)}`);
    const classic = used.filter(([path]) => path.startsWith('zod/v4/classic/'));
    if (!classicZod && classic.length > 0)
      problems.push(
        `${entry} carries classic zod (${classic.map(([path]) => path).join(', ')}): a public ` +
          '…Schema export is used where its zod/mini definition should be, or a classic view is ' +
          'not built as /* @__PURE__ */ classicView(…) (src/schema/classic-view.ts)',
      );
  }
  if (problems.length > 0) throw new Error(`browser bundles:\n  ${problems.join('\n  ')}`);

  // chunklog/react on a server: importing it and rendering a component that uses the hooks
  // touches no browser global (this Node process has no window, document or EventSource).
  writeFileSync(
    join(project, 'ssr.mjs'),
    `import { createElement } from 'react';
import { renderToString } from 'react-dom/server';
import { useChunkThread } from 'chunklog/react';
function Chat() {
  const thread = useChunkThread({ threadId: 't1', basePath: '/api' });
  return createElement('p', null, thread.turn.status + ' ' + thread.snapshot.groups.length);
}
const html = renderToString(createElement(Chat));
if (html !== '<p>idle 0</p>') throw new Error('unexpected server render: ' + html);
console.log('server render chunklog/react:', html);
`,
  );
  run(process.execPath, ['ssr.mjs'], { cwd: project });

  // The bin: `chunklog --help` from the installed package.
  const help = execFileSync(process.execPath, [join(modules, 'chunklog', pkg.bin.chunklog)], {
    encoding: 'utf8',
  });
  for (const command of ['chunklog inspect <db>', 'chunklog export <db>', 'chunklog import <db>']) {
    if (!help.includes(command)) throw new Error(`--help does not name ${command}: ${help}`);
  }
  console.log('bin chunklog: prints its usage (inspect, export, import)');
  console.log('package checks passed');
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
