// A key rotation in a child process, for the crash test: opens the SQLite store and key file
// named on its command line, tells its parent it is about to rotate, rotates, and says done.
//   argv[2]: JSON { file, keyFile, threadId, batchRows }
import { createChunkStore, createFileKeyProvider } from '../../../src/store/index.js';

const job = JSON.parse(process.argv[2] as string) as {
  file: string;
  keyFile: string;
  threadId: string;
  batchRows: number;
};
/** The master key of the crash test's key file. */
export const MASTER_KEY: Uint8Array = new Uint8Array(32).fill(42);
const keys = createFileKeyProvider({ path: job.keyFile, masterKey: MASTER_KEY });
const store = createChunkStore({ sqlite: job.file }, { encryption: { keys } });
process.send?.({ type: 'ready' });
const result = await store.rotateThreadKey(job.threadId, { batchRows: job.batchRows });
process.send?.({ type: 'done', version: result.version });
await store.close();
process.disconnect?.();
