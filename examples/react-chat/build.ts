// Builds the page with Vite and the React plugin: `client/` into `outDir`, offline. The app
// imports `chunklog`, `chunklog/window` and `chunklog/react` by name; they resolve to the built
// package (`dist/`), as they would from node_modules.
import { join, resolve } from 'node:path';
import react from '@vitejs/plugin-react';
import { build } from 'vite';

const ROOT = resolve(import.meta.dirname, '../..');

/** Builds the client into `outDir` (emptied first). */
export async function buildClient(outDir: string): Promise<void> {
  await build({
    configFile: false,
    root: join(import.meta.dirname, 'client'),
    logLevel: 'error',
    plugins: [react()],
    resolve: {
      alias: [
        { find: /^chunklog$/, replacement: join(ROOT, 'dist/index.js') },
        { find: /^chunklog\/(window|react)$/, replacement: join(ROOT, 'dist/$1/index.js') },
      ],
    },
    build: {
      outDir: resolve(outDir),
      emptyOutDir: true,
      reportCompressedSize: false,
      chunkSizeWarningLimit: 2000,
    },
  });
}
