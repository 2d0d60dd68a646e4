// Shared by the browser tests: headless Chromium as STANDARDS.md launches it, a server process
// that prints "listening on <url>", and a page that records its errors and dialogs.
import type { ChildProcess } from 'node:child_process';
import { type Browser, chromium, type Page } from 'playwright-core';
import { CHROMIUM_PATH } from '../support/services.js';

/** Launches headless Chromium (no network of its own, no GPU). */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

/** Waits for a child process to print `listening on <url>`; rejects when it fails first. */
export function listeningUrl(child: ChildProcess, timeoutMs = 120_000): Promise<string> {
  return new Promise<string>((resolve, reject) => {
    let out = '';
    let err = '';
    const timer = setTimeout(
      () => reject(new Error(`no "listening on" in time: ${out}${err}`)),
      timeoutMs,
    );
    child.stdout?.on('data', (data: Buffer) => {
      out += data.toString();
      const match = /listening on (http:\/\/\S+)/.exec(out);
      if (match) {
        clearTimeout(timer);
        resolve(match[1] as string);
      }
    });
    child.stderr?.on('data', (data: Buffer) => {
      err += data.toString();
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code}: ${out}${err}`));
    });
  });
}

/** A page that collects its uncaught errors, console errors and dialogs (an alert would be XSS). */
export async function openPage(
  browser: Browser,
  url: string,
  viewport = { width: 1100, height: 800 },
): Promise<{ page: Page; problems: string[]; dialogs: string[] }> {
  const page = await browser.newPage({ viewport });
  const problems: string[] = [];
  const dialogs: string[] = [];
  page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console: ${message.text()}`);
  });
  page.on('dialog', (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  await page.goto(url);
  return { page, problems, dialogs };
}
