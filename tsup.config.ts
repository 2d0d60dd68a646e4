import type { Options } from 'tsup';

const config: Options = {
  entry: {
    index: 'src/index.ts',
    'window/index': 'src/window/index.ts',
    'store/index': 'src/store/index.ts',
    'session/index': 'src/entries/session.ts',
    'testing/index': 'src/testing/index.ts',
    'react/index': 'src/react/index.ts',
    'relay/index': 'src/relay/index.ts',
    'transfer/index': 'src/transfer/index.ts',
    cli: 'src/cli.ts',
  },
  format: ['esm'],
  target: 'node20',
  dts: true,
  sourcemap: true,
  clean: true,
};

export default config;
