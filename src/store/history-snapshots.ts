import type { ChatMessage, ChatRole } from '../schema/chat-message.js';
import type { ChunkRow } from '../schema/chunk-row.js';
import { groupRows } from '../transforms/group-rows.js';
import { chatRoleOf } from '../transforms/row-to-chunk.js';
import type { StoreContext } from './context.js';
import { isMissingSchema } from './not-migrated.js';
import { type DecodedRows, decodePages } from './queries/get-rows.js';
import type { SnapshotRecord as SnapshotRow } from './tables.js';
import type { CorruptRowPolicy, HistoryRead } from './types.js';

// History snapshots (notes/0076): a derived copy of a thread's older turns, grouped, as one JSON
// text per snapshot, so that a new process reads a long thread as a few large values instead of
// one row per chunk. The rows stay the record; a snapshot is only ever used where it provably
// equals what grouping its rows gives, and is otherwise ignored (and replaced).

/** The version of a snapshot's JSON; a snapshot of another version is ignored and replaced. */
export const SNAPSHOT_FORMAT = 1;

/** A snapshot's JSON: the turn ids its rows hold (a system-only turn has no message of its own). */
export interface SnapshotBody {
  readonly turnIds: readonly string[];
  readonly messages: readonly ChatMessage[];
}

/** A stored snapshot row, as read. */
export interface SnapshotRecord {
  readonly first_seq: unknown;
  readonly last_seq: unknown;
  readonly last_turn_id: unknown;
  readonly last_created_at: unknown;
  readonly format: unknown;
  readonly digest: unknown;
  readonly data: unknown;
}

type Hash = {
  update(text: string): Hash;
  digest(encoding: 'hex'): string;
};
/** Node's `crypto`, as snapshots use it. */
export type Crypto = { createHash(algorithm: string): Hash };

let crypto: Crypto | null | undefined;

/** Node's `crypto`, where there is one (snapshots are not used without it). */
export function nodeCrypto(): Crypto | undefined {
  if (crypto === undefined) {
    const builtin = (
      globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }
    ).process?.getBuiltinModule?.('node:crypto') as Crypto | undefined;
    crypto = typeof builtin?.createHash === 'function' ? builtin : null;
  }
  return crypto ?? undefined;
}

/**
 * The digest a snapshot is stored with: SHA-256 over the thread, the seq range and the JSON. A
 * snapshot read back is used only when its digest matches, so that what was not written by the
 * store as it is (a changed value, one of another thread or range) is never taken for history.
 */
function digestOf(c: Crypto, threadId: string, first: number, last: number, data: string): string {
  return c
    .createHash('sha256')
    .update(`chunklog-snapshot:${SNAPSHOT_FORMAT}:${threadId}:${first}:${last}:`)
    .update(data)
    .digest('hex');
}

/** The SQL of the direct reads and writes, for one store's table names. */
interface SnapshotSql {
  readonly snapshots: string;
  readonly rowAt: string;
  readonly rowBefore: string;
  readonly deleteAll: string;
  readonly insert: string;
}

const sqlByStore = new WeakMap<StoreContext, SnapshotSql>();

/** The columns a snapshot is read with (a {@link SnapshotRecord}), on every path. */
export const SNAPSHOT_COLUMNS: ReadonlyArray<keyof SnapshotRecord & keyof SnapshotRow> = [
  'first_seq',
  'last_seq',
  'last_turn_id',
  'last_created_at',
  'format',
  'digest',
  'data',
];

/** The snapshots table's columns, in the order the direct insert takes them. */
const INSERT_COLUMNS = [
  'thread_id',
  ...SNAPSHOT_COLUMNS,
  'created_at',
] as const satisfies ReadonlyArray<keyof SnapshotRow>;

function sqlOf(ctx: StoreContext): SnapshotSql {
  let sql = sqlByStore.get(ctx);
  if (sql === undefined) {
    const q = (name: string) => `"${name}"`;
    const snapshots = q(ctx.names.snapshots);
    const chunks = q(ctx.names.chunks);
    sql = {
      snapshots: `select ${SNAPSHOT_COLUMNS.join(', ')} from ${snapshots} where thread_id = ? order by first_seq`,
      rowAt: `select turn_id, created_at from ${chunks} where thread_id = ? and seq = ?`,
      rowBefore: `select seq from ${chunks} where thread_id = ? and seq < ? limit 1`,
      deleteAll: `delete from ${snapshots} where thread_id = ?`,
      insert: `insert into ${snapshots} (${INSERT_COLUMNS.join(', ')}) values (${INSERT_COLUMNS.map(() => '?').join(', ')})`,
    };
    sqlByStore.set(ctx, sql);
  }
  return sql;
}

/** The stored row at a seq, as a snapshot's last row is checked against it. */
export interface RowMark {
  readonly turn_id: unknown;
  readonly created_at: unknown;
}

/** What checking snapshots needs to know of the rows, read in the same snapshot as them. */
export interface RowProbe {
  /** Whether the thread has a row below `seq`. */
  rowBefore(seq: number): boolean;
  /** The thread's row at `seq`, if any. */
  rowAt(seq: number): RowMark | undefined;
}

/** Snapshots that can be used: their bodies, oldest first, and the last seq they cover. */
export interface UsableSnapshots {
  readonly last: number;
  readonly bodies: SnapshotBody[];
}

/**
 * The snapshots of a thread that can be used, oldest first, with their bodies: a chain from the
 * thread's first row, each of this format, its digest matching, and its last row still the row it was made from
 * (a truncation and new rows at the same seqs, by a chunklog older than snapshots, show there).
 * Undefined when any is unusable: the caller reads rows, and replaces them.
 */
export function usableSnapshots(
  c: Crypto,
  probe: RowProbe,
  threadId: string,
  records: readonly SnapshotRecord[],
): UsableSnapshots | undefined {
  const bodies: SnapshotBody[] = [];
  let expected = Number((records[0] as SnapshotRecord).first_seq);
  // The first snapshot starts with the thread's first row.
  if (probe.rowBefore(expected)) return undefined;
  for (const record of records) {
    const first = Number(record.first_seq);
    const last = Number(record.last_seq);
    if (
      Number(record.format) !== SNAPSHOT_FORMAT ||
      first !== expected ||
      !Number.isSafeInteger(first) ||
      !(last >= first)
    ) {
      return undefined;
    }
    const row = probe.rowAt(last);
    if (
      row === undefined ||
      String(row.turn_id) !== String(record.last_turn_id) ||
      Number(row.created_at) !== Number(record.last_created_at)
    ) {
      return undefined;
    }
    const data = record.data;
    if (typeof data !== 'string' || digestOf(c, threadId, first, last, data) !== record.digest) {
      return undefined;
    }
    let body: SnapshotBody;
    try {
      body = JSON.parse(data) as SnapshotBody;
    } catch {
      return undefined;
    }
    if (!Array.isArray(body?.turnIds) || !Array.isArray(body.messages)) return undefined;
    bodies.push(body);
    expected = last + 1;
  }
  return { last: expected - 1, bodies };
}

/**
 * Where the rows can be cut so that what comes before is whole turns: the index of the first row
 * of the last turn, when no earlier row is of a turn that has rows after it; else 0.
 */
function wholeTurnsEnd(rows: readonly ChunkRow[]): number {
  const last = rows[rows.length - 1];
  if (last === undefined) return 0;
  let cut = rows.length;
  while (cut > 0 && (rows[cut - 1] as ChunkRow).turnId === last.turnId) cut--;
  for (let i = 0; i < cut; i++) if ((rows[i] as ChunkRow).turnId === last.turnId) return 0;
  return cut;
}

/** The distinct turn ids of `rows`, in order of first appearance. */
function turnIdsOf(rows: readonly ChunkRow[]): string[] {
  const ids = new Set<string>();
  for (const row of rows) ids.add(row.turnId);
  return [...ids];
}

/** The role of the message a row starts (or joins), as grouping decides it. */
function roleOf(row: ChunkRow | undefined): ChatRole | undefined {
  return row === undefined ? undefined : chatRoleOf(row);
}

/**
 * Reads a thread for a cold rebuild on the store's own SQLite connection, in one snapshot of the
 * database: the messages of its older turns from the history snapshots, and the rows after them.
 * What it gives always groups to what grouping all the thread's rows gives. When at least
 * `snapshotMinRows` rows of whole turns follow the snapshots, it writes one more (in the
 * same transaction, and only if nothing was written since the read began); a snapshot that
 * cannot be used is replaced then. Undefined when the connection cannot read now.
 *
 * @param ctx - the store
 * @param threadId - the thread
 * @param policy - what a corrupt row does (a read that skipped one writes no snapshot)
 */
export function readHistoryDirect(
  ctx: StoreContext,
  threadId: string,
  policy: CorruptRowPolicy,
): { readonly history: HistoryRead; readonly read: number } | undefined {
  const direct = ctx.direct;
  const minRows = ctx.snapshotMinRows;
  if (direct === undefined || minRows === false) return undefined;
  const c = nodeCrypto();
  if (c === undefined) return undefined;
  const sql = sqlOf(ctx);
  const rowsPage = ctx.statements.rowsAfterLimit;
  let result: { readonly history: HistoryRead; readonly read: number } | undefined;
  const ran = direct.inSnapshot((all, write) => {
    let records: SnapshotRecord[] = [];
    let migrated = true;
    try {
      records = all(sql.snapshots, [threadId]) as SnapshotRecord[];
    } catch (error) {
      if (!isMissingSchema(error)) throw error;
      migrated = false;
    }
    const probe: RowProbe = {
      rowBefore: (seq) => all(sql.rowBefore, [threadId, seq]).length > 0,
      rowAt: (seq) => all(sql.rowAt, [threadId, seq])[0] as RowMark | undefined,
    };
    let usable = records.length === 0 ? undefined : usableSnapshots(c, probe, threadId, records);
    let stale = records.length > 0 && usable === undefined;
    const readRows = (afterSeq: number) =>
      decodePages((args) => rowsPage.allIn(all, ctx.db, args), threadId, afterSeq, policy);
    let rows = readRows(usable?.last ?? 0);
    if (usable !== undefined && !joinsCleanly(usable.bodies, rows.rows)) {
      // A row of a snapshot's turn came after it, or no row follows them (after a truncation):
      // read rows, and make the snapshots again.
      stale = true;
      usable = undefined;
      rows = readRows(0);
    }
    const plan = planHistory(ctx, c, threadId, { usable, stale, rows, migrated, minRows });
    result = plan;
    const writes: [string, unknown[]][] = [];
    if (plan.deleteAll) writes.push([sql.deleteAll, [threadId]]);
    for (const r of plan.inserts) writes.push([sql.insert, INSERT_COLUMNS.map((c) => r[c])]);
    if (writes.length > 0) write(writes);
  });
  return ran ? result : undefined;
}

/** What a history read found: see {@link planHistory}. */
export interface HistoryFound {
  /** The snapshots it could use. */
  readonly usable: UsableSnapshots | undefined;
  /** Whether some of the thread's snapshots could not be used. */
  readonly stale: boolean;
  /** The rows it read after the usable snapshots. */
  readonly rows: DecodedRows;
  /** Whether the snapshots table exists. */
  readonly migrated: boolean;
  /** The store's `snapshotMinRows`. */
  readonly minRows: number;
}

/** What a history read found, and the snapshot writes it calls for. */
export interface HistoryPlan {
  readonly history: HistoryRead;
  /** How many rows were read (more than `history.rows` holds when corrupt ones were skipped). */
  readonly read: number;
  /** Whether the thread's snapshots are to be deleted first (some could not be used). */
  readonly deleteAll: boolean;
  /** The snapshots to write, in order. */
  readonly inserts: SnapshotRow[];
}

/**
 * The history a read gives, from the snapshots it could use and the rows it read after them, and
 * the snapshot writes it calls for: delete them all when some could not be used (`stale`), and
 * write new ones when at least `minRows` rows of whole turns follow. A read that skipped a
 * corrupt row, or of a database without the snapshots table, writes nothing.
 *
 * @param ctx - the store (its clock)
 * @param c - Node's crypto, for the digests
 * @param threadId - the thread
 * @param found - what the read found: the usable snapshots, whether others were not usable, the
 *   rows read after the usable ones, whether the snapshots table exists, the write threshold
 */
export function planHistory(
  ctx: StoreContext,
  c: Crypto,
  threadId: string,
  found: HistoryFound,
): HistoryPlan {
  const { usable, stale, rows, migrated, minRows } = found;
  const messages: ChatMessage[] = [];
  const turnIds: string[] = [];
  for (const body of usable?.bodies ?? []) {
    for (const m of body.messages) messages.push(m);
    for (const id of body.turnIds) turnIds.push(id);
  }
  const history: HistoryRead = { messages, turnIds, rows: rows.rows };
  const none: HistoryPlan = { history, read: rows.read, deleteAll: false, inserts: [] };
  if (!migrated || rows.rows.length !== rows.read) return none;
  const cut = wholeTurnsEnd(rows.rows);
  if (cut < minRows && !stale) return none;
  const inserts: SnapshotRow[] = [];
  if (cut >= minRows) {
    const after = messages[messages.length - 1]?.role;
    try {
      for (const span of snapshotSpans(rows.rows, cut, after, minRows * MAX_SNAPSHOT_SPANS)) {
        inserts.push(snapshotRow(ctx, c, threadId, span));
      }
    } catch {
      // A snapshot too large to serialize: the ones before it are kept, and rows read for the rest.
    }
  }
  return { history, read: rows.read, deleteAll: stale, inserts };
}

/**
 * The most rows one snapshot holds, in `snapshotMinRows` (unless one turn has more): 20,000 by
 * default, a bounded value to write and read.
 */
const MAX_SNAPSHOT_SPANS = 20;

/**
 * The most characters of row data one snapshot holds (unless one turn has more), about the
 * size of its JSON: 4,000,000 characters are at most 12 MB of UTF-8, which MySQL's default
 * 16 MB `max_allowed_packet` takes in one insert (a turn of large tool results would otherwise
 * make 20,000 rows too large a value on any dialect).
 */
export const MAX_SNAPSHOT_CHARS = 4_000_000;

/** A run of rows to snapshot, and what grouping them gives. */
interface Span {
  readonly rows: readonly ChunkRow[];
  readonly messages: ChatMessage[];
}

/**
 * Splits `rows[0, cut)` into runs of whole turns of at most `maxRows` rows and about
 * {@link MAX_SNAPSHOT_CHARS} characters of data (a longer turn alone), each ending where grouping
 * can be cut: no turn has rows on both sides, and the run does not end with a system message that
 * the next row's would join. `before` is the role of the message that ends what precedes the rows
 * (the snapshots read).
 */
function snapshotSpans(
  rows: readonly ChunkRow[],
  cut: number,
  before: ChatRole | undefined,
  maxRows: number,
): Span[] {
  if (before === 'system' && roleOf(rows[0]) === 'system') return [];
  const lastAt = new Map<string, number>();
  // chars[k]: the characters of the data of rows[0, k), and of each row's other fields.
  const chars = new Float64Array(cut + 1);
  for (let k = 0; k < cut; k++) {
    const row = rows[k] as ChunkRow;
    lastAt.set(row.turnId, k);
    chars[k + 1] = (chars[k] as number) + (JSON.stringify(row.data)?.length ?? 0) + 100;
  }
  const fits = (start: number, end: number) =>
    end - start <= maxRows &&
    (chars[end] as number) - (chars[start] as number) <= MAX_SNAPSHOT_CHARS;
  // The clean boundaries: every turn seen so far ends before them.
  const bounds: number[] = [];
  let reach = -1;
  for (let k = 0; k < cut; k++) {
    reach = Math.max(reach, lastAt.get((rows[k] as ChunkRow).turnId) as number);
    if (reach === k) bounds.push(k + 1);
  }
  const spans: Span[] = [];
  let start = 0;
  let b = 0;
  while (start < cut) {
    // The furthest boundary within the size, or the nearest one past it.
    while (b < bounds.length && (bounds[b] as number) <= start) b++;
    let at = b;
    while (at + 1 < bounds.length && fits(start, bounds[at + 1] as number)) at++;
    for (;;) {
      const end = bounds[at];
      if (end === undefined) return spans;
      const part = rows.slice(start, end);
      const messages = groupRows(part);
      if (messages[messages.length - 1]?.role === 'system' && roleOf(rows[end]) === 'system') {
        at++;
        continue;
      }
      spans.push({ rows: part, messages });
      start = end;
      break;
    }
  }
  return spans;
}

/** The snapshot of `span`, as a row of the snapshots table. */
function snapshotRow(ctx: StoreContext, c: Crypto, threadId: string, span: Span): SnapshotRow {
  const first = (span.rows[0] as ChunkRow).seq;
  const last = span.rows[span.rows.length - 1] as ChunkRow;
  const body: SnapshotBody = { turnIds: turnIdsOf(span.rows), messages: span.messages };
  const data = JSON.stringify(body);
  return {
    thread_id: threadId,
    first_seq: first,
    last_seq: last.seq,
    last_turn_id: last.turnId,
    last_created_at: Date.parse(last.createdAt ?? ''),
    format: SNAPSHOT_FORMAT,
    digest: digestOf(c, threadId, first, last.seq, data),
    data,
    created_at: ctx.now(),
  };
}

/** Whether the rows after the snapshots group on their own to what follows the snapshots' messages. */
export function joinsCleanly(bodies: readonly SnapshotBody[], rows: readonly ChunkRow[]): boolean {
  if (rows.length === 0) return false;
  const ids = new Set<string>();
  let lastRole: ChatRole | undefined;
  for (const body of bodies) {
    for (const id of body.turnIds) ids.add(id);
    const last = body.messages[body.messages.length - 1];
    if (last !== undefined) lastRole = last.role;
  }
  for (const row of rows) if (ids.has(row.turnId)) return false;
  return !(lastRole === 'system' && roleOf(rows[0]) === 'system');
}
