// Local, harmless tools for the examples (made-up data, no network, no files). They are
// generators: each `yield` streams to the client as progress (a `tool-progress` event) while the
// tool runs, and the last one is the tool's result.
import { tool } from 'ai';
import { z } from 'zod';

const sleep = (ms: number, signal: AbortSignal | undefined) =>
  new Promise<void>((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        reject(signal.reason);
      },
      { once: true },
    );
  });

export const weather = tool({
  description: 'The current weather in a city (made-up data).',
  inputSchema: z.object({ city: z.string() }),
  async *execute({ city }, { abortSignal }) {
    yield { status: `locating ${city}` };
    await sleep(120, abortSignal);
    yield { status: 'reading the nearest station' };
    await sleep(120, abortSignal);
    yield { city, celsius: 21, sky: 'sunny', wind: '12 km/h W' };
  },
});

export const headlines = tool({
  description: 'Today’s local headlines of a city (made-up data).',
  inputSchema: z.object({ city: z.string() }),
  async *execute({ city }, { abortSignal }) {
    yield { status: 'fetching the front page', found: 0 };
    await sleep(100, abortSignal);
    yield { status: 'ranking stories', found: 2 };
    await sleep(150, abortSignal);
    yield {
      city,
      headlines: [`${city} opens its river for swimming`, `A new metro line opens in ${city}`],
    };
  },
});

export const slow_job = tool({
  description: 'A job that takes a few seconds and reports its progress.',
  inputSchema: z.object({ seconds: z.number().min(1).max(30) }),
  async *execute({ seconds }, { abortSignal }) {
    for (let i = 1; i <= seconds * 2; i++) {
      await sleep(500, abortSignal);
      yield { progress: `${Math.round((i / (seconds * 2)) * 100)}%` };
    }
    yield { done: true, seconds };
  },
});

/** The chat examples' tools. */
export const chatTools = { weather, headlines, slow_job };
