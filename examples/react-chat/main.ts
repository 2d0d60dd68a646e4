// `npm run example:react-chat`: a React chat over chunklog, two ways. Open the URL it prints.
//
//   npm run example:react-chat -- [--port 3000] [--db .tmp/react-chat.db] [--out .tmp/react-chat]
//
// The page builds with Vite at start-up (a few seconds, offline). `/?view=chunks` is the
// chunk-native view on `chunklog/react`; `/?view=usechat` is `useChat` from `@ai-sdk/react` on
// chunklog's UI-message handlers; `&thread=<id>` picks the thread. Offline with a scripted model
// (type help); with ANTHROPIC_API_KEY or OPENAI_API_KEY set, a real one.
import { parseArgs } from 'node:util';
import { startReactChat } from './server.js';

const { values } = parseArgs({
  options: {
    port: { type: 'string', default: process.env.PORT ?? '3000' },
    db: { type: 'string', default: '.tmp/react-chat.db' },
    out: { type: 'string', default: '.tmp/react-chat' },
  },
});

const chat = await startReactChat({
  db: values.db,
  port: Number(values.port),
  outDir: values.out,
});
process.stdout.write(`react-chat listening on ${chat.url}\n`);

const stop = () => {
  void chat.close().then(() => process.exit(0));
};
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
