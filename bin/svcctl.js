#!/usr/bin/env node
// The svcctl executable: a thin shim over the bundled CLI in dist/.
import module from 'node:module';

// Node 22.1+ keeps compiled code between runs (faster start-up); older Node has no such cache.
module.enableCompileCache?.();

const { run } = await import('../dist/main.js');
await run();
