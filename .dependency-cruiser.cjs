// The layering of src/ (docs/architecture.md), checked by `npm run check:layers`: each folder
// imports only the folders below it, and no import cycle runs through two folders. A folder's place is the order
// below; the core folders are ordered among themselves too.
/** Each folder with the folders it may import (besides itself). */
const CORE = [
  'errors',
  'schema',
  'events',
  'reducer',
  'transforms',
  'model-messages',
  'ui-messages',
];
const allowed = {
  ...Object.fromEntries(CORE.map((folder, i) => [folder, CORE.slice(0, i)])),
  window: CORE,
  react: [...CORE, 'window'],
  store: CORE,
  live: CORE,
  session: [...CORE, 'store', 'live'],
  relay: [...CORE, 'live'],
  http: [...CORE, 'store', 'live', 'session', 'relay'],
  testing: [...CORE, 'store', 'live', 'session'],
  inspect: [...CORE, 'store'],
  transfer: [...CORE, 'store'],
  cli: [...CORE, 'store', 'inspect', 'transfer'],
  entries: [...CORE, 'window', 'react', 'store', 'live', 'session', 'relay', 'http', 'transfer'],
};
const FOLDERS = Object.keys(allowed);

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    ...FOLDERS.map((folder) => ({
      name: `no-cycle-across-${folder}`,
      comment: `No cycle, even of types, runs from src/${folder} through another folder.`,
      severity: 'error',
      from: { path: `^src/${folder}/` },
      to: { circular: true, via: { pathNot: `^src/${folder}/` } },
    })),
    ...FOLDERS.map((folder) => ({
      name: `layer-${folder}`,
      comment: `src/${folder} imports only ${allowed[folder].join(', ') || 'nothing else of src'}.`,
      severity: 'error',
      from: { path: `^src/${folder}/` },
      to: {
        path: '^src/',
        pathNot: [`^src/(${[folder, ...allowed[folder]].join('|')})/`],
      },
    })),
    {
      name: 'core-barrel',
      comment: 'src/index.ts (the `chunklog` entry) re-exports the core only.',
      severity: 'error',
      from: { path: '^src/index\\.ts$' },
      to: { path: '^src/', pathNot: [`^src/(${CORE.join('|')})/`] },
    },
    {
      name: 'known-folder',
      comment: 'Every folder of src/ has a place in the layering (add a new one to `allowed`).',
      severity: 'error',
      from: { path: '^src/[^/]+/', pathNot: [`^src/(${FOLDERS.join('|')})/`] },
      to: {},
    },
    {
      name: 'nothing-imports-entries',
      comment: 'The subpath entries sit on top: nothing imports them.',
      severity: 'error',
      from: { pathNot: '^src/entries/' },
      to: { path: '^src/(entries/|cli\\.ts$)' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(node_modules|dist)' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.src.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'types', 'default'],
      extensions: ['.ts', '.js'],
    },
  },
};
