// @vitest-environment happy-dom
// The React snippet of docs/window.md ("Subscribing", "React"), run as it is printed: the
// scroll handler tells the window only what changed (one `setScrolledUp` when the user leaves
// the bottom, one when they come back, none for the scroll events in between), the list's own
// scroll to the bottom is never taken for the user scrolling up (even when a delta lands before
// its event), and older pages load while the user reads up there. happy-dom has no layout: the
// list's heights are the test's.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { act, type ComponentType, createElement } from 'react';
import { createRoot } from 'react-dom/client';
import ts from 'typescript';
import { afterAll, describe, expect, it } from 'vitest';
import { ChunkWindow } from '../../src/window/index.js';
import { snippetsOf } from '../docs/snippets/extract.js';
import { ROOT } from '../examples/support.js';
import { turnOf } from '../window/support/events.js';
import { MemoryThread, storedDrafts } from '../window/support/page-source.js';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const dir = join(ROOT, '.tmp', `window-doc-scroll-${process.pid}`);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The snippet's `Chat`, compiled to a module that imports chunklog from its sources. */
async function documentedChat(): Promise<ComponentType<{ window: ChunkWindow }>> {
  const page = 'docs/window.md';
  const markdown = readFileSync(join(ROOT, page), 'utf8');
  const section = markdown.slice(markdown.indexOf('### React\n'));
  const snippet = snippetsOf(page, section)[0];
  if (snippet === undefined || !snippet.code.includes('function Chat(')) {
    throw new Error('docs/window.md: no React snippet with a Chat component under "### React"');
  }
  const source = [
    "import { createElement as h } from 'react';",
    // The app's own component the snippet assumes.
    'const Message = ({ message }) => h("p", { "data-id": message.id });',
    snippet.code
      .replace("'chunklog/react'", JSON.stringify(join(ROOT, 'src/react/index.ts')))
      .replace("'chunklog/window'", JSON.stringify(join(ROOT, 'src/window/index.ts'))),
    'export { Chat };',
  ].join('\n');
  const { outputText } = ts.transpileModule(source, {
    compilerOptions: {
      jsx: ts.JsxEmit.ReactJSX,
      module: ts.ModuleKind.ESNext,
      target: ts.ScriptTarget.ES2022,
      verbatimModuleSyntax: false,
    },
  });
  mkdirSync(dir, { recursive: true });
  const file = join(dir, 'chat.js');
  writeFileSync(file, outputText);
  return ((await import(file)) as { Chat: ComponentType<{ window: ChunkWindow }> }).Chat;
}

/** Gives an element the scroll geometry a browser would: heights, and a clamped `scrollTop`. */
function layOut(el: HTMLElement, clientHeight: number) {
  const box = { scrollHeight: clientHeight, scrollTop: 0 };
  Object.defineProperty(el, 'clientHeight', { get: () => clientHeight });
  Object.defineProperty(el, 'scrollHeight', { get: () => box.scrollHeight });
  Object.defineProperty(el, 'scrollTop', {
    get: () => box.scrollTop,
    set: (value: number) => {
      box.scrollTop = Math.max(0, Math.min(value, box.scrollHeight - clientHeight));
    },
  });
  return {
    /** The content grows (or shrinks) below, the position stays. */
    grow(scrollHeight: number) {
      box.scrollHeight = scrollHeight;
    },
    /** The user scrolls to `top`; the browser fires a scroll event. */
    async scrollTo(top: number) {
      await act(async () => {
        el.scrollTop = top;
        el.dispatchEvent(new Event('scroll'));
      });
    },
    bottom: () => box.scrollHeight - clientHeight,
    box,
  };
}

describe("docs/window.md's React scroll handler", () => {
  it('tells the window only what changed, and never takes its own scroll for the user', async () => {
    const Chat = await documentedChat();
    const thread = new MemoryThread('t');
    for (let i = 0; i < 12; i++) {
      thread.append(storedDrafts(`t${i}`, turnOf(`t${i}`, 1, `answer ${i}`), `question ${i}`));
    }
    const window = new ChunkWindow({ limit: 8, pageSize: 4, loadPage: (r) => thread.page(r) });
    await window.loadOlder();
    const told: boolean[] = [];
    const setScrolledUp = window.setScrolledUp.bind(window);
    window.setScrolledUp = (scrolledUp: boolean) => {
      told.push(scrolledUp);
      setScrolledUp(scrolledUp);
    };

    const container = document.createElement('div');
    document.body.append(container);
    const root = createRoot(container);
    // A layout for the list before its first layout effect: render once, lay out, render again.
    await act(async () => root.render(createElement(Chat, { window })));
    const list = container.firstElementChild as HTMLElement;
    const geometry = layOut(list, 300);
    geometry.grow(1000);
    await act(async () => root.render(createElement(Chat, { window })));
    expect(geometry.box.scrollTop).toBe(geometry.bottom()); // it follows the bottom

    // Its own scroll to the bottom, and a delta that lands before that scroll's event: the user
    // did not scroll up, and the window hears nothing.
    await act(async () => list.dispatchEvent(new Event('scroll')));
    geometry.grow(1200);
    await act(async () => list.dispatchEvent(new Event('scroll')));
    expect(told).toEqual([]);
    expect(window.getSnapshot().scrolledUp).toBe(false);

    // The user scrolls up: told once, however many scroll events follow.
    await geometry.scrollTo(600);
    await geometry.scrollTo(500);
    await geometry.scrollTo(450);
    expect(told).toEqual([true]);
    expect(window.getSnapshot().scrolledUp).toBe(true);

    // Near the top, older pages load while the user reads; nothing is evicted meanwhile.
    const held = window.getSnapshot().log.length;
    await geometry.scrollTo(100);
    await expect.poll(() => window.getSnapshot().log.length).toBeGreaterThan(held);
    expect(told).toEqual([true]);

    // Back at the bottom: told once, and the list follows the bottom again.
    await geometry.scrollTo(geometry.bottom());
    await geometry.scrollTo(geometry.bottom());
    expect(told).toEqual([true, false]);
    expect(window.getSnapshot().scrolledUp).toBe(false);
    geometry.grow(1500);
    await act(async () => root.render(createElement(Chat, { window })));
    expect(geometry.box.scrollTop).toBe(geometry.bottom());
    await act(async () => root.unmount());
  });
});
