import { ChunklogError } from '../../errors/chunklog-error.js';
import { asString, UnreadableData } from '../codec.js';
import {
  ENVELOPE_PREFIX,
  envelopeVersion,
  open,
  requireCipher,
  rowAad,
  seal,
  stateAad,
  threadAad,
} from './cipher.js';
import { checkThreadKey, type ThreadKey, type ThreadKeyProvider } from './key-provider.js';
import { guardProvider } from './provider-failure.js';

/** Why a value stored in clear is refused (`encryption.requireEncrypted`). */
const CLEAR =
  'is stored in clear, and the store requires every value encrypted (`encryption.requireEncrypted`)';

/** A row as read, with the thread id it is stored under. */
export interface SealedRecord {
  readonly thread_id: unknown;
  readonly seq: unknown;
  readonly data: unknown;
}

/** The encrypted value in a column, as the driver gave it, or undefined for a clear value. */
export function envelopeOf(value: unknown): string | undefined {
  if (typeof value !== 'string' && !(value instanceof Uint8Array)) return undefined;
  const text = asString(value);
  if (text.startsWith(ENVELOPE_PREFIX)) return text;
  // JSON text of the envelope string (SQLite, `json: 'text'`, MariaDB's JSON).
  if (text.startsWith(`"${ENVELOPE_PREFIX}`) && text.endsWith('"')) return text.slice(1, -1);
  return undefined;
}

/**
 * The store's encryption at rest (the `encryption` option): each thread's values are sealed with
 * the thread's newest key and opened with the key version each names. Keys are asked of the
 * provider for each operation, never kept by the store.
 */
export class StoreCipher {
  /** The app's key provider, its failures thrown as `KeyProviderFailure` (see `guardProvider`). */
  readonly keys: ThreadKeyProvider;
  /** Whether values stored in clear are refused (`encryption.requireEncrypted`). */
  readonly requireEncrypted: boolean;

  /**
   * @param keys - the app's key provider
   * @param requireEncrypted - refuse values stored in clear
   */
  constructor(keys: ThreadKeyProvider, requireEncrypted = false) {
    requireCipher();
    this.keys = guardProvider(keys);
    this.requireEncrypted = requireEncrypted;
  }

  /** The thread's newest key, made first when it has none. */
  async writeKey(threadId: string): Promise<ThreadKey> {
    const current = await this.keys.getKey(threadId);
    if (current !== undefined) return checkThreadKey(threadId, current);
    return checkThreadKey(threadId, await this.keys.createKey(threadId));
  }

  /** The thread's key of `version`, or undefined when it is gone. */
  async readKey(threadId: string, version: number): Promise<ThreadKey | undefined> {
    const key = await this.keys.getKey(threadId, version);
    return key === undefined ? undefined : checkThreadKey(threadId, key);
  }

  /**
   * A thread's row data sealer for a write: `(seq, json)` → what the data column stores (the
   * JSON text of the envelope string).
   */
  rowSealer(key: ThreadKey, threadId: string): RowSealer {
    const sealRow = (seq: number, json: string) => `"${seal(key, rowAad(threadId, seq), json)}"`;
    return Object.assign(sealRow, { version: key.version, key: key.key });
  }

  /**
   * Decrypts the data of the encrypted rows among `records` in place (each with the key and
   * associated data of the thread id in its own `thread_id` column); a row that does not open
   * gets an {@link UnreadableData}. Clear rows (written before encryption was turned on) are
   * left as they are, unless clear values are refused: then they get an {@link UnreadableData}.
   */
  async openRecords(records: readonly SealedRecord[]): Promise<void> {
    const keys = new Map<string, Promise<ThreadKey | undefined>>();
    const pending: {
      record: SealedRecord;
      envelope: string;
      key: Promise<ThreadKey | undefined>;
    }[] = [];
    for (const record of records) {
      const envelope = envelopeOf(record.data);
      if (envelope === undefined) {
        if (this.requireEncrypted) {
          (record as { data: unknown }).data = new UnreadableData(`it ${CLEAR}`);
        }
        continue;
      }
      const threadId = asString(record.thread_id);
      const version = envelopeVersion(envelope) ?? 0;
      const id = `${version}\u0000${threadId}`;
      let key = keys.get(id);
      if (key === undefined) {
        key = version === 0 ? Promise.resolve(undefined) : this.readKey(threadId, version);
        // Awaited below, in order: when the provider fails, the first failure is thrown and the
        // keys asked for after it are never awaited; their failures must not go unhandled
        // (that ends a Node process).
        key.catch(() => undefined);
        keys.set(id, key);
      }
      pending.push({ record, envelope, key });
    }
    for (const { record, envelope, key } of pending) {
      const threadId = asString(record.thread_id);
      const seq = Number(record.seq);
      const k = await key;
      const version = envelopeVersion(envelope);
      const text = k === undefined ? undefined : open(k, rowAad(threadId, seq), envelope);
      (record as { data: unknown }).data =
        text !== undefined
          ? text
          : new UnreadableData(
              k === undefined
                ? `it is encrypted under key version ${version ?? '(unreadable)'} of thread ${JSON.stringify(threadId)}, which the key provider does not have`
                : 'its ciphertext does not verify (its data, tag, seq or thread id was changed, or it was moved)',
            );
    }
  }

  /** A thread column's value sealed for storing (`metadata` JSON text, or the title). */
  sealThreadValue(
    key: ThreadKey,
    threadId: string,
    column: 'metadata' | 'title',
    text: string,
  ): string {
    const envelope = seal(key, threadAad(threadId, column), text);
    return column === 'metadata' ? `"${envelope}"` : envelope;
  }

  /**
   * A thread column's stored value opened: the clear value as it was when it is not encrypted.
   *
   * @throws {ChunklogError} `corrupt-row` naming the thread when it does not open
   */
  async openThreadValue(
    threadId: string,
    column: 'metadata' | 'title',
    stored: unknown,
  ): Promise<unknown> {
    const envelope = envelopeOf(stored);
    if (envelope === undefined) {
      if (!this.requireEncrypted || stored === null || stored === undefined) return stored;
      throw new ChunklogError(
        'corrupt-row',
        `The row of thread ${JSON.stringify(threadId)} is corrupt: its ${column} ${CLEAR}.`,
        { threadId },
      );
    }
    const version = envelopeVersion(envelope);
    const key = version === undefined ? undefined : await this.readKey(threadId, version);
    const text = key === undefined ? undefined : open(key, threadAad(threadId, column), envelope);
    if (text === undefined) {
      throw new ChunklogError(
        'corrupt-row',
        `The row of thread ${JSON.stringify(threadId)} is corrupt: its ${column} ${key === undefined ? 'is encrypted under a key the key provider does not have' : 'does not verify'}.`,
        { threadId },
      );
    }
    return text;
  }

  /** A sealer of a thread's history state parts at `atSeq`. */
  stateSealer(
    key: ThreadKey,
    threadId: string,
    atSeq: number,
  ): (part: number, text: string) => string {
    return (part, text) => seal(key, stateAad(threadId, atSeq, part), text);
  }

  /**
   * An opener of a thread's history state parts at `atSeq`, with the keys their envelopes name
   * fetched: `(part, stored)` → the clear text, or undefined when it does not open or is not
   * encrypted.
   */
  async stateOpener(
    threadId: string,
    atSeq: number,
    parts: readonly { readonly data: unknown }[],
  ): Promise<(part: number, stored: string) => string | undefined> {
    const keys = new Map<number, ThreadKey | undefined>();
    for (const p of parts) {
      const version = typeof p.data === 'string' ? envelopeVersion(p.data) : undefined;
      if (version !== undefined && !keys.has(version)) {
        keys.set(version, await this.readKey(threadId, version));
      }
    }
    return (part, stored) => {
      const version = envelopeVersion(stored);
      // A clear state (written before encryption was on) is not used: states are derived, and
      // an unkeyed digest would let one who can write the database forge a clear one.
      if (version === undefined) return undefined;
      const key = keys.get(version);
      return key === undefined ? undefined : open(key, stateAad(threadId, atSeq, part), stored);
    };
  }
}

/** Seals a row's data for the data column: `(seq, json)` → what is stored. */
export interface RowSealer {
  (seq: number, json: string): string;
  /** The version of the key it seals with. */
  readonly version: number;
  /** The key it seals with. */
  readonly key: Uint8Array;
}

/**
 * The row sealer of a write to `threadId` (its newest key, made first when it has none), or
 * undefined when the store does not encrypt.
 */
export async function rowSealerFor(
  cipher: StoreCipher | undefined,
  threadId: string,
): Promise<RowSealer | undefined> {
  if (cipher === undefined) return undefined;
  return cipher.rowSealer(await cipher.writeKey(threadId), threadId);
}

/**
 * What a write that created its thread passes as the thread's `key_version`: the key it fetched
 * before the lock may be one that an `eraseThread`, committed meanwhile, destroyed with the
 * thread's earlier life (notes/0095).
 */
export const NEW_THREAD: unique symbol = Symbol('a thread this write created');

/**
 * A turn's serialized row data as stored from seq `first`, sealed when there is a sealer. Called
 * under the thread's lock, with the thread row's `key_version` as read under it: when a key
 * rotation moved the thread past the key `seal` was made with (fetched before the lock), the rows
 * are sealed with the thread's newest key, fetched now, so that no row lands under a key the
 * rotation destroys; the same when the write created the thread ({@link NEW_THREAD}), so that
 * none lands under a key an erasure destroyed (notes/0095).
 *
 * @throws {ChunklogError} `invalid-option` when the provider's newest key is older than the
 *   thread's `key_version` (a provider that lost keys)
 */
export async function sealedData(
  cipher: StoreCipher | undefined,
  threadId: string,
  seal: RowSealer | undefined,
  keyVersion: unknown,
  first: number,
  data: readonly string[],
): Promise<readonly string[]> {
  const sealer = await currentSealer(cipher, threadId, seal, keyVersion);
  return sealer === undefined ? data : data.map((json, i) => sealer(first + i, json));
}

/**
 * Whether a key rotation moved the thread (its `key_version`, read under its lock) past the key
 * of `version` that a write fetched before taking the lock (notes/0095).
 */
export function rotatedPast(keyVersion: unknown, version: number): boolean {
  return Number(keyVersion ?? 0) > version;
}

/**
 * `seal`, or a sealer of the thread's newest key when `seal`'s key may be gone: the thread's
 * `key_version` (read under its lock) is newer than `seal`'s key, or is {@link NEW_THREAD}, or the
 * provider no longer has `seal`'s key as it was (an `eraseThread` destroyed it and another write
 * made the thread again, with a new key of the same version): see {@link sealedData}.
 */
export async function currentSealer(
  cipher: StoreCipher | undefined,
  threadId: string,
  seal: RowSealer | undefined,
  keyVersion: unknown,
): Promise<RowSealer | undefined> {
  if (seal === undefined || cipher === undefined) return seal;
  if (keyVersion === NEW_THREAD) return cipher.rowSealer(await cipher.writeKey(threadId), threadId);
  if (!rotatedPast(keyVersion, seal.version)) {
    const now = await cipher.readKey(threadId, seal.version);
    if (now !== undefined && sameBytes(now.key, seal.key)) return seal;
  }
  const key = await cipher.writeKey(threadId);
  checkNotBehind(threadId, key.version, keyVersion);
  return cipher.rowSealer(key, threadId);
}

/**
 * Refuses a write sealing with the provider's newest key, of `version`, when the thread (its
 * `key_version`, read under its lock) was rotated past it: the provider lost keys.
 *
 * @throws {ChunklogError} `invalid-option` naming `encryption` and the thread
 */
export function checkNotBehind(threadId: string, version: number, keyVersion: unknown): void {
  const rotatedTo = Number(keyVersion ?? 0);
  if (version >= rotatedTo) return;
  throw new ChunklogError(
    'invalid-option',
    `The encryption key provider's newest key for thread ${JSON.stringify(threadId)} is version ${version}, but the thread was rotated to version ${rotatedTo}: the provider lost keys.`,
    { option: 'encryption', threadId },
  );
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** Decrypts the encrypted rows among `records` in place, when the store encrypts. */
export async function openRecords(
  cipher: StoreCipher | undefined,
  records: readonly SealedRecord[],
): Promise<void> {
  if (cipher !== undefined && records.length > 0) await cipher.openRecords(records);
}
