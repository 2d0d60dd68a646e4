/**
 * Whether a database error says that a table or a column the store queries does not exist: the
 * store's tables were never created (or are older than this chunklog), because `migrate()` was
 * not run on this database.
 *
 * @param error - the driver's error
 * @returns true for SQLite's `no such table` / `no such column`, PostgreSQL's undefined table or
 *   column (42P01, 42703) and MySQL's unknown table or column (1146, 1054)
 */
export function isMissingSchema(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { code, errno, message } = error as { code?: unknown; errno?: unknown; message?: unknown };
  if (code === '42P01' || code === '42703') return true;
  if (errno === 1146 || errno === 1054) return true;
  return (
    typeof code === 'string' &&
    code.startsWith('SQLITE_ERROR') &&
    typeof message === 'string' &&
    /^(no such (table|column)|table \S+ has no column named)/.test(message)
  );
}
