// Backups of a store's tables, as an operator would take them: a copy of the SQLite file and its
// WAL, `pg_dump`, `mariadb-dump`. Each yields its text (to look for markers) and the chunk rows
// it holds (to try to decrypt them later).
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, readFileSync } from 'node:fs';
import Database from 'better-sqlite3';
import type { ChunkStore } from '../../../src/store/index.js';
import { MYSQL_URL, POSTGRES_URL } from '../../support/services.js';
import type { DialectHarness } from './dialects.js';

/** A chunk row as a backup holds it. */
export interface DumpedRow {
  readonly threadId: string;
  readonly seq: number;
  /** The data column's text. */
  readonly data: string;
}

/** A backup: its bytes as text, and its chunk rows. */
export interface Dump {
  readonly text: string;
  readonly rows: readonly DumpedRow[];
}

/** Takes a backup of the store's tables on the harness's database. */
export function takeDump(harness: DialectHarness, store: ChunkStore, at: string): Dump {
  const chunks = store.tables.chunks;
  if (harness.name === 'sqlite') {
    const file = harness.file as string;
    let text = '';
    for (const suffix of ['', '-wal']) {
      if (!existsSync(file + suffix)) continue;
      copyFileSync(file + suffix, `${at}${suffix}`);
      text += readFileSync(file + suffix).toString('latin1');
    }
    const db = new Database(at, { readonly: true });
    try {
      const rows = db.prepare(`select thread_id, seq, data from ${chunks}`).all() as {
        thread_id: string;
        seq: number;
        data: string;
      }[];
      return { text, rows: rows.map((r) => ({ threadId: r.thread_id, seq: r.seq, data: r.data })) };
    } finally {
      db.close();
    }
  }
  if (harness.name === 'postgres') {
    const url = new URL(POSTGRES_URL);
    const args = ['-h', url.hostname, '-p', url.port || '5432', '-U', url.username];
    const text = execFileSync(
      'pg_dump',
      [...args, '-d', url.pathname.slice(1), '-t', `${harness.prefix}*`],
      { encoding: 'utf8', maxBuffer: 1 << 28 },
    );
    return { text, rows: pgCopyRows(text, chunks) };
  }
  const url = new URL(MYSQL_URL);
  const args = ['-h', url.hostname, '-P', url.port || '3306', '-u', url.username];
  const tables = Object.values(store.tables);
  const database = url.pathname.slice(1);
  const text = execFileSync('mariadb-dump', [...args, database, ...tables], {
    encoding: 'utf8',
    maxBuffer: 1 << 28,
  });
  const xml = execFileSync('mariadb-dump', [...args, '--xml', database, chunks], {
    encoding: 'utf8',
    maxBuffer: 1 << 28,
  });
  return { text, rows: xmlRows(xml) };
}

/** The rows of the chunks table in a `pg_dump` (its `COPY … FROM stdin` block). */
function pgCopyRows(text: string, chunks: string): DumpedRow[] {
  const lines = text.split('\n');
  const start = lines.findIndex((l) => l.startsWith('COPY ') && l.includes(`${chunks} (`));
  if (start < 0) return [];
  const columns = (/\(([^)]*)\)/.exec(lines[start] as string)?.[1] ?? '').split(', ');
  const rows: DumpedRow[] = [];
  for (const line of lines.slice(start + 1)) {
    if (line === '\\.') break;
    const cells = line.split('\t');
    const cell = (name: string) => cells[columns.indexOf(name)] as string;
    rows.push({ threadId: cell('thread_id'), seq: Number(cell('seq')), data: cell('data') });
  }
  return rows;
}

/** The rows of `mariadb-dump --xml` of the chunks table. */
function xmlRows(xml: string): DumpedRow[] {
  const unescapeXml = (s: string) =>
    s
      .replace(/&quot;/g, '"')
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&amp;/g, '&');
  const rows: DumpedRow[] = [];
  for (const row of xml.matchAll(/<row>([\s\S]*?)<\/row>/g)) {
    const fields = new Map<string, string>();
    for (const f of (row[1] as string).matchAll(
      /<field name="([^"]+)"[^>]*>([\s\S]*?)<\/field>/g,
    )) {
      fields.set(f[1] as string, unescapeXml(f[2] as string));
    }
    rows.push({
      threadId: fields.get('thread_id') ?? '',
      seq: Number(fields.get('seq')),
      data: fields.get('data') ?? '',
    });
  }
  return rows;
}
