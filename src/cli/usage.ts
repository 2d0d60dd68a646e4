// The command line's help texts.

const KEY_FILE = `  --key-file  for an encrypted store: the key file of its file key provider, the master key
              in CHUNKLOG_MASTER_KEY (32 bytes, base64 or hex)
  --key-module for an encrypted store with the app's own key provider: a module whose default
              export is the provider, or a function (maybe async) that returns it`;

const TARGET = `  <db>        an SQLite file, postgres://user@host:5432/db or mysql://user@host:3306/db
  --prefix    the store's table prefix (default chunklog_)
${KEY_FILE}`;

/** `chunklog inspect`. */
export const INSPECT_USAGE: string = `Usage: chunklog inspect <target> [--port 4000] [--host 127.0.0.1] [--prefix chunklog_]
                       [--price model=input,output]... [--allow-host name]...
                       [--key-file keys.json | --key-module keys.mjs]

  <target>    an SQLite file, postgres://user@host:5432/db or mysql://user@host:3306/db
  --prefix    the store's table prefix (default chunklog_)
${KEY_FILE}
  --port      the port to listen on (0 picks a free one; default 4000)
  --host      the address to listen on (default 127.0.0.1: this machine only)
  --price     dollars per million input and output tokens of a model ('*' for any other), to
              show costs: --price claude-sonnet-4-5=3,15
  --allow-host another Host name to answer (the page answers only its own address, localhost,
              127.0.0.1 and [::1] otherwise)

The page is read-only: the database is opened read-only and only GET is answered.`;

/** `chunklog export`. */
export const EXPORT_USAGE: string = `Usage: chunklog export <db> <threadId> [--path active|thread] [--out file.jsonl]
                      [--prefix chunklog_] [--key-file keys.json | --key-module keys.mjs]

${TARGET}
  --path      for a conversation with versions (an edited or regenerated turn): active, the path
              the reader sees, or thread, the conversation's own rows; without it such a
              conversation is refused and nothing is written
  --out       the file to write (default: standard output); written whole or not at all,
              readable by its owner only (mode 600) when the store is encrypted

Writes the thread as JSON Lines (format chunklog-thread, version 1), reading the store read-only.`;

/** `chunklog import`. */
export const IMPORT_USAGE: string = `Usage: chunklog import <db> <file.jsonl | -> [--thread-id id] [--append] [--migrate] [--prefix chunklog_]
                      [--max-line-length characters] [--key-file keys.json | --key-module keys.mjs]

${TARGET}
  --thread-id the id of the thread to create (default: the exported thread's id)
  --append    when the thread exists, add the turns of the file it does not hold
  --migrate   create or upgrade the store's tables first (a new SQLite file needs it)
  --max-line-length the longest line to read, in characters: a row carrying a file is one line
              (default: the file's size, so any export is read; from a pipe, 67108864 = 64 Mi)

Reads an export of chunklog export ("-": standard input), checks every line, and stores it
turn by turn: a bad line stops the import with the turns before it stored.`;

/** `chunklog` alone, or `chunklog help`. */
export const USAGE: string = `Usage: chunklog <command> …

  chunklog inspect <db>                   browse a store in a read-only web page
  chunklog export <db> <threadId>         write a thread as JSON Lines
  chunklog import <db> <file.jsonl>       store a thread written by export

chunklog <command> --help tells more.`;
