import { ChunklogError } from './chunklog-error.js';

/**
 * Throws the `invalid-option` error of a public function's option or argument.
 *
 * @param where - the public function (`'toModelMessages'`)
 * @param option - the option or argument, as the caller wrote it (`'targetModelId'`)
 * @param message - what is wrong, for example "`ttl` must be '5m' or '1h'"
 * @param value - the offending value
 * @throws {ChunklogError} `invalid-option`, always
 */
export function invalidOption(
  where: string,
  option: string,
  message: string,
  value: unknown,
): never {
  throw new ChunklogError('invalid-option', `${where}: ${message}`, { option, value });
}

/**
 * Checks an option that must be an object with methods (a store, a relay, a database client):
 * every method named must be a function on it. The error names each one that is not.
 *
 * @example
 * ```ts
 * requireMethods('exportThread', 'store', store, ['getThread', 'getChunksAfter'], 'a chunk store');
 * // invalid-option: "exportThread: `store` must be a chunk store; `getChunksAfter` is missing"
 * ```
 *
 * @param where - the public function (`'exportThread'`)
 * @param option - the option or argument (`'store'`)
 * @param value - what was given
 * @param methods - the methods the caller calls on it
 * @param what - what it must be, for the message (`'a chunk store (createChunkStore)'`)
 * @throws {ChunklogError} `invalid-option` naming `option` and the missing methods
 */
export function requireMethods(
  where: string,
  option: string,
  value: unknown,
  methods: readonly string[],
  what: string,
): void {
  const missing =
    typeof value === 'object' && value !== null
      ? methods.filter((m) => typeof (value as Record<string, unknown>)[m] !== 'function')
      : methods;
  if (missing.length === 0) return;
  const named = missing.map((m) => `\`${m}\``).join(', ');
  invalidOption(
    where,
    option,
    `\`${option}\` must be ${what}; ${named} ${missing.length === 1 ? 'is' : 'are'} missing`,
    value,
  );
}

/** The edit distance of two short strings (insertions, deletions, substitutions, case ignored). */
function distance(a: string, b: string): number {
  const x = a.toLowerCase();
  const y = b.toLowerCase();
  let previous = Array.from({ length: y.length + 1 }, (_, j) => j);
  for (let i = 1; i <= x.length; i++) {
    const row = [i];
    for (let j = 1; j <= y.length; j++) {
      const cost = x[i - 1] === y[j - 1] ? 0 : 1;
      row.push(
        Math.min(
          (previous[j] as number) + 1,
          (row[j - 1] as number) + 1,
          (previous[j - 1] as number) + cost,
        ),
      );
    }
    previous = row;
  }
  return previous[y.length] as number;
}

/**
 * The known option closest to a misspelt one, when it is close enough to be what was meant (at
 * most a third of its letters differ), else undefined.
 *
 * @param name - the unknown option
 * @param known - the option names the function takes
 * @returns the closest known option, if any
 */
export function closestOption(name: string, known: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const candidate of known) {
    const d = distance(name, candidate);
    if (d < bestDistance) {
      best = candidate;
      bestDistance = d;
    }
  }
  return bestDistance <= Math.max(1, Math.floor(name.length / 3)) ? best : undefined;
}

/**
 * An unknown key as an error names it: quoted, with the known key it was probably meant to be
 * ({@link closestOption}), the wording of `readOptions` and of the HTTP handlers' body check.
 *
 * @param key - the unknown key
 * @param known - the keys taken
 * @param name - how a key is written in the message (`lease.ttlMs` under a parent option)
 * @returns for example "`turnID` (did you mean `turnId`?)"
 */
export function describeUnknownKey(
  key: string,
  known: readonly string[],
  name: (key: string) => string = (k) => k,
): string {
  const near = closestOption(key, known);
  return near === undefined
    ? `\`${name(key)}\``
    : `\`${name(key)}\` (did you mean \`${name(near)}\`?)`;
}

/** Whether every key is one of the known options. */
function allKnown(keys: readonly string[], known: readonly string[]): boolean {
  for (const key of keys) if (!known.includes(key)) return false;
  return true;
}

/**
 * Reads an options argument: undefined gives `{}`; anything but a plain object, or a key not in
 * `known`, is an `invalid-option` error (a misspelt option fails instead of being ignored). The
 * error names every unknown key, each with the known option it was probably meant to be.
 *
 * @param value - the untrusted options
 * @param where - the public function, for the message
 * @param known - the option names the function takes
 * @param parent - the option these options are the value of (`'lease'` for `lease.ttlMs`), if any
 * @returns the options as a record
 * @throws {ChunklogError} `invalid-option`, naming `options` or the (first) unknown key
 */
export function readOptions(
  value: unknown,
  where: string,
  known: readonly string[],
  parent?: string,
): Readonly<Record<string, unknown>> {
  if (value === undefined) return {};
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    invalidOption(
      where,
      parent ?? 'options',
      `${parent === undefined ? 'options' : `\`${parent}\``} must be an object`,
      value,
    );
  }
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record);
  // Every key known (the common case, on hot paths): no closure made.
  if (allKnown(keys, known)) return record;
  const name = (key: string) => (parent === undefined ? key : `${parent}.${key}`);
  const unknown = keys.filter((key) => !known.includes(key));
  const first = unknown[0] as string;
  const described = unknown.map((key) => describeUnknownKey(key, known, name));
  const message =
    unknown.length === 1
      ? `unknown option ${described[0]}`
      : `unknown options ${described.join(', ')}`;
  return invalidOption(
    where,
    name(first),
    `${message}; the options are ${known.map((k) => `\`${name(k)}\``).join(', ')}`,
    record[first],
  );
}
