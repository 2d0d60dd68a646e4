// The store the session tests run on: chunklog/store over a SQLite file.
import { createChunkStore as create } from '../../src/store/index.js';

export async function createChunkStore(path: string) {
  const store = create({ sqlite: path });
  await store.migrate();
  return store;
}
