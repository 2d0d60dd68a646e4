// Tools and scripts shared by the end-to-end session tests.
import { tool } from 'ai';
import { z } from 'zod';

/** Reads a "file": its content is a comment with its path and one export. */
export const readFile = tool({
  description: 'Read a file',
  inputSchema: z.object({ path: z.string() }),
  execute: async ({ path }) => `// ${path}\nexport function f() {}`,
});

/** Lists a "directory". */
export const listFiles = tool({
  description: 'List files',
  inputSchema: z.object({ dir: z.string() }),
  execute: async () => ['a.ts', 'b.ts'],
});

/** A tool that runs until the turn is aborted (or `release` is called), for cancel and steer tests. */
export function slowTool() {
  let started!: () => void;
  let release!: (result: string) => void;
  const startedPromise = new Promise<void>((resolve) => {
    started = resolve;
  });
  const released = new Promise<string>((resolve) => {
    release = resolve;
  });
  return {
    tool: tool({
      description: 'A slow command',
      inputSchema: z.object({ ms: z.number() }),
      execute: (_input, { abortSignal }) =>
        new Promise<string>((resolve, reject) => {
          started();
          abortSignal?.addEventListener('abort', () => reject(new Error('stopped')), {
            once: true,
          });
          void released.then(resolve);
        }),
    }),
    started: startedPromise,
    release,
  };
}
