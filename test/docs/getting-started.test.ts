// docs/getting-started.md verbatim, from an empty folder, on the Node.js that runs the suite (CI
// runs it on 20 and on 22): the packed tarball and the page's install lines in one npm install,
// then each file of the page as it is printed there: the quick start and the tools (output as
// the page shows it), the provider (without a key: the provider's own error, so the v4 models
// were accepted), the server (it serves the thread, the page and the bundled client) and the
// client (it bundles for a browser; in Chromium, the page shows the thread and sends from its box).
import { type ChildProcess, execFileSync, spawn, spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, openPage } from '../examples/browser.js';
import { ensureBuilt, exampleEnv, ROOT, tempDir } from '../examples/support.js';
import { chromiumAvailable, npmRegistryAvailable } from '../support/services.js';
import { installedBy, readPage } from './snippets/extract.js';

const page = readPage(ROOT, 'docs/getting-started.md');
const blocks = [...page.matchAll(/^```(\w*)\n([\s\S]*?)^```/gm)].map((m) => ({
  lang: m[1] as string,
  code: m[2] as string,
}));
const files = ['quick-start.ts', 'tools.ts', 'provider.ts', 'server.ts', 'client.ts'];
const sources = blocks.filter((b) => b.lang === 'ts').map((b) => b.code);
const outputs = blocks.filter((b) => b.lang === '').map((b) => b.code);
const online = npmRegistryAvailable();
const temp = tempDir('getting-started');
const dir = temp.dir;
let server: ChildProcess | undefined;
let serverUrl = '';

const run = (command: string, args: string[], timeout = 120_000) =>
  execFileSync(command, args, { cwd: dir, env: exampleEnv(), encoding: 'utf8', timeout });
const tsx = (file: string) => run(join(dir, 'node_modules/.bin/tsx'), [file]);

beforeAll(() => {
  if (!online) return;
  ensureBuilt();
  const tarball = execFileSync(
    'npm',
    ['pack', '--silent', '--ignore-scripts', '--pack-destination', dir],
    {
      cwd: ROOT,
      encoding: 'utf8',
    },
  )
    .trim()
    .split('\n')
    .pop() as string;
  // The page's first command, as printed.
  const setup = /^npm init -y && npm pkg set type=module$/m.exec(page);
  expect(setup, 'getting started begins with npm init').not.toBeNull();
  run('npm', ['init', '-y']);
  run('npm', ['pkg', 'set', 'type=module']);
  // Every install line of the page in one install, chunklog being the packed tarball.
  const packages = [...installedBy(page)].map((name) =>
    name === 'chunklog'
      ? join(dir, tarball)
      : (new RegExp(` (${name.replace('/', '\\/')}@[^\\s\`]+)`).exec(page)?.[1] ?? name),
  );
  // One install: better-sqlite3 builds from source here (a minute or two on a busy machine).
  run('npm', ['install', '--no-audit', '--no-fund', ...packages], 540_000);
  sources.forEach((code, i) => {
    writeFileSync(join(dir, files[i] as string), code);
  });
}, 600_000);

afterAll(() => {
  server?.kill('SIGTERM');
  temp.remove();
});

describe.skipIf(!online)('getting started, verbatim, from an empty folder', () => {
  it('has the files the page names, and installs the majors it names', () => {
    expect(sources).toHaveLength(files.length);
    const installed = JSON.parse(readPage(dir, 'package.json')).dependencies as Record<
      string,
      string
    >;
    expect(installed.ai).toMatch(/^\^7\./);
    expect(installed['@ai-sdk/anthropic']).toMatch(/^\^4\./);
    expect(installed.chunklog).toMatch(/^file:/);
  });

  it('runs the quick start as printed', () => {
    const printed = (outputs[0] as string).split('\n').slice(0, 4);
    const out = tsx('quick-start.ts').split('\n');
    expect(out.slice(0, 4)).toEqual(printed);
  });

  it('runs the tools and the fallback as printed', () => {
    expect(tsx('tools.ts')).toBe(outputs[1]);
  });

  it('accepts the provider’s models (v4) and reports the missing key as the provider does', () => {
    const child = spawnSync(join(dir, 'node_modules/.bin/tsx'), ['provider.ts'], {
      cwd: dir,
      env: exampleEnv(),
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(child.status).toBe(0);
    expect(child.stderr).toContain('error: Anthropic API key is missing.');
    expect(child.stderr).not.toContain('v4');
  });

  it('serves the thread from server.ts', async () => {
    server = spawn(join(dir, 'node_modules/.bin/tsx'), ['server.ts'], {
      cwd: dir,
      env: exampleEnv({ PORT: '0' }),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const url = await new Promise<string>((resolve, reject) => {
      let out = '';
      server?.stdout?.on('data', (data: Buffer) => {
        out += data.toString();
        const match = /listening on (http:\/\/\S+)/.exec(out);
        if (match) resolve(match[1] as string);
      });
      server?.on('close', (code) => reject(new Error(`server.ts exited with ${code}: ${out}`)));
    });
    const sent = await fetch(`${url}/threads/hello/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ text: 'Hi' }),
    });
    expect(sent.status).toBe(202);
    await expect
      .poll(async () => {
        const page = (await (await fetch(`${url}/threads/hello/chunks?limit=10`)).json()) as {
          chunks: Array<{ data: { text?: string } }>;
        };
        return page.chunks.map((row) => row.data.text);
      })
      .toContain('Hello from the server!');
    expect((await fetch(`${url}/threads/other/chunks`)).status).toBe(403);
    // The page the section talks about, and its script: client.ts, bundled by the server.
    const html = await (await fetch(`${url}/`)).text();
    expect(html).toContain('<form id="composer">');
    expect(html).toContain('<script type="module" src="/client.js">');
    const script = await fetch(`${url}/client.js`);
    expect(script.headers.get('content-type')).toContain('javascript');
    expect(await script.text()).toContain('/threads/');
    serverUrl = url;
  }, 60_000);

  it.skipIf(!chromiumAvailable())(
    'the page shows the thread and sends what is typed in its box (Chromium)',
    async () => {
      expect(serverUrl, 'server.ts is running').not.toBe('');
      const browser = await launchChromium();
      try {
        const { page, problems } = await openPage(browser, `${serverUrl}/`);
        const answers = page.locator('#log p', { hasText: 'assistant: Hello from the server!' });
        await expect.poll(() => answers.count()).toBe(1); // the turn posted above, from the store
        await page.fill('#text', 'Hi from the page');
        await page.press('#text', 'Enter');
        await expect.poll(() => page.textContent('#log')).toContain('user: Hi from the page');
        await expect.poll(() => answers.count()).toBe(2);
        expect(problems).toEqual([]);
      } finally {
        await browser.close();
      }
    },
    60_000,
  );

  it('bundles client.ts for a browser against the installed package', async () => {
    const { build } = await import('esbuild');
    const result = await build({
      entryPoints: [join(dir, 'client.ts')],
      absWorkingDir: dir,
      bundle: true,
      platform: 'browser',
      format: 'esm',
      write: false,
      logLevel: 'silent',
    });
    expect(result.errors).toEqual([]);
    expect(result.outputFiles[0]?.text).toContain('/threads/');
  });
});
