#!/usr/bin/env node
// The `chunklog` command. `chunklog inspect <sqlite file | postgres url | mysql url>` serves a
// read-only page on 127.0.0.1 to browse the store's threads, pages of rows and turns.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseArgs } from 'node:util';
import { toNodeListener } from './http/node-listener.js';
import { createInspector } from './inspect/inspector.js';
import { openReadOnlyStore } from './inspect/open-target.js';

const USAGE = `Usage: chunklog inspect <target> [--port 4000] [--host 127.0.0.1] [--prefix chunklog_]

  <target>   an SQLite file, postgres://user@host:5432/db or mysql://user@host:3306/db
  --port     the port to listen on (0 picks a free one; default 4000)
  --host     the address to listen on (default 127.0.0.1: this machine only)
  --prefix   the store's table prefix (default chunklog_)

The page is read-only: the database is opened read-only and only GET is answered.`;

function fail(message: string): never {
  process.stderr.write(`chunklog: ${message}\n\n${USAGE}\n`);
  process.exit(2);
}

async function inspect(args: string[]): Promise<void> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      port: { type: 'string', default: '4000' },
      host: { type: 'string', default: '127.0.0.1' },
      prefix: { type: 'string' },
    },
  });
  const [target] = positionals;
  if (target === undefined || positionals.length > 1) fail('inspect takes one target');
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65_535) fail(`bad --port ${values.port}`);
  const opened = await openReadOnlyStore(target, { tablePrefix: values.prefix });
  try {
    await opened.store.listThreads({ limit: 1 });
  } catch (error) {
    await opened.close().catch(() => {});
    fail(
      `${opened.source} has no chunklog store that can be read (${(error as Error).message}). ` +
        'Is the table prefix right (--prefix)?',
    );
  }
  const handler = createInspector(opened.store, { source: opened.source });
  const server = createServer(toNodeListener(handler));
  await new Promise<void>((resolve) => server.listen(port, values.host, resolve));
  const address = server.address() as AddressInfo;
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

const [command, ...rest] = process.argv.slice(2);
if (command === 'inspect') {
  inspect(rest).catch((error: unknown) =>
    fail(error instanceof Error ? error.message : String(error)),
  );
} else if (
  command === undefined ||
  command === '--help' ||
  command === '-h' ||
  command === 'help'
) {
  process.stdout.write(`${USAGE}\n`);
} else {
  fail(`unknown command ${command}`);
}
