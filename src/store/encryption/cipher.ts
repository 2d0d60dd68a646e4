import { ChunklogError } from '../../errors/chunklog-error.js';
import type { ThreadKey } from './key-provider.js';

// AES-256-GCM through Node's `crypto` (synchronous; measured about 5× faster per row than
// `crypto.subtle`, whose every call is a promise: notes/0087). The store runs on a server only.

interface Cipher {
  setAAD(aad: Uint8Array): void;
  update(data: Uint8Array): Uint8Array;
  final(): Uint8Array;
  getAuthTag(): Uint8Array;
  setAuthTag(tag: Uint8Array): void;
}
interface NodeCrypto {
  createCipheriv(algorithm: string, key: unknown, iv: Uint8Array): Cipher;
  createDecipheriv(algorithm: string, key: unknown, iv: Uint8Array): Cipher;
  createSecretKey(key: Uint8Array): unknown;
  randomBytes(size: number): Uint8Array;
  randomFillSync(buffer: Uint8Array): Uint8Array;
}
type BufferLike = Uint8Array & { toString(encoding: 'base64' | 'utf8'): string };
interface NodeBuffer {
  from(data: string, encoding: 'base64' | 'utf8'): BufferLike;
  concat(list: readonly Uint8Array[]): BufferLike;
}

let node: { crypto: NodeCrypto; buffer: NodeBuffer } | undefined;

/** Node's `crypto` and `Buffer`; `invalid-option` where there are none (encryption needs Node). */
function nodeCrypto(): { crypto: NodeCrypto; buffer: NodeBuffer } {
  if (node === undefined) {
    const get = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process
      ?.getBuiltinModule;
    const crypto = get?.('node:crypto') as NodeCrypto | undefined;
    const buffer = (get?.('node:buffer') as { Buffer?: NodeBuffer } | undefined)?.Buffer;
    if (typeof crypto?.createCipheriv !== 'function' || buffer === undefined) {
      throw new ChunklogError(
        'invalid-option',
        'createChunkStore: `encryption` needs Node.js (node:crypto, process.getBuiltinModule).',
        { option: 'encryption' },
      );
    }
    node = { crypto, buffer };
  }
  return node;
}

/** Fails now, where encryption cannot run, rather than at the first write. */
export function requireCipher(): void {
  nodeCrypto();
}

/**
 * The start of every encrypted value: format 1 (AES-256-GCM, a 12-byte IV, a 16-byte tag),
 * then the key version and `.`, then base64 of IV ‖ ciphertext ‖ tag. A clear row's data and a
 * clear thread's metadata are JSON objects, so a value that starts with it is never clear data.
 */
export const ENVELOPE_PREFIX = 'ck1.';

const IV_BYTES = 12;
const TAG_BYTES = 16;

/**
 * Random IVs, drawn from the system's generator a few hundred at a time: one `randomBytes(12)`
 * per row costs more than the row's encryption (about 7 µs on the bench machine).
 */
let ivPool: Uint8Array | undefined;
let ivAt = 0;
const IV_POOL = IV_BYTES * 256;

function nextIv(crypto: NodeCrypto): Uint8Array {
  if (ivPool === undefined || ivAt >= IV_POOL) {
    ivPool = crypto.randomFillSync(new Uint8Array(IV_POOL));
    ivAt = 0;
  }
  const iv = ivPool.subarray(ivAt, ivAt + IV_BYTES);
  ivAt += IV_BYTES;
  return iv;
}

/** Node's key object of a thread key, made once per key (the provider's bytes are the map key). */
const keyObjects = new WeakMap<Uint8Array, unknown>();

function keyObject(key: ThreadKey): unknown {
  let object = keyObjects.get(key.key);
  if (object === undefined) {
    object = nodeCrypto().crypto.createSecretKey(key.key);
    keyObjects.set(key.key, object);
  }
  return object;
}

/**
 * Encrypts `text` under `key`, bound to `aad` (what the value is and where it lives).
 *
 * @returns the envelope: {@link ENVELOPE_PREFIX}, the key version, `.`, base64
 */
export function seal(key: ThreadKey, aad: string, text: string): string {
  const { crypto, buffer } = nodeCrypto();
  const iv = nextIv(crypto);
  const cipher = crypto.createCipheriv('aes-256-gcm', keyObject(key), iv);
  cipher.setAAD(buffer.from(aad, 'utf8'));
  const body = cipher.update(buffer.from(text, 'utf8'));
  const end = cipher.final();
  const all = buffer.concat([iv, body, end, cipher.getAuthTag()]);
  return `${ENVELOPE_PREFIX}${key.version}.${all.toString('base64')}`;
}

/** The key version an envelope names, or undefined when `value` is no envelope. */
export function envelopeVersion(value: string): number | undefined {
  if (!value.startsWith(ENVELOPE_PREFIX)) return undefined;
  const dot = value.indexOf('.', ENVELOPE_PREFIX.length);
  const version = Number(value.slice(ENVELOPE_PREFIX.length, dot));
  return dot > 0 && Number.isSafeInteger(version) && version >= 1 ? version : undefined;
}

/**
 * Decrypts an envelope made by {@link seal} with the same `aad`.
 *
 * @returns the text, or undefined when the tag does not verify (another key, another `aad`, a
 *   changed byte) or the envelope is malformed
 */
export function open(key: ThreadKey, aad: string, envelope: string): string | undefined {
  const { crypto, buffer } = nodeCrypto();
  const dot = envelope.indexOf('.', ENVELOPE_PREFIX.length);
  if (dot < 0) return undefined;
  const all = buffer.from(envelope.slice(dot + 1), 'base64');
  if (all.length < IV_BYTES + TAG_BYTES) return undefined;
  try {
    const decipher = crypto.createDecipheriv(
      'aes-256-gcm',
      keyObject(key),
      all.subarray(0, IV_BYTES),
    );
    decipher.setAAD(buffer.from(aad, 'utf8'));
    decipher.setAuthTag(all.subarray(all.length - TAG_BYTES));
    const body = decipher.update(all.subarray(IV_BYTES, all.length - TAG_BYTES)) as BufferLike;
    const end = decipher.final();
    return (end.length === 0 ? body : buffer.concat([body, end])).toString('utf8');
  } catch {
    return undefined;
  }
}

/** What a row's data is bound to: the thread it is stored under and its seq. */
export function rowAad(threadId: string, seq: number): string {
  return `chunklog/row\u0000${threadId}\u0000${seq}`;
}

/** What a thread's metadata or title is bound to. */
export function threadAad(threadId: string, column: 'metadata' | 'title'): string {
  return `chunklog/thread-${column}\u0000${threadId}`;
}

/** What one part of a history state is bound to. */
export function stateAad(threadId: string, atSeq: number, part: number): string {
  return `chunklog/history-state\u0000${threadId}\u0000${atSeq}\u0000${part}`;
}

/** Random bytes (a new data key). */
export function randomKeyBytes(size: number): Uint8Array {
  return new Uint8Array(nodeCrypto().crypto.randomBytes(size));
}
