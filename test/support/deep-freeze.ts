// Deep-freezes a value (objects, arrays, class instances), so that any mutation by the code under
// test throws in strict mode instead of silently changing the input.

/** Freezes `value` and everything reachable from it through own properties; returns it. */
export function deepFreeze<T>(value: T): T {
  const seen = new Set<object>();
  const visit = (v: unknown): void => {
    if (v === null || (typeof v !== 'object' && typeof v !== 'function')) return;
    if (seen.has(v as object)) return;
    seen.add(v as object);
    for (const key of Reflect.ownKeys(v as object)) {
      const descriptor = Object.getOwnPropertyDescriptor(v, key);
      if (descriptor && 'value' in descriptor) visit(descriptor.value);
    }
    Object.freeze(v);
  };
  visit(value);
  return value;
}

/** A JSON snapshot of `value`, to compare before and after. */
export function snapshot(value: unknown): string {
  return JSON.stringify(value);
}
