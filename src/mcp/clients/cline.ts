// Facts and sources: docs/mcp.md.
import type { ClientSpec, DoctorFailure } from '../types.js';
import { extensionHosts } from './extension-hosts.js';
import { underKey } from './paths.js';

/** Cline's schema, shared by the extension and the CLI: a url without type is SSE, and `type` has no "http". */
export function clineTransport(
  name: string,
  entry: Record<string, unknown>,
  reinstall: string,
): DoctorFailure | undefined {
  const typed = typeof entry.type === 'string' ? entry.type : undefined;
  if (typed === 'streamableHttp' || (typed === undefined && entry.transportType === 'http')) return undefined;
  const found =
    typed === undefined
      ? 'a `url` without `type` is SSE for Cline, and this server speaks Streamable HTTP'
      : typed === 'http'
        ? '`type: "http"` fails Cline\'s schema'
        : `\`type: "${typed}"\` is not Streamable HTTP`;
  return {
    message: `'${name}': ${found}; Cline needs "type": "streamableHttp"`,
    fix: `set "type": "streamableHttp" in the entry, or reinstall: ${reinstall}`,
  };
}

const HOSTS = extensionHosts('Cline', 'saoudrizwan.claude-dev', ['settings', 'cline_mcp_settings.json']);

export const cline: ClientSpec = {
  id: 'cline',
  label: 'Cline',
  format: 'json',
  scopes: ['user'],
  configPath: HOSTS.configPath,
  versions: HOSTS.versions,
  hostsWithExtension: HOSTS.hostsWithExtension,
  ...underKey('mcpServers'),
  // ${env:VAR} since Dec 2025 (cline/cline#8079); older versions pass it literally.
  variables: 'env-colon',
  expandsInArgs: false,
  remoteInFile: true,
  windowsCmdWrap: true,
  detectPath: HOSTS.storageDir,
  afterChangeNote: () =>
    'Cline watches its settings file and reconnects by itself; check the MCP Servers view of Cline.',
  // Cline reads a `url` without type as SSE; "http" fails its schema.
  shape: { remote: { urlField: 'url', fields: { type: 'streamableHttp' } } },
  guiApp: true,
  startPath: 'login-shell',
  extraNotes: (request) =>
    request.secrets === 'ref'
      ? ['Cline expands ${env:VAR} since December 2025; with an older Cline use --secrets literal.']
      : [],
  doctor: {
    disabledHint: ", or switch it on in Cline's MCP Servers view",
    entryRule: (name, entry, mode, reinstall) =>
      mode === 'remote' ? clineTransport(name, entry, reinstall(' --mode remote')) : undefined,
  },
};
