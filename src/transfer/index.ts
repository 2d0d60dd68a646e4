/**
 * chunklog/transfer: a thread as JSON Lines and back — `exportThread` streams a thread out of a
 * store a page at a time, `importThread` checks every line and stores it again, turn by turn.
 * Built on the store's public interface only. See `docs/recipes.md` ("Export and import a thread").
 *
 * @packageDocumentation
 */
export {
  type ExportPath,
  type ExportThreadOptions,
  type ExportThreadStore,
  exportThread,
} from './export-thread.js';
export {
  type ExportedThread,
  THREAD_EXPORT_FORMAT,
  THREAD_EXPORT_VERSION,
  type ThreadExportEnd,
  type ThreadExportHeader,
  type ThreadExportLine,
  type ThreadExportRow,
  type ThreadExportTurn,
} from './format.js';
export {
  type ImportThreadOptions,
  type ImportThreadResult,
  importThread,
} from './import-thread.js';
export type { ImportThreadStore } from './importer.js';
export type { ThreadExportInput } from './read-lines.js';
