import { ChunklogError } from '../errors/chunklog-error.js';

/**
 * Imports an optional peer dependency (a database driver) the first time it is needed.
 *
 * @param name - the package to import
 * @param why - what it is needed for, for the error message
 * @returns the module's default export when it has one, else the module
 * @throws {ChunklogError} `missing-dependency` saying what to install
 */
export async function loadDependency<T>(name: string, why: string): Promise<T> {
  let loaded: { default?: unknown };
  try {
    loaded = (await import(/* @vite-ignore */ name)) as { default?: unknown };
  } catch (error) {
    const code = (error as { code?: unknown } | null)?.code;
    if (code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND') {
      throw new ChunklogError(
        'missing-dependency',
        `${why} needs the optional dependency "${name}": run \`npm install ${name}\`.`,
        { cause: error, value: name },
      );
    }
    throw new ChunklogError(
      'missing-dependency',
      `${why} could not load "${name}": ${error instanceof Error ? error.message : String(error)}`,
      { cause: error, value: name },
    );
  }
  return (loaded.default ?? loaded) as T;
}
