// A tool that holds its turn until the test lets it go: the turn is surely running (`running`
// resolves when the tool is called) while the test connects, reloads or cuts something; `release`
// lets every call finish. With `{ abortable: true }` an aborted call (a cancelled turn) finishes
// too.
import { tool } from 'ai';
import { z } from 'zod';

/** The gate: the tool, a promise of its first call, and what lets every call finish. */
export function gatedTool(options: { readonly abortable?: boolean } = {}) {
  let release!: () => void;
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  let started!: () => void;
  const running = new Promise<void>((resolve) => {
    started = resolve;
  });
  const wait = tool({
    inputSchema: z.object({}),
    execute: async (_input, { abortSignal }) => {
      started();
      const aborted =
        options.abortable === true && abortSignal !== undefined
          ? new Promise<void>((resolve) =>
              abortSignal.addEventListener('abort', () => resolve(), { once: true }),
            )
          : new Promise<void>(() => {});
      await Promise.race([released, aborted]);
      return 'released';
    },
  });
  return { wait, running, release };
}
