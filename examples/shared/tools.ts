// Local, harmless tools for the examples (made-up data, no network, no files). While they run,
// they stream progress text into their call with chunklog's `toolProgress` (a `tool-progress`
// event a client sees at once, stored with the call's result, never sent to the model), the way a
// shell command streams its output; what they return is the call's result.
import { tool } from 'ai';
import { toolProgress } from 'chunklog/session';
import { z } from 'zod';

/** Waits `ms`, or rejects when `signal` aborts; the abort listener goes when the wait ends. */
const sleep = (ms: number, signal: AbortSignal | undefined) =>
  new Promise<void>((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });

export const weather = tool({
  description: 'The current weather in a city (made-up data).',
  inputSchema: z.object({ city: z.string() }),
  async execute({ city }, options) {
    const progress = toolProgress(options);
    progress(`locating ${city}…\n`);
    await sleep(120, options.abortSignal);
    progress('reading the nearest station…\n');
    await sleep(120, options.abortSignal);
    return { city, celsius: 21, sky: 'sunny', wind: '12 km/h W' };
  },
});

export const headlines = tool({
  description: 'Today’s local headlines of a city (made-up data).',
  inputSchema: z.object({ city: z.string() }),
  async execute({ city }, options) {
    const progress = toolProgress(options);
    progress('fetching the front page…\n');
    await sleep(100, options.abortSignal);
    progress('ranking 2 stories…\n');
    await sleep(150, options.abortSignal);
    return {
      city,
      headlines: [`${city} opens its river for swimming`, `A new metro line opens in ${city}`],
    };
  },
});

export const slow_job = tool({
  description: 'A job that takes a few seconds and reports its progress.',
  inputSchema: z.object({ seconds: z.number().min(1).max(30) }),
  async execute({ seconds }, options) {
    const progress = toolProgress(options);
    for (let i = 1; i <= seconds * 2; i++) {
      await sleep(500, options.abortSignal);
      progress(`${Math.round((i / (seconds * 2)) * 100)}% done\n`);
    }
    return { done: true, seconds };
  },
});

/** The chat examples' tools. */
export const chatTools = { weather, headlines, slow_job };
