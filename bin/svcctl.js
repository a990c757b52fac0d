#!/usr/bin/env node
// The svcctl executable: a thin shim over the bundled CLI in dist/.
import { run } from '../dist/main.js';

await run();
