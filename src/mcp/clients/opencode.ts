// Facts and sources: docs/clients-agents.md.
import { opencodeLike } from './opencode-like.js';

export const opencode = opencodeLike({
  id: 'opencode',
  label: 'opencode',
  program: 'opencode',
  folder: 'opencode',
  // .jsonc first: what `opencode mcp add` creates; config.json is a legacy name it still reads.
  userNames: ['opencode.jsonc', 'opencode.json'],
  projectNames: ['opencode.jsonc', 'opencode.json'],
  projectDefault: 'opencode.json',
});
