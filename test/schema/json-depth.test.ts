// JSON values nest at most MAX_JSON_DEPTH arrays and objects. A deeper one is refused with a
// typed error naming its path, however deep it is (the check keeps its own stack: a value
// thousands deep used to overflow the call stack with a RangeError), and toJsonValue cuts it off.
import { describe, expect, it } from 'vitest';
import {
  findNonJson,
  isJsonValue,
  JsonValueSchema,
  MAX_JSON_DEPTH,
  parseChunkEvent,
  toJsonValue,
} from '../../src/schema/index.js';
import { thrown } from '../support/chunklog-error.js';

/** `levels` objects nested in one another: `{ a: { a: … 1 } }`. */
function nestedObjects(levels: number): unknown {
  let value: unknown = 1;
  for (let i = 0; i < levels; i++) value = { a: value };
  return value;
}

/** `levels` arrays nested in one another: `[[… 1]]`. */
function nestedArrays(levels: number): unknown {
  let value: unknown = 1;
  for (let i = 0; i < levels; i++) value = [value];
  return value;
}

/** How many arrays and objects a JSON value nests (an iterative walk). */
function depthOf(value: unknown): number {
  let deepest = 0;
  const stack: Array<[unknown, number]> = [[value, 0]];
  while (stack.length > 0) {
    const [v, depth] = stack.pop() as [unknown, number];
    if (typeof v !== 'object' || v === null) continue;
    deepest = Math.max(deepest, depth + 1);
    for (const child of Object.values(v)) stack.push([child, depth + 1]);
  }
  return deepest;
}

describe('the JSON depth limit', () => {
  it('accepts MAX_JSON_DEPTH levels and refuses one more, naming the path', () => {
    expect(MAX_JSON_DEPTH).toBe(256);
    for (const nested of [nestedObjects, nestedArrays]) {
      expect(isJsonValue(nested(MAX_JSON_DEPTH))).toBe(true);
      const report = findNonJson(nested(MAX_JSON_DEPTH + 1));
      expect(report?.reason).toBe('a value nested deeper than 256 arrays and objects');
      expect(report?.path).toHaveLength(MAX_JSON_DEPTH);
      expect(report?.path[0]).toBe(nested === nestedObjects ? 'a' : 0);
    }
  });

  it('refuses a value 100,000 levels deep without running out of stack', () => {
    for (const nested of [nestedObjects, nestedArrays]) {
      const report = findNonJson({ ok: [1, 2], deep: nested(100_000) });
      expect(report?.path.slice(0, 2)).toStrictEqual(['deep', nested === nestedObjects ? 'a' : 0]);
      expect(report?.path).toHaveLength(MAX_JSON_DEPTH);
      expect(JsonValueSchema.safeParse(nested(100_000)).success).toBe(false);
    }
  });

  it('still finds what is not JSON, and cycles, the way it did', () => {
    const cycle: Record<string, unknown> = { a: [1] };
    (cycle.a as unknown[]).push(cycle);
    expect(findNonJson(cycle)).toStrictEqual({
      path: ['a', 1],
      value: '[circular]',
      reason: 'a circular reference',
    });
    const shared = { x: 1 };
    expect(findNonJson({ a: shared, b: [shared, shared] })).toBeUndefined();
    expect(findNonJson({ a: [1, { b: Number.NaN }] })?.path).toStrictEqual(['a', 1, 'b']);
    expect(findNonJson([1, undefined, 3])?.path).toStrictEqual([1]);
    expect(findNonJson(nestedArrays(200))).toBeUndefined();
  });

  it('a chunk event nested too deep is invalid-event, with a short message naming the path', () => {
    const error = thrown(() =>
      parseChunkEvent({
        type: 'tool-call',
        toolCallId: 'c',
        toolName: 'n',
        input: nestedObjects(5000),
      }),
    );
    expect(error.code).toBe('invalid-event');
    expect(error.path?.slice(0, 3)).toStrictEqual(['input', 'a', 'a']);
    expect(error.path).toHaveLength(MAX_JSON_DEPTH + 1);
    expect(error.message).toContain('input.a.a.a.a.a.a.a…(241 more)…');
    expect(error.message).toContain('nested deeper than 256 arrays and objects');
    expect(error.message.length).toBeLessThan(400);
  });

  it('toJsonValue cuts what is nested too deep, and the result is JSON', () => {
    for (const nested of [nestedObjects, nestedArrays]) {
      const cut = toJsonValue({ at: new Date(0), deep: nested(100_000) });
      expect(isJsonValue(cut)).toBe(true);
      expect(depthOf(cut)).toBe(MAX_JSON_DEPTH);
      let inner: unknown = (cut as { deep: unknown }).deep;
      // `deep` is at level 2: the array or object at level 256 holds the marker.
      for (let level = 2; level < MAX_JSON_DEPTH; level++)
        inner = Object.values(inner as object)[0];
      expect(Object.values(inner as object)).toStrictEqual(['[too deep]']);
    }
    expect(toJsonValue(nestedArrays(MAX_JSON_DEPTH))).toStrictEqual(nestedArrays(MAX_JSON_DEPTH));
  });
});
