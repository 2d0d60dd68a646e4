// Where a value is not plain JSON, found by a walk that keeps its own stack: no value, however
// deep, makes it run out of call stack.

/**
 * Where a value is not plain JSON, and why: what {@link findNonJson} answers.
 *
 * @example
 * ```ts
 * const report: NonJsonReport | undefined = findNonJson({ totals: [1, Number.NaN] });
 * // { path: ['totals', 1], value: NaN, reason: 'a non-finite number' }
 * ```
 */
export interface NonJsonReport {
  /** The keys and indexes from the checked value down to the offending one. */
  readonly path: Array<string | number>;
  /** The offending value (a description of it where it cannot be shown: a cycle, `undefined`). */
  readonly value: unknown;
  /** Why it is not JSON, for example `an instance of Date` or `a non-finite number`. */
  readonly reason: string;
}

/**
 * A quick yes for the common case (stored rows, drafts): plain JSON all the way down, checked
 * without the path bookkeeping of {@link findNonJson}. Anything unusual, very deep or cyclic
 * answers false and is left to the precise walk, so it never says yes where that says no.
 */
function isPlainJsonFast(v: unknown, depth: number): boolean {
  switch (typeof v) {
    case 'string':
    case 'boolean':
      return true;
    case 'number':
      return Number.isFinite(v);
    case 'object': {
      if (v === null) return true;
      if (depth > 64) return false;
      if (Array.isArray(v)) {
        for (let i = 0; i < v.length; i++) if (!isPlainJsonFast(v[i], depth + 1)) return false;
        return true;
      }
      const proto = Object.getPrototypeOf(v);
      if (proto !== Object.prototype && proto !== null) return false;
      for (const key of Object.keys(v)) {
        if (!isPlainJsonFast((v as Record<string, unknown>)[key], depth + 1)) return false;
      }
      return true;
    }
    default:
      return false;
  }
}

/**
 * The deepest a JSON value chunklog accepts may nest arrays and objects: thread metadata, row
 * data, event payloads and every other value checked as JSON (`[[1]]` nests 2 deep). Deeper
 * values are refused with a typed error naming their path (`invalid-option`, `invalid-row`,
 * `invalid-event`…), and {@link toJsonValue} cuts them off, so that no value makes a check or a
 * conversion run out of stack.
 *
 * @example
 * ```ts
 * let deep: JSONValue = 0;
 * for (let i = 0; i <= MAX_JSON_DEPTH; i++) deep = [deep];
 * findNonJson(deep)?.reason; // 'a value nested deeper than 256 arrays and objects'
 * ```
 */
export const MAX_JSON_DEPTH = 256;

/** What stands for a value nested deeper than {@link MAX_JSON_DEPTH}, in reports and conversions. */
export const TOO_DEEP = '[too deep]';

/** An array or object being walked: its keys (null for an array) and the next one to visit. */
interface Level {
  readonly node: object;
  readonly keys: readonly string[] | null;
  readonly length: number;
  next: number;
}

/**
 * Finds the first value inside `value` that is not plain JSON, depth first. The walk keeps its own
 * stack, so a deep value cannot overflow the call stack: arrays and objects nested deeper than
 * {@link MAX_JSON_DEPTH} are reported as such.
 *
 * @param value - the value to check
 * @returns where the first offending value is and why, or undefined when all of it is JSON
 *
 * @example
 * ```ts
 * findNonJson({ a: [1, new Date(0)] }); // { path: ['a', 1], value: '1970-…', reason: 'an instance of Date' }
 * ```
 */
export function findNonJson(value: unknown): NonJsonReport | undefined {
  if (isPlainJsonFast(value, 0)) return undefined;
  const path: Array<string | number> = [];
  const levels: Level[] = [];
  const onPath = new Set<object>();
  const report = (v: unknown, reason: string): NonJsonReport => ({
    path: [...path],
    value: v,
    reason,
  });
  /** Checks one value at `path`; an array or object becomes the next level to walk. */
  const check = (v: unknown): NonJsonReport | undefined => {
    switch (typeof v) {
      case 'string':
      case 'boolean':
        return undefined;
      case 'number':
        return Number.isFinite(v) ? undefined : report(v, 'a non-finite number');
      case 'object': {
        if (v === null) return undefined;
        if (onPath.has(v)) return report('[circular]', 'a circular reference');
        const isArray = Array.isArray(v);
        if (!isArray) {
          const proto = Object.getPrototypeOf(v);
          if (proto !== Object.prototype && proto !== null) {
            return report(v, `an instance of ${proto?.constructor?.name ?? 'a class'}`);
          }
        }
        if (levels.length >= MAX_JSON_DEPTH) {
          return report(
            TOO_DEEP,
            `a value nested deeper than ${MAX_JSON_DEPTH} arrays and objects`,
          );
        }
        onPath.add(v);
        const keys = isArray ? null : Object.keys(v);
        levels.push({ node: v, keys, length: keys?.length ?? (v as unknown[]).length, next: 0 });
        return undefined;
      }
      default:
        return report(typeof v === 'undefined' ? 'undefined' : String(v), `a ${typeof v}`);
    }
  };
  let bad = check(value);
  while (bad === undefined) {
    const level = levels[levels.length - 1];
    if (level === undefined) return undefined;
    if (level.next === level.length) {
      levels.pop();
      onPath.delete(level.node);
      continue;
    }
    const i = level.next++;
    const key = level.keys === null ? i : (level.keys[i] as string);
    path.length = levels.length - 1;
    path.push(key);
    bad = check((level.node as Record<string | number, unknown>)[key]);
  }
  return bad;
}

/**
 * The path to the first array or object inside `value` nested deeper than
 * {@link MAX_JSON_DEPTH}, whatever else it holds (class instances, `undefined` members: what
 * {@link toJsonValue} converts). A walk with its own stack; a cycle is not followed.
 *
 * @param value - anything
 * @returns the path, or undefined when nothing is nested too deep
 */
export function tooDeepPath(value: unknown): Array<string | number> | undefined {
  const path: Array<string | number> = [];
  const levels: Level[] = [];
  const onPath = new Set<object>();
  let next: unknown = value;
  for (;;) {
    if (typeof next === 'object' && next !== null && !onPath.has(next)) {
      if (levels.length >= MAX_JSON_DEPTH) return path;
      onPath.add(next);
      const keys = Array.isArray(next) ? null : Object.keys(next);
      levels.push({
        node: next,
        keys,
        length: keys?.length ?? (next as unknown[]).length,
        next: 0,
      });
    }
    let level = levels[levels.length - 1];
    while (level !== undefined && level.next === level.length) {
      levels.pop();
      onPath.delete(level.node);
      level = levels[levels.length - 1];
    }
    if (level === undefined) return undefined;
    const i = level.next++;
    const key = level.keys === null ? i : (level.keys[i] as string);
    path.length = levels.length - 1;
    path.push(key);
    next = (level.node as Record<string | number, unknown>)[key];
  }
}
