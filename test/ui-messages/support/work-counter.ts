// Counts the work a piece of code does instead of timing it, so that a test of its cost holds on
// a loaded machine. Two measures:
// - `chars`: every call of a `String.prototype` method is charged the length of the string it is
//   called on (slicing or searching a string built by concatenation flattens all of it), and every
//   `JSON.stringify` the length of what it wrote;
// - `chunkReads`: every chunk read from a reducer state (`chunkAt`), each one a comparison.
import { TurnStateImpl } from '../../../src/reducer/turn-state.js';

export interface Work {
  chars: number;
  chunkReads: number;
}

type AnyFunction = (this: unknown, ...args: unknown[]) => unknown;

// Methods that touch no characters of a string, or that the engine calls itself.
const UNCHARGED = new Set(['constructor', 'toString', 'valueOf']);

/**
 * Runs `run` with the counters installed and returns what it did. Everything is restored after,
 * also when `run` throws.
 */
export async function countWork(run: () => Promise<void>): Promise<Work> {
  const work: Work = { chars: 0, chunkReads: 0 };
  const restore: Array<() => void> = [];
  const patch = (target: object, key: string, wrap: (original: AnyFunction) => AnyFunction) => {
    const descriptor = Object.getOwnPropertyDescriptor(target, key);
    if (typeof descriptor?.value !== 'function') return;
    Object.defineProperty(target, key, { ...descriptor, value: wrap(descriptor.value) });
    restore.push(() => Object.defineProperty(target, key, descriptor));
  };
  for (const key of Object.getOwnPropertyNames(String.prototype)) {
    if (UNCHARGED.has(key)) continue;
    patch(
      String.prototype,
      key,
      (original) =>
        function charged(this: unknown, ...args: unknown[]) {
          if (typeof this === 'string') work.chars += this.length;
          return original.apply(this, args);
        },
    );
  }
  patch(
    JSON,
    'stringify',
    (original) =>
      function charged(this: unknown, ...args: unknown[]) {
        const out = original.apply(this, args);
        if (typeof out === 'string') work.chars += out.length;
        return out;
      },
  );
  patch(
    TurnStateImpl.prototype,
    'chunkAt',
    (original) =>
      function counted(this: unknown, ...args: unknown[]) {
        work.chunkReads++;
        return original.apply(this, args);
      },
  );
  try {
    await run();
  } finally {
    for (const undo of restore.reverse()) undo();
  }
  return work;
}
