// `npm run example:scripts -- export … | head`: when the reader of stdout goes away, writing to
// it fails with EPIPE, which Node raises as an unhandled 'error' event. A command-line tool
// stops quietly then, as `cat` or `grep` do.

/** Exits quietly (status 0) when stdout's reader has gone away; other errors are raised. */
export function exitQuietlyOnClosedStdout(): void {
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(0);
    throw error;
  });
}
