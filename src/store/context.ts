import type { Kysely } from 'kysely';
import type { Redactor } from '../transforms/redactor.js';
import type { StoreDialectAdapter } from './dialects/adapter.js';
import type { StoreCipher } from './encryption/store-cipher.js';
import type { StoreStatements } from './statements.js';
import type { StoreTableNames, StoreTables } from './tables.js';
import type { CorruptRowPolicy } from './types.js';

/** Everything a store query needs. Internal. */
export interface StoreContext {
  /**
   * The user's Kysely (or ours) without the user's plugins, typed with the store's tables under
   * their logical names (a plugin sends the real ones).
   */
  readonly db: Kysely<StoreTables>;
  readonly adapter: StoreDialectAdapter;
  readonly names: StoreTableNames;
  /** Whether JSON columns hold exact text rather than the dialect's native JSON type. */
  readonly jsonAsText: boolean;
  /**
   * The escapes the JSON columns refuse (the dialect's native type's; none for `json: 'text'`):
   * what `storedJson` stores as text.
   */
  readonly jsonRefuses: RegExp | undefined;
  readonly onCorruptRow: CorruptRowPolicy;
  /** The clock, in milliseconds since the epoch. */
  readonly now: () => number;
  /** The hot queries, prepared once. */
  readonly statements: StoreStatements;
  /** How long one operation may take, in milliseconds, before it fails with `store-timeout`. */
  readonly timeoutMs: number;
  /** Rows of whole turns after the last history snapshot that make a read write one; false: none. */
  readonly snapshotMinRows: number | false;
  /** The `redact` option: applied to every draft a write stores, after it is checked. */
  readonly redactor?: Redactor;
  /** The `encryption` option: seals row data, thread metadata and titles, and history states. */
  readonly cipher?: StoreCipher;
  /**
   * On the SQLite connection the store opened itself (busy timeout 0 after opening): how long a
   * write waits for SQLite's write lock, in milliseconds (`busyTimeoutMs`). Undefined on a
   * user's connection, whose busy timeout is set to 0 around each `BEGIN` and restored.
   */
  readonly ownSqliteBusyMs?: number;
}
