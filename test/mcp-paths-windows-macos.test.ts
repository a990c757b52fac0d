/**
 * The macOS and Windows file of every client, written by hand from each client's own docs or code (the source on
 * each row, read on the date given or in the docs/clients-*.md section named), not from svcctl's output. A client
 * added to the table without a row here fails the last test. Linux paths and the variables that move the files
 * (XDG_CONFIG_HOME, CODEX_HOME, …) are in mcp-paths-clients.test.ts and mcp-paths-xdg-goose-amp.test.ts.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CLIENTS } from '../src/mcp/clients/table.js';
import type { ClientEnv, ClientId } from '../src/mcp/types.js';

const noFs = { exists: () => false, list: () => [] };
const MAC: ClientEnv = { homeDir: '/Users/ann', env: {}, platform: 'darwin', projectDir: '/Users/ann/proj', fs: noFs };
const WIN: ClientEnv = {
  homeDir: 'C:\\Users\\ann',
  env: {
    USERPROFILE: 'C:\\Users\\ann',
    APPDATA: 'C:\\Users\\ann\\AppData\\Roaming',
    LOCALAPPDATA: 'C:\\Users\\ann\\AppData\\Local',
  },
  platform: 'win32',
  projectDir: 'C:\\src\\proj',
  fs: noFs,
};

const SUPPORT = '/Users/ann/Library/Application Support';
const ROAMING = 'C:\\Users\\ann\\AppData\\Roaming';

interface Row {
  /** null: the client does not run on that system. */
  mac: string | null;
  win: string | null;
  source: string;
}

const USER_FILES: Record<ClientId, Row> = {
  'claude-desktop': {
    mac: `${SUPPORT}/Claude/claude_desktop_config.json`,
    win: `${ROAMING}\\Claude\\claude_desktop_config.json`,
    source:
      'https://playwright.dev/mcp/clients/claude-desktop (macOS ~/Library/Application Support/Claude, Windows %APPDATA%\\Claude), read 2026-11-28',
  },
  'claude-code': {
    mac: '/Users/ann/.claude.json',
    win: 'C:\\Users\\ann\\.claude.json',
    source: 'aniongithub/mind-map#55, 2026-06-02 ("~/.claude.json (or %USERPROFILE%\\.claude.json)"), read 2026-11-28',
  },
  cursor: {
    mac: '/Users/ann/.cursor/mcp.json',
    win: 'C:\\Users\\ann\\.cursor\\mcp.json',
    source:
      'https://cursor.com/docs/mcp as quoted by developer.mescius.com (~/.cursor/mcp.json); Windows %USERPROFILE%\\.cursor: zenn.dev/manase/scraps/e229facd691446, read 2026-11-28',
  },
  vscode: {
    mac: `${SUPPORT}/Code/User/mcp.json`,
    win: `${ROAMING}\\Code\\User\\mcp.json`,
    source:
      'https://code.visualstudio.com/docs/getstarted/settings#_settings-file-locations as quoted by josh-/vscode-settings (%APPDATA%\\Code\\User, ~/Library/Application Support/Code/User), read 2026-11-28',
  },
  windsurf: {
    mac: '/Users/ann/.codeium/windsurf/mcp_config.json',
    win: 'C:\\Users\\ann\\.codeium\\windsurf\\mcp_config.json',
    source:
      'https://docs.windsurf.com/windsurf/cascade/mcp (~/.codeium/windsurf/mcp_config.json); Windows %USERPROFILE%\\.codeium\\windsurf: omar-haris/smart-coding-mcp docs/ide-setup/windsurf.md, read 2026-11-28',
  },
  codex: {
    mac: '/Users/ann/.codex/config.toml',
    win: 'C:\\Users\\ann\\.codex\\config.toml',
    source:
      'https://developers.openai.com/codex/mcp (~/.codex/config.toml, or $CODEX_HOME/config.toml), read 2026-11-28',
  },
  gemini: {
    mac: '/Users/ann/.gemini/settings.json',
    win: 'C:\\Users\\ann\\.gemini\\settings.json',
    source:
      'https://geminicli.com/docs/cli/configuration ("~/.gemini/settings.json (where ~ is your home directory)"), read 2026-11-28',
  },
  cline: {
    mac: `${SUPPORT}/Code/User/globalStorage/saoudrizwan.claude-dev/settings/cline_mcp_settings.json`,
    win: `${ROAMING}\\Code\\User\\globalStorage\\saoudrizwan.claude-dev\\settings\\cline_mcp_settings.json`,
    source: "VS Code's user folder (above) + Cline's extension id and file: docs/mcp.md, clients table",
  },
  zed: {
    mac: '/Users/ann/.config/zed/settings.json',
    win: `${ROAMING}\\Zed\\settings.json`,
    source:
      'https://zed.dev/docs/configuring-zed ("~/.config/zed/settings.json"); Windows ~\\AppData\\Roaming\\Zed: skills.sh/wcygan/dotfiles/zed-config, read 2026-11-28',
  },
  opencode: {
    mac: '/Users/ann/.config/opencode/opencode.jsonc',
    win: 'C:\\Users\\ann\\.config\\opencode\\opencode.jsonc',
    source: 'docs/clients-agents.md, opencode (xdg-basedir: ~/.config on every OS)',
  },
  kilo: {
    mac: '/Users/ann/.config/kilo/kilo.jsonc',
    win: 'C:\\Users\\ann\\.config\\kilo\\kilo.jsonc',
    source: 'docs/clients-agents.md, Kilo Code CLI (a fork of opencode: its paths)',
  },
  copilot: {
    mac: '/Users/ann/.copilot/mcp-config.json',
    win: 'C:\\Users\\ann\\.copilot\\mcp-config.json',
    source: 'docs/clients-agents.md, GitHub Copilot CLI (~/.copilot on every OS; github/docs#41226)',
  },
  qwen: {
    mac: '/Users/ann/.qwen/settings.json',
    win: 'C:\\Users\\ann\\.qwen\\settings.json',
    source: 'docs/clients-agents.md, Qwen Code (~/.qwen on every OS)',
  },
  auggie: {
    mac: '/Users/ann/.augment/settings.json',
    win: 'C:\\Users\\ann\\.augment\\settings.json',
    source: 'docs/clients-agents.md, Augment (HOME, else USERPROFILE)',
  },
  droid: {
    mac: '/Users/ann/.factory/mcp.json',
    win: 'C:\\Users\\ann\\.factory\\mcp.json',
    source: 'docs/clients-agents.md, Factory Droid (https://docs.factory.ai/cli/configuration/mcp)',
  },
  amp: {
    mac: '/Users/ann/.config/amp/settings.json',
    win: 'C:\\Users\\ann\\.config\\amp\\settings.json',
    source: 'docs/clients-agents.md, Amp (https://ampcode.com/manual: Windows %USERPROFILE%\\.config\\amp)',
  },
  crush: {
    mac: '/Users/ann/.config/crush/crush.json',
    win: 'C:\\Users\\ann\\.config\\crush\\crush.json',
    source: 'docs/clients-agents.md, Crush (internal/config/load.go: ~/.config/crush on every OS)',
  },
  'roo-code': {
    mac: `${SUPPORT}/Code/User/globalStorage/rooveterinaryinc.roo-cline/settings/mcp_settings.json`,
    win: `${ROAMING}\\Code\\User\\globalStorage\\rooveterinaryinc.roo-cline\\settings\\mcp_settings.json`,
    source:
      'docs/clients-editors.md, Roo Code (macOS ~/Library/Application Support/Code/User/…, Windows %APPDATA%\\Code\\User\\…)',
  },
  'zoo-code': {
    mac: `${SUPPORT}/Code/User/globalStorage/zoocodeorganization.zoo-code/settings/mcp_settings.json`,
    win: `${ROAMING}\\Code\\User\\globalStorage\\zoocodeorganization.zoo-code\\settings\\mcp_settings.json`,
    source: 'docs/clients-editors.md, Zoo Code (the VS Code extension storage, as Roo Code)',
  },
  kiro: {
    mac: '/Users/ann/.kiro/settings/mcp.json',
    win: 'C:\\Users\\ann\\.kiro\\settings\\mcp.json',
    source:
      'https://kiro.dev/docs/mcp/configuration and /docs/cli/chat/configuration (<user-home>/.kiro/settings/mcp.json), read 2026-11-28',
  },
  goose: {
    mac: '/Users/ann/.config/goose/config.yaml',
    win: `${ROAMING}\\Block\\goose\\config\\config.yaml`,
    source: 'docs/clients-editors.md, Goose (~/.config/goose on macOS; %APPDATA%\\Block\\goose\\config on Windows)',
  },
  'visual-studio': {
    mac: null,
    win: 'C:\\Users\\ann\\.mcp.json',
    source: 'docs/clients-editors.md, Visual Studio (%USERPROFILE%\\.mcp.json; Windows only)',
  },
  'lm-studio': {
    mac: '/Users/ann/.lmstudio/mcp.json',
    win: 'C:\\Users\\ann\\.lmstudio\\mcp.json',
    source: 'docs/clients-editors.md, LM Studio ("%USERPROFILE%/.lmstudio/mcp.json on Windows")',
  },
  antigravity: {
    mac: '/Users/ann/.gemini/config/mcp_config.json',
    win: 'C:\\Users\\ann\\.gemini\\config\\mcp_config.json',
    source: 'docs/clients-editors.md, Antigravity (%USERPROFILE%\\.gemini\\config\\ on Windows)',
  },
  continue: {
    mac: '/Users/ann/.continue/config.yaml',
    win: 'C:\\Users\\ann\\.continue\\config.yaml',
    source: 'docs/clients-editors.md, Continue (%USERPROFILE%\\.continue\\config.yaml)',
  },
  'vscode-insiders': {
    mac: `${SUPPORT}/Code - Insiders/User/mcp.json`,
    win: `${ROAMING}\\Code - Insiders\\User\\mcp.json`,
    source: 'docs/clients-editors.md, VS Code Insiders (<app data>/<productName>; coder/vscode-coder#60)',
  },
  'cline-cli': {
    mac: '/Users/ann/.cline/data/settings/cline_mcp_settings.json',
    win: 'C:\\Users\\ann\\.cline\\data\\settings\\cline_mcp_settings.json',
    source: 'docs/clients-agents.md, Cline CLI (@cline/shared storage/paths: ~/.cline/data)',
  },
  'amazon-q': {
    mac: '/Users/ann/.aws/amazonq/mcp.json',
    win: 'C:\\Users\\ann\\.aws\\amazonq\\mcp.json',
    source: 'docs/clients-agents.md, Amazon Q Developer CLI (directories.rs: the home folder on every OS)',
  },
  kimi: {
    mac: '/Users/ann/.kimi-code/mcp.json',
    win: 'C:\\Users\\ann\\.kimi-code\\mcp.json',
    source:
      'https://moonshotai.github.io/kimi-code/en/customization/mcp ("~/.kimi-code/mcp.json (or $KIMI_CODE_HOME/mcp.json)"), read 2026-11-28',
  },
  'xcode-copilot': {
    mac: '/Users/ann/.config/github-copilot/xcode/mcp.json',
    win: null,
    source:
      'github/CopilotForXcode HostApp MCPConfigView.swift (homeDirectory + ".config/github-copilot/xcode/mcp.json"), read 2026-11-28',
  },
  warp: {
    mac: '/Users/ann/.warp/.mcp.json',
    win: 'C:\\Users\\ann\\.warp\\.mcp.json',
    source: 'docs/clients-editors.md, Warp (paths.rs: dirs::home_dir()/.warp/.mcp.json)',
  },
};

/** Files of a project, where the client has that scope: the same relative path on both systems. */
const PROJECT_FILES: Partial<Record<ClientId, string[]>> = {
  'claude-code': ['.mcp.json'],
  cursor: ['.cursor', 'mcp.json'],
  vscode: ['.vscode', 'mcp.json'],
  codex: ['.codex', 'config.toml'],
  gemini: ['.gemini', 'settings.json'],
  zed: ['.zed', 'settings.json'],
  kiro: ['.kiro', 'settings', 'mcp.json'],
  'roo-code': ['.roo', 'mcp.json'],
  droid: ['.factory', 'mcp.json'],
  amp: ['.amp', 'settings.json'],
  copilot: ['.github', 'mcp.json'],
  qwen: ['.qwen', 'settings.json'],
  auggie: ['.augment', 'settings.json'],
  'amazon-q': ['.amazonq', 'mcp.json'],
  warp: ['.warp', '.mcp.json'],
  'visual-studio': ['.mcp.json'],
};

describe('every client: its user file on macOS and Windows', () => {
  for (const [id, row] of Object.entries(USER_FILES) as [ClientId, Row][]) {
    it(`${id} (${row.source})`, () => {
      const client = CLIENTS[id];
      const scope = client.scopes.includes('user') ? 'user' : client.scopes[0]!;
      if (row.win !== null) assert.equal(client.configPath(WIN, scope), row.win);
      if (row.mac !== null) assert.equal(client.configPath(MAC, scope), row.mac);
    });
  }

  it('project files: under the project folder, with the separators of the system', () => {
    for (const [id, parts] of Object.entries(PROJECT_FILES) as [ClientId, string[]][]) {
      const client = CLIENTS[id];
      assert.ok(client.scopes.includes('project'), id);
      assert.equal(client.configPath(WIN, 'project'), ['C:\\src\\proj', ...parts].join('\\'), id);
      if (id !== 'visual-studio')
        assert.equal(client.configPath(MAC, 'project'), ['/Users/ann/proj', ...parts].join('/'), id);
    }
  });

  it('no client of the table is left without a row', () => {
    assert.deepEqual(Object.keys(CLIENTS).sort(), Object.keys(USER_FILES).sort());
  });
});
