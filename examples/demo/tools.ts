// Two local, harmless tools. Both are generators: each `yield` is streamed to the client as
// progress (a `tool-progress` event) while the tool runs; the last one is the tool's result.
import { tool } from 'ai';
import { z } from 'zod';

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => {
      clearTimeout(timer);
      reject(signal.reason);
    });
  });

export const demoTools = {
  weather: tool({
    description: 'The current weather in a city (made-up data, for the demo).',
    inputSchema: z.object({ city: z.string() }),
    async *execute({ city }, { abortSignal }) {
      yield { status: `locating ${city}` };
      await sleep(120, abortSignal);
      yield { status: 'reading the nearest station' };
      await sleep(120, abortSignal);
      yield { city, celsius: 21, sky: 'sunny', wind: '12 km/h W' };
    },
  }),
  headlines: tool({
    description: 'Today’s local headlines of a city (made-up data, for the demo).',
    inputSchema: z.object({ city: z.string() }),
    async *execute({ city }, { abortSignal }) {
      yield { status: 'fetching the front page', found: 0 };
      await sleep(100, abortSignal);
      yield { status: 'ranking stories', found: 2 };
      await sleep(150, abortSignal);
      yield {
        city,
        headlines: ['The Seine opens for swimming', 'Metro line 14 reaches the airport'],
      };
    },
  }),
};
