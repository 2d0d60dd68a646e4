// A hand-checked fast path for stored row data, beside the zod schemas that define it
// (chunk-schemas.ts). It answers "is this exactly what the schema accepts, unchanged?" for the
// row types a thread is made of; anything else (an unknown key zod would strip, a source or a
// file row, a value it is unsure of) goes to zod, which decides and words the error.
import type { ChunkRowType } from './chunk-row.js';
import { SYSTEM_KINDS } from './chunk-schemas.js';
import { ERROR_KINDS } from './error-info.js';
import { isJsonValue } from './json.js';

type Check = (data: Record<string, unknown>) => boolean;

const hasOwn = Object.prototype.hasOwnProperty;

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  // zod returns objects it builds with Object's prototype: a null-prototype one is left to it.
  return Object.getPrototypeOf(value) === Object.prototype;
}

const isString = (v: unknown) => typeof v === 'string';
const isBoolean = (v: unknown) => typeof v === 'boolean';
const isInt = (v: unknown) => typeof v === 'number' && Number.isSafeInteger(v);
const isNat = (v: unknown) => isInt(v) && (v as number) >= 0;
const isJson = (v: unknown) => isJsonValue(v);

/** `Record<string, JSONObject>`, as `ProviderMetadataSchema` checks it. */
function isMetadata(v: unknown): boolean {
  if (!isPlainObject(v)) return false;
  for (const key in v) {
    if (!hasOwn.call(v, key) || key === '__proto__') return false;
    const inner = v[key];
    if (!isPlainObject(inner)) return false;
    for (const k in inner) {
      if (!hasOwn.call(inner, k) || k === '__proto__' || !isJsonValue(inner[k])) return false;
    }
  }
  return true;
}

// Every kind the schema knows (a system row with a `truncation` record is left to zod).
const SYSTEM_KIND_SET: ReadonlySet<unknown> = /* @__PURE__ */ new Set(SYSTEM_KINDS);
const isSystemKind = (v: unknown) => SYSTEM_KIND_SET.has(v);
const ERROR_KIND_SET: ReadonlySet<unknown> = /* @__PURE__ */ new Set(ERROR_KINDS);
const isErrorKind = (v: unknown) => ERROR_KIND_SET.has(v);

function isApproval(v: unknown): boolean {
  return isPlainObject(v) && fields(APPROVAL, v);
}

/** A `cancelled` notice's dropped steering: an array of `{ id, text }`. */
function isDroppedList(v: unknown): boolean {
  return Array.isArray(v) && v.every((d) => isPlainObject(d) && fields(STEERING, d));
}

type Field = readonly [check: (v: unknown) => boolean, required: boolean];

/**
 * Whether every key of `data` is a field of `shape` with a value its check accepts, and every
 * required field is there. A key the shape does not name (zod would strip it) or an `undefined`
 * value fails: zod decides those.
 */
function fields(shape: Readonly<Record<string, Field>>, data: Record<string, unknown>): boolean {
  let required = 0;
  for (const key in data) {
    if (!hasOwn.call(data, key) || !hasOwn.call(shape, key)) return false;
    const field = shape[key] as Field;
    if (!field[0](data[key])) return false;
    if (field[1]) required++;
  }
  return required === REQUIRED.get(shape);
}

const APPROVAL: Record<string, Field> = {
  id: [isString, true],
  approved: [isBoolean, false],
  reason: [isString, false],
  isAutomatic: [isBoolean, false],
  signature: [isString, false],
};
const STEERING: Record<string, Field> = { id: [isString, true], text: [isString, true] };
const OUTCOME: Record<string, Field> = {
  result: [isJson, false],
  isError: [isBoolean, false],
  denied: [isBoolean, false],
  progress: [isString, false],
  preliminary: [isJson, false],
  resultProviderMetadata: [isMetadata, false],
  deferred: [isBoolean, false],
};
const CALL_TAIL: Record<string, Field> = {
  providerExecuted: [isBoolean, false],
  providerMetadata: [isMetadata, false],
  dynamic: [isBoolean, false],
  invalid: [isBoolean, false],
  title: [isString, false],
  approval: [isApproval, false],
  orphan: [isBoolean, false],
};

// The tables are built in calls marked pure, so that a bundle that imports this module's chunk but
// never checks a row drops them (`chunklog/window` does): a spread, or a loop at the top level,
// would keep them and every check they name.
const SHAPES: Partial<Record<ChunkRowType, Record<string, Field>>> = /* @__PURE__ */ (() => ({
  text: { text: [isString, true], id: [isString, false], providerMetadata: [isMetadata, false] },
  thinking: {
    text: [isString, true],
    id: [isString, false],
    providerMetadata: [isMetadata, false],
    modelId: [isString, false],
  },
  tool_call: {
    id: [isString, true],
    name: [isString, true],
    index: [isNat, true],
    input: [isJson, false],
    inputText: [isString, false],
    ...CALL_TAIL,
  },
  tool_result: { callId: [isString, true], name: [isString, true], ...OUTCOME },
  error: {
    message: [isString, true],
    statusCode: [isInt, false],
    kind: [isErrorKind, false],
    retryable: [isBoolean, false],
    attempts: [(v) => isInt(v) && (v as number) > 0, false],
    provider: [isString, false],
    modelId: [isString, false],
  },
  system: { kind: [isSystemKind, true], text: [isString, true], dropped: [isDroppedList, false] },
  custom: { kind: [isString, true], providerMetadata: [isMetadata, false] },
  steering: STEERING,
  data: { name: [isString, true], id: [isString, false], data: [isJson, true] },
}))();

/** How many required fields each shape has. */
const REQUIRED = /* @__PURE__ */ (() =>
  new Map<Readonly<Record<string, Field>>, number>(
    [APPROVAL, STEERING, ...Object.values(SHAPES)].map((shape) => [
      shape as Record<string, Field>,
      Object.values(shape as Record<string, Field>).filter((f) => f[1]).length,
    ]),
  ))();

const CHECKS = /* @__PURE__ */ (() => {
  const checks: Partial<Record<ChunkRowType, Check>> = {};
  for (const [type, shape] of Object.entries(SHAPES)) {
    checks[type as ChunkRowType] = (data) => fields(shape as Record<string, Field>, data);
  }
  return checks;
})();

/**
 * Whether a row's data is exactly what `RowDataSchemas[type]` accepts and returns, unchanged, as
 * far as a quick check can tell. `false` is no verdict: parse with the schema then (it accepts
 * data with extra keys by dropping them, and words the error of data it refuses).
 *
 * @param type - the row's type
 * @param data - the row's data, as parsed from the database
 * @returns true when the data can be used as it is
 */
export function rowDataIsExact(type: ChunkRowType, data: unknown): boolean {
  const check = hasOwn.call(CHECKS, type) ? CHECKS[type] : undefined;
  return check !== undefined && isPlainObject(data) && check(data);
}
