#!/usr/bin/env node
// The `chunklog` command: `inspect` (a read-only page over a store), `export` and `import` (a
// thread as JSON Lines). See src/cli/.
import { main } from './cli/main.js';

void main(process.argv.slice(2));
