// Facts and sources: docs/clients-agents.md.
import { opencodeLike } from './opencode-like.js';

export const kilo = opencodeLike({
  id: 'kilo',
  label: 'Kilo Code CLI',
  program: 'kilo',
  folder: 'kilo',
  userNames: ['kilo.jsonc', 'kilo.json'],
  projectNames: ['kilo.jsonc', 'kilo.json', 'opencode.jsonc', 'opencode.json'],
  projectDefault: 'kilo.json',
});
