/**
 * The world of the model-based test of the MCP files (test/mcp-files-model.test.ts): the places six clients
 * of different formats read, in both scopes, where each file is (from docs/clients-*.md, not from svcctl),
 * the file a user may have there beforehand (a comment and an entry of their own), a reading of each file
 * with the format's own parser (jsonc-parser, smol-toml, yaml: not svcctl's), and a snapshot of a folder.
 */
import { existsSync, lstatSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type ParseError, parse as parseJsonc } from 'jsonc-parser';
import { parse as parseToml } from 'smol-toml';
import { parse as parseYaml } from 'yaml';

export interface Place {
  client: string;
  scope: 'user' | 'project';
  /** Relative to the temp HOME; the project is HOME/proj. */
  file: string;
  format: 'json' | 'toml' | 'yaml';
  /** Where the servers are in the file. */
  servers: string;
  /** What a user may have written there before svcctl ran: a comment and a server of their own ("theirs"). */
  userText: string;
}

export const PROJECT = 'proj';

export const PLACES: readonly Place[] = [
  {
    client: 'cursor',
    scope: 'user',
    file: '.cursor/mcp.json',
    format: 'json',
    servers: 'mcpServers',
    userText: '{\n  "mcpServers": {\n    "theirs": { "command": "their-server", "args": ["--stdio"] }\n  }\n}\n',
  },
  {
    client: 'cursor',
    scope: 'project',
    file: `${PROJECT}/.cursor/mcp.json`,
    format: 'json',
    servers: 'mcpServers',
    userText: '{"mcpServers":{"theirs":{"command":"their-server"}},"other":true}',
  },
  {
    client: 'vscode',
    scope: 'user',
    file: '.config/Code/User/mcp.json',
    format: 'json',
    servers: 'servers',
    userText:
      '{\n\t// my servers\n\t"servers": {\n\t\t"theirs": { "type": "stdio", "command": "their-server" },\n\t},\n\t"inputs": []\n}\n',
  },
  {
    client: 'vscode',
    scope: 'project',
    file: `${PROJECT}/.vscode/mcp.json`,
    format: 'json',
    servers: 'servers',
    userText:
      '{\r\n  "servers": {\r\n    // the team\'s\r\n    "theirs": { "command": "their-server" }\r\n  }\r\n}\r\n',
  },
  {
    client: 'codex',
    scope: 'user',
    file: '.codex/config.toml',
    format: 'toml',
    servers: 'mcp_servers',
    userText: '# my Codex settings\nmodel = "o3"\n\n[mcp_servers.theirs]\ncommand = "their-server" # mine\n',
  },
  {
    client: 'codex',
    scope: 'project',
    file: `${PROJECT}/.codex/config.toml`,
    format: 'toml',
    servers: 'mcp_servers',
    userText: '[mcp_servers.theirs]\ncommand = "their-server"\nargs = ["--stdio"]\n',
  },
  {
    client: 'goose',
    scope: 'user',
    file: '.config/goose/config.yaml',
    format: 'yaml',
    servers: 'extensions',
    userText:
      '# my goose\nGOOSE_PROVIDER: openai\nextensions:\n  theirs:\n    enabled: true\n    type: stdio\n    name: theirs\n    cmd: their-server\n    args: []\n',
  },
  {
    client: 'opencode',
    scope: 'user',
    file: '.config/opencode/opencode.jsonc',
    format: 'json',
    servers: 'mcp',
    userText:
      '{\n  // mine\n  "$schema": "https://opencode.ai/config.json",\n  "mcp": {\n    "theirs": { "type": "local", "command": ["their-server"] }\n  }\n}\n',
  },
  {
    client: 'opencode',
    scope: 'project',
    file: `${PROJECT}/opencode.json`,
    format: 'json',
    servers: 'mcp',
    userText: '{\n  "mcp": {\n    "theirs": { "type": "remote", "url": "https://their.example.test/mcp" }\n  }\n}\n',
  },
  {
    client: 'zed',
    scope: 'user',
    file: '.config/zed/settings.json',
    format: 'json',
    servers: 'context_servers',
    userText:
      '// Zed settings\n{\n  "theme": "One Dark",\n  "context_servers": {\n    "theirs": { "command": "their-server", "args": [] }\n  }\n}\n',
  },
  {
    client: 'zed',
    scope: 'project',
    file: `${PROJECT}/.zed/settings.json`,
    format: 'json',
    servers: 'context_servers',
    userText: '{\n  "context_servers": {\n    "theirs": { "command": "their-server" }\n  },\n  "tab_size": 2\n}\n',
  },
];

function parseText(format: Place['format'], text: string): unknown {
  if (format === 'toml') return parseToml(text);
  if (format === 'yaml') return parseYaml(text);
  const errors: ParseError[] = [];
  const value = parseJsonc(text, errors, { allowTrailingComma: true });
  if (errors.length > 0) throw new Error(`not JSON: ${text}`);
  return value;
}

/** The servers in the place's file, read with the format's own parser; null when there is no file. */
// Synchronous reads: the model test reads every place after each step, and a thread-pool hop per file cost more
// CPU than the reads themselves.
export async function serversIn(home: string, place: Place): Promise<Record<string, unknown> | null> {
  const path = join(home, place.file);
  if (!existsSync(path)) return null;
  const text = readFileSync(path, 'utf8');
  const value = (parseText(place.format, text) ?? {}) as Record<string, unknown>;
  return (value[place.servers] ?? {}) as Record<string, unknown>;
}

export interface Tree {
  files: Map<string, string>;
  folders: Set<string>;
}

/** Every file (with its bytes) and folder under `root`, paths relative to it; `skip`: top-level names left out. */
export async function snapshotTree(root: string, skip: readonly string[]): Promise<Tree> {
  const tree: Tree = { files: new Map(), folders: new Set() };
  for (const path of readdirSync(root, { recursive: true, encoding: 'utf8' })) {
    if (skip.some((name) => path === name || path.startsWith(`${name}/`))) continue;
    const info = lstatSync(join(root, path));
    if (info.isDirectory()) tree.folders.add(path);
    else tree.files.set(path, readFileSync(join(root, path)).toString('latin1'));
  }
  return tree;
}
