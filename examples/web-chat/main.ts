// `npm run example:web-chat`: a browser chat over chunklog. Open the URL it prints.
//
//   npm run example:web-chat -- [--port 3000] [--db .tmp/web-chat.db] [--limit 40]
//
// Offline with a scripted model (type `help` in the page); with ANTHROPIC_API_KEY or
// OPENAI_API_KEY set, a real one. `?thread=<id>&limit=<n>` in the page's URL picks the thread
// and the window's eviction limit.
import { parseArgs } from 'node:util';
import { startWebChat } from './server.js';

const { values } = parseArgs({
  options: {
    port: { type: 'string', default: process.env.PORT ?? '3000' },
    db: { type: 'string', default: '.tmp/web-chat.db' },
    limit: { type: 'string', default: '40' },
  },
});

const chat = await startWebChat({
  db: values.db,
  port: Number(values.port),
  limit: Number(values.limit),
});
process.stdout.write(`web-chat listening on ${chat.url}\n`);

const stop = () => {
  void chat.close().then(() => process.exit(0));
};
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
