// `npm run example:cli-chat`: a terminal chat over an SQLite file. Quit and start it again: it
// resumes the thread where it was, because everything is in the store (the session keeps no
// history in memory). Offline with a scripted model (type `help`); with ANTHROPIC_API_KEY or
// OPENAI_API_KEY set, a real one.
//
//   npm run example:cli-chat -- [--db .tmp/cli-chat.db] [--thread <id>]
//
// Commands: /history [n], /turn [id], /cancel, /fork [seq], /steer <text>, /threads,
// /switch <id>, /notice <text>, /help, /quit. A message sent while the agent works is queued.
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { ChunklogError, groupRowsToMessages } from 'chunklog';
import { type AgentSession, createAgentSession } from 'chunklog/session';
import type { ChunkStore } from 'chunklog/store';
import { createLiveRenderer } from '../shared/live-render.js';
import { openStore } from '../shared/open-store.js';
import { sessionModelOptions } from '../shared/providers.js';
import { chatModels } from '../shared/scripted-agent.js';
import { paint } from '../shared/terminal.js';
import { chatTools } from '../shared/tools.js';
import { printMessages } from './history.js';

const { values } = parseArgs({
  options: {
    db: { type: 'string', default: '.tmp/cli-chat.db' },
    thread: { type: 'string' },
  },
});
const p = paint();
const out = (text: string) => process.stdout.write(text);
const print = (line = '') => out(`${line}\n`);
const tty = process.stdin.isTTY === true;

const { store, close } = await openStore(values.db);
const models = chatModels();

/** The thread to start on: the one asked for, else the most recently active, else a new one. */
async function firstThread(): Promise<string> {
  if (values.thread) return values.thread;
  const [latest] = (await store.listThreads({ limit: 1 })).threads;
  return latest?.id ?? (await store.createThread('main', { metadata: { title: 'main' } })).id;
}

let session: AgentSession;
let unsubscribe = () => {};

/** Opens a session on `threadId` (closing the previous one) and shows where the thread is. */
async function open(threadId: string, how: string): Promise<void> {
  unsubscribe();
  await session?.close();
  session = createAgentSession({
    store,
    threadId,
    ...sessionModelOptions(models),
    tools: chatTools,
    system: 'You are a helpful assistant in a terminal. Keep answers short.',
  });
  const render = createLiveRenderer({ write: out, paint: p, width: process.stdout.columns });
  unsubscribe = session.subscribe((event) => {
    render(event);
    if (event.type === 'turn-end' && tty) rl.prompt(true);
  });
  const total = await rowsIn(store, threadId);
  print(p.dim(`${how} thread "${threadId}" (${total} rows in ${values.db})`));
  if (total > 0) await showHistory(threadId, 6);
}

async function rowsIn(store: ChunkStore, threadId: string): Promise<number> {
  try {
    return (await store.getThread(threadId)).total;
  } catch (error) {
    if (ChunklogError.hasCode(error, 'thread-not-found')) return 0; // created by its first turn
    throw error;
  }
}

/**
 * One turn (the latest when no id is given), read by its id (`getTurn`: one index lookup, not the
 * thread), with its turn id and seqs.
 */
async function showTurn(threadId: string, turnId: string | undefined): Promise<void> {
  // A thread is created by its first turn: until then there is no turn to show.
  const latest = async () => (await store.getChunks(threadId, { limit: 1 })).chunks[0]?.turnId;
  const id = (await rowsIn(store, threadId)) === 0 ? undefined : (turnId ?? (await latest()));
  const rows = id === undefined ? null : await store.getTurn(threadId, id);
  if (id === undefined || rows === null || rows.length === 0) {
    print(p.dim(id === undefined ? '  (no turn stored yet)' : `  no turn "${id}" in this thread`));
    return;
  }
  print(p.dim(`  turn ${id}: ${rows.length} rows, seqs ${rows[0]?.seq}–${rows.at(-1)?.seq}`));
  printMessages(groupRowsToMessages(rows), print, p);
}

/** The last `rows` rows of the thread, grouped into messages (a page may start mid-turn). */
async function showHistory(threadId: string, rows: number): Promise<void> {
  if ((await rowsIn(store, threadId)) === 0) {
    print(p.dim('  (nothing stored yet: a turn is stored when it ends)'));
    return;
  }
  const page = await store.getChunks(threadId, { limit: rows });
  if (page.hasMore) print(p.dim(`  … ${(page.oldestSeq ?? 1) - 1} older rows`));
  printMessages(groupRowsToMessages(page.chunks), print, p);
}

const rl = createInterface({ input: process.stdin, output: process.stdout, terminal: tty });
rl.setPrompt(p.magenta('you ▸ '));

print(p.bold('chunklog cli-chat'));
print(p.dim(`model: ${models.description}. /help for commands.`));
await open(await firstThread(), 'on');
if (tty) rl.prompt();

async function command(line: string): Promise<boolean> {
  const [name = '', ...words] = line.slice(1).split(/\s+/);
  const rest = words.join(' ');
  switch (name) {
    case 'help':
      print(
        [
          '/history [n]   the last n rows of the thread (default 20), as messages',
          '/turn [id]     one turn (default: the latest), with its id and seqs',
          '/cancel        stop the running turn (it is stored with what it had)',
          '/fork [seq]    copy this thread (up to seq) into a new one and switch to it',
          '/steer <text>  add a message to the running turn',
          '/threads       the threads in the store',
          '/switch <id>   go to another thread',
          '/notice <text> a system notice (stored, never sent to the model)',
          '/quit          leave (the thread stays in the store)',
        ].join('\n'),
      );
      return true;
    case 'history':
      await showHistory(session.threadId, Math.min(Number(rest) || 20, 1000));
      return true;
    case 'turn':
      await showTurn(session.threadId, rest || undefined);
      return true;
    case 'cancel':
      print(
        p.dim(session.cancel('cancelled from the terminal') ? 'cancelling…' : 'nothing is running'),
      );
      return true;
    case 'steer': {
      if (!rest) {
        print('usage: /steer <text>');
        return true;
      }
      const steer = session.steer(rest);
      const outcome = await steer.outcome;
      print(
        p.dim(
          outcome.type === 'delivered'
            ? `steering delivered at step ${outcome.step}`
            : outcome.type === 'sent'
              ? 'no turn was running: sent as a new message'
              : `steering dropped (${outcome.reason})`,
        ),
      );
      return true;
    }
    case 'fork': {
      await session.idle();
      const from = session.threadId;
      const total = await rowsIn(store, from);
      const atSeq = rest ? Number(rest) : total;
      const fork = await store.forkThread(from, {
        atSeq,
        newThreadId: `${from.split('~')[0]}~${Date.now().toString(36)}`,
        metadata: { title: `fork of ${from}`, forkedFrom: from, atSeq },
      });
      print(p.dim(`forked "${from}" at seq ${Math.min(atSeq, total)} into "${fork.id}"`));
      await open(fork.id, 'now on');
      return true;
    }
    case 'threads': {
      const { threads } = await store.listThreads({ limit: 50 });
      for (const thread of threads) {
        const here = thread.id === session.threadId ? p.green('*') : ' ';
        print(`${here} ${thread.id}  ${p.dim(`${thread.total} rows, ${thread.updatedAt}`)}`);
      }
      return true;
    }
    case 'switch':
      if (!rest) {
        print('usage: /switch <thread id>');
        return true;
      }
      await open(rest, 'now on');
      return true;
    case 'notice':
      await session.notify({ kind: 'notice', text: rest || 'A notice from the terminal.' });
      return true;
    case 'quit':
      return false;
    default:
      print(`unknown command /${name} (/help)`);
      return true;
  }
}

// Lines are handled one at a time, in order.
let chain = Promise.resolve(true);
let quitting = false;
rl.on('line', (input) => {
  const line = input.trim();
  chain = chain.then(async (going) => {
    if (!going || line === '') return going;
    if (line.startsWith('/')) {
      const next = await command(line).catch((error: unknown) => {
        print(p.red(`error: ${error instanceof Error ? error.message : String(error)}`));
        return true;
      });
      if (!next) rl.close();
      else if (tty && session.runningTurnId === undefined) rl.prompt();
      return next;
    }
    if (session.runningTurnId !== undefined) print(p.dim('(queued: it runs after this turn)'));
    if (!tty) print(`${p.magenta('you ▸')} ${line}`);
    session.send(line);
    return true;
  });
});

rl.on('close', () => {
  if (quitting) return;
  quitting = true;
  void chain
    .then(() => session.idle())
    .then(async () => {
      unsubscribe();
      await session.close();
      await close();
      print(p.dim('bye'));
    });
});
