// `chunklog inspect <target>`: a read-only web page over a store, on 127.0.0.1 by default.

import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseArgs } from 'node:util';
import { ChunklogError } from '../errors/chunklog-error.js';
import { createInspector } from '../inspect/inspector.js';
import { openReadOnlyStore } from '../inspect/open-target.js';
import { inspectorHosts, serveInspector } from '../inspect/serve.js';
import { UsageError } from './fail.js';
import { parsePrices } from './price.js';
import { refuseWithoutKey, STORE_FLAGS, storeEncryption } from './store-encryption.js';

/**
 * Runs `chunklog inspect` until SIGINT or SIGTERM.
 *
 * @param args - the arguments after `inspect`
 * @throws {UsageError} for bad arguments; the store's errors when it cannot be opened or read
 */
export async function inspectCommand(args: string[]): Promise<void> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      port: { type: 'string', default: '4000' },
      host: { type: 'string', default: '127.0.0.1' },
      price: { type: 'string', multiple: true, default: [] },
      'allow-host': { type: 'string', multiple: true, default: [] },
      ...STORE_FLAGS,
    },
  });
  const [target] = positionals;
  if (target === undefined || positionals.length > 1) throw new UsageError('give one target');
  const port = Number(values.port);
  if (!/^\d+$/.test(values.port) || port > 65_535)
    throw new UsageError(`bad --port ${values.port}`);
  const price = parsePrices(values.price);
  const encryption = await storeEncryption(values, true);
  const opened = await openReadOnlyStore(target, { tablePrefix: values.prefix, encryption });
  try {
    await refuseWithoutKey(opened.store);
  } catch (error) {
    await opened.close().catch(() => {});
    // Tables missing under this prefix: the prefix is the likely mistake. Anything else (an
    // encrypted store read without a key) is reported as it is, with the flag that answers it. A
    // thread whose key is gone is not a failure: the inspector lists it as unreadable.
    if (!ChunklogError.hasCode(error, 'not-migrated')) throw error;
    throw new Error(
      `${opened.source} has no chunklog store that can be read (${(error as Error).message}). ` +
        'Is the table prefix right (--prefix)?',
      { cause: error },
    );
  }
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, values.host, resolve);
  });
  const address = server.address() as AddressInfo;
  const handler = createInspector(opened.store, {
    source: opened.source,
    hosts: inspectorHosts(address.address, address.port, values['allow-host']),
    price,
  });
  serveInspector(server, handler);
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  process.stdout.write(
    `chunklog inspect: ${opened.source} (read-only)\nlistening on http://${host}:${address.port}/\n`,
  );
  const stop = () => {
    server.closeAllConnections();
    server.close();
    void opened.close().then(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}
