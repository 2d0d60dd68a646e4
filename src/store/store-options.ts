import { invalidOption, readOptions } from '../errors/invalid-option.js';
import { checkRedactor, type Redactor } from '../transforms/redactor.js';
import type { StoreDialectName } from './dialects/adapter.js';
import { type CheckedEncryption, checkEncryption } from './encryption/key-provider.js';
import type { SqliteOpenOptions } from './open-sqlite.js';
import type { StoreTableOptions } from './tables.js';
import type { CorruptRowPolicy } from './types.js';

const WHERE = 'createChunkStore';

/** The option names of `createChunkStore`. */
const STORE_OPTIONS = [
  'tablePrefix',
  'tables',
  'onCorruptRow',
  'json',
  'now',
  'timeoutMs',
  'busyTimeoutMs',
  'synchronous',
  'statementCacheSize',
  'snapshotMinRows',
  'redact',
  'encryption',
] as const;

const TABLE_KEYS = [
  'threads',
  'chunks',
  'migrations',
  'migrationLock',
  'turns',
  'leases',
  'usage',
  'snapshots',
  'historyStates',
] as const;
const DIALECTS: readonly StoreDialectName[] = ['sqlite', 'postgres', 'mysql'];

/** The options of `createChunkStore`, checked. */
export interface CheckedStoreOptions {
  readonly tables: StoreTableOptions;
  readonly sqlite: SqliteOpenOptions;
  readonly onCorruptRow: CorruptRowPolicy;
  readonly json: 'native' | 'text';
  readonly now: () => number;
  readonly timeoutMs: number;
  readonly snapshotMinRows: number | false;
  readonly redact: Redactor | undefined;
  readonly encryption: CheckedEncryption | undefined;
}

/**
 * How long one store operation may take by default before it fails with `store-timeout`: 30
 * seconds, far beyond any healthy write or page read, and short enough that a stalled
 * connection does not hold a thread's writers for good.
 */
export const DEFAULT_TIMEOUT_MS = 30_000;

/**
 * How many rows of whole turns follow a thread's last history snapshot before a whole-thread
 * read writes another, by default: a read of fewer costs less than the write would save.
 */
export const DEFAULT_SNAPSHOT_MIN_ROWS = 1000;

/** The longest `timeoutMs` a timer can wait (about 24.8 days). */
const MAX_TIMEOUT_MS = 2_147_483_647;

function oneOf<T extends string>(
  option: string,
  value: unknown,
  allowed: readonly T[],
  fallback: T,
): T {
  if (value === undefined) return fallback;
  if (typeof value !== 'string' || !allowed.includes(value as T)) {
    invalidOption(
      WHERE,
      option,
      `\`${option}\` must be ${allowed.map((a) => `'${a}'`).join(' or ')}`,
      value,
    );
  }
  return value as T;
}

function integerFrom(option: string, value: unknown, min: number): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < min) {
    invalidOption(WHERE, option, `\`${option}\` must be an integer of at least ${min}`, value);
  }
  return value;
}

/**
 * Checks a read's corrupt-row policy (`getChunks`, `getRows`, `getMessages`).
 *
 * @param value - the untrusted option
 * @param fallback - the store's policy
 * @returns the policy
 * @throws {ChunklogError} `invalid-option` (option `onCorruptRow`)
 */
export function corruptRowPolicy(value: unknown, fallback: CorruptRowPolicy): CorruptRowPolicy {
  return oneOf('onCorruptRow', value, ['throw', 'skip'], fallback);
}

/**
 * Checks the options of `createChunkStore`: known names only, each of the right type.
 *
 * @param options - the untrusted options
 * @returns the options, with defaults
 * @throws {ChunklogError} `invalid-option`, naming the option
 */
export function checkStoreOptions(options: unknown): CheckedStoreOptions {
  const o = readOptions(options, WHERE, STORE_OPTIONS);
  if (o.tablePrefix !== undefined && typeof o.tablePrefix !== 'string') {
    invalidOption(WHERE, 'tablePrefix', '`tablePrefix` must be a string', o.tablePrefix);
  }
  if (o.tables !== undefined) readOptions(o.tables, `${WHERE} (tables)`, TABLE_KEYS);
  if (o.now !== undefined && typeof o.now !== 'function') {
    invalidOption(WHERE, 'now', '`now` must be a function returning milliseconds', o.now);
  }
  const timeoutMs = integerFrom('timeoutMs', o.timeoutMs, 1) ?? DEFAULT_TIMEOUT_MS;
  if (timeoutMs > MAX_TIMEOUT_MS) {
    invalidOption(WHERE, 'timeoutMs', `\`timeoutMs\` must be at most ${MAX_TIMEOUT_MS}`, timeoutMs);
  }
  const busyTimeoutMs = integerFrom('busyTimeoutMs', o.busyTimeoutMs, 0);
  const statementCacheSize = integerFrom('statementCacheSize', o.statementCacheSize, 1);
  const synchronous =
    o.synchronous === undefined
      ? undefined
      : oneOf('synchronous', o.synchronous, ['full', 'normal'], 'full');
  return {
    tables: o as StoreTableOptions,
    sqlite: { busyTimeoutMs, statementCacheSize, synchronous },
    onCorruptRow: corruptRowPolicy(o.onCorruptRow, 'throw'),
    json: jsonColumns(o.json),
    now: (o.now as (() => number) | undefined) ?? Date.now,
    timeoutMs,
    redact: checkRedactor(WHERE, o.redact),
    encryption: checkEncryption(o.encryption),
    snapshotMinRows:
      o.snapshotMinRows === false
        ? false
        : (integerFrom('snapshotMinRows', o.snapshotMinRows, 1) ?? DEFAULT_SNAPSHOT_MIN_ROWS),
  };
}

/**
 * Checks a `dialect` name.
 *
 * @param value - the untrusted option
 * @returns the name, or undefined when none was given
 * @throws {ChunklogError} `invalid-option` (option `dialect`)
 */
export function dialectName(value: unknown): StoreDialectName | undefined {
  return value === undefined ? undefined : oneOf('dialect', value, DIALECTS, 'sqlite');
}

/**
 * Checks the `json` option: how JSON columns are declared.
 *
 * @param value - the untrusted option
 * @returns the choice, `'native'` by default
 * @throws {ChunklogError} `invalid-option` (option `json`)
 */
export function jsonColumns(value: unknown): 'native' | 'text' {
  return oneOf('json', value, ['native', 'text'], 'native');
}
