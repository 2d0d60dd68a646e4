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
import { exitQuietlyOnClosedStdout } from '../shared/closed-pipe.js';
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
exitQuietlyOnClosedStdout();
const out = (text: string) => process.stdout.write(text);
const print = (line = '') => out(`${line}\n`);
const tty = process.stdin.isTTY === true;
// The prompt is shown at a terminal (CHUNKLOG_CLI_PROMPT=1 shows it on a pipe too, for tests).
const prompts = tty || process.env.CHUNKLOG_CLI_PROMPT === '1';

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
    // A queued turn starting after the prompt was shown: its output gets lines of its own.
    if (event.type === 'turn-start') clearPrompt();
    render(event);
    // The prompt comes back when nothing is left to run, not between a turn and a queued one.
    if (event.type === 'turn-end' && session.queued === 0) showPrompt();
  });
  const total = await rowsIn(store, threadId);
  print(p.dim(`${how} thread "${threadId}" (${total} rows in ${values.db})`));
  if (total > 0) await showHistory(threadId, 6);
}

async function threadExists(threadId: string): Promise<boolean> {
  try {
    await store.getThread(threadId);
    return true;
  } catch (error) {
    if (ChunklogError.hasCode(error, 'thread-not-found')) return false;
    throw error;
  }
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
  printMessages(groupRowsToMessages(rows), print, p, rows);
}

/** The last `rows` rows of the thread, grouped into messages (a page may start mid-turn). */
async function showHistory(threadId: string, rows: number): Promise<void> {
  if ((await rowsIn(store, threadId)) === 0) {
    print(p.dim('  (nothing stored yet: a turn is stored when it ends)'));
    return;
  }
  const page = await store.getChunks(threadId, { limit: rows });
  if (page.hasMore) print(p.dim(`  … ${(page.oldestSeq ?? 1) - 1} older rows`));
  printMessages(groupRowsToMessages(page.chunks), print, p, page.chunks);
}

const rl = createInterface({ input: process.stdin, output: process.stdout, terminal: tty });
rl.setPrompt(p.magenta('you ▸ '));

/** Whether the prompt is on the screen, with nothing written after it. */
let prompting = false;
function showPrompt(): void {
  if (!prompts) return;
  rl.prompt(true);
  prompting = true;
}
function clearPrompt(): void {
  if (!prompting) return;
  prompting = false;
  out('\r\u001b[2K'); // back to the start of the prompt's line, and clear it
}

/**
 * Ctrl-C: cancels the running turn (it is stored with what it had, as /cancel does); when
 * nothing runs, leaves. A terminal sends it to readline; a pipe's writer sends the signal.
 */
function interrupt(): void {
  if (session.runningTurnId !== undefined) {
    clearPrompt();
    print(p.dim('^C cancelling the running turn (Ctrl-C again when it has ended to leave)'));
    session.cancel('cancelled with Ctrl-C');
    return;
  }
  rl.close();
}
rl.on('SIGINT', interrupt);
process.on('SIGINT', interrupt);

print(p.bold('chunklog cli-chat'));
print(p.dim(`model: ${models.description}. /help for commands.`));
await open(await firstThread(), 'on');
showPrompt();

async function command(line: string): Promise<boolean> {
  const [name = '', ...words] = line.slice(1).split(/\s+/);
  const rest = words.join(' ');
  switch (name) {
    case 'help':
      print(
        [
          '/history [n]   the last n rows of the thread (default 20), as messages with their seqs',
          '/turn [id]     one turn (default: the latest), with its id and seqs',
          '/cancel        stop the running turn (it is stored with what it had)',
          '/fork [seq]    a new thread holding this one up to row seq (default: all of it), by reference',
          '               and switch to it; a seq is a row number: /history shows them',
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
      // Acknowledged at once, told when it lands; the next lines are not held up meanwhile.
      if (session.runningTurnId !== undefined) {
        print(p.dim('(steering: it joins the running turn at its next step)'));
      }
      void session
        .steer(rest)
        .outcome.then((outcome) =>
          print(
            p.dim(
              outcome.type === 'delivered'
                ? `steering delivered at step ${outcome.step}`
                : outcome.type === 'sent'
                  ? 'no turn was running: sent as a new message'
                  : `steering dropped (${outcome.reason})`,
            ),
          ),
        );
      return true;
    }
    case 'fork': {
      const from = session.threadId;
      if (rest !== '' && !/^\d+$/.test(rest)) {
        print(
          `/fork takes a seq: the number of a row in this thread, as /history shows after each\n` +
            `message ("· seqs 2–5"). /fork 5 forks after row 5; /fork alone forks them all.`,
        );
        return true;
      }
      await session.idle();
      const total = await rowsIn(store, from);
      if (total === 0) {
        print(p.dim('nothing to fork yet: a thread is stored from its first turn'));
        return true;
      }
      const atSeq = rest ? Number(rest) : total;
      let fork: Awaited<ReturnType<typeof store.forkThread>>;
      try {
        fork = await store.forkThread(from, {
          atSeq,
          newThreadId: `${from.split('~')[0]}~${Date.now().toString(36)}`,
          metadata: { title: `fork of ${from}`, forkedFrom: from, atSeq },
        });
      } catch (error) {
        // A seq inside a turn: the store says which seqs would not cut it in two.
        if (!ChunklogError.hasCode(error, 'invalid-option')) throw error;
        print(p.dim(error.message));
        return true;
      }
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
      if ((await rowsIn(store, rest)) === 0 && !(await threadExists(rest))) {
        print(p.dim(`no thread "${rest}" yet: it is created by its first message`));
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
      else if (session.runningTurnId === undefined) showPrompt();
      return next;
    }
    prompting = false; // the user's line ended the prompt's line
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
