/** `svcctl mcp clients`: the MCP clients on this machine, each with the evidence that says so (its config folder, its
 * program on PATH, an app bundle or desktop file) and the version its program reports. The same evidence decides
 * `clients = "detected"` of `mcp sync` and `mcp install --detected`. */
import type { Context } from '../core/context.js';
import { foreign } from '../core/output.js';
import { detectClients } from '../mcp/clients/detection.js';

export async function runMcpClients(ctx: Context): Promise<void> {
  const clientEnv = { homeDir: ctx.homeDir, env: ctx.env, platform: ctx.platform, projectDir: ctx.cwd };
  const found = detectClients(clientEnv, { withVersions: true });
  if (ctx.globals.json) {
    ctx.out.jsonResult(
      found.map(({ client, evidence, version }) => ({
        client: client.id,
        label: client.label,
        version: version ?? null,
        evidence: evidence.map(({ kind, path }) => ({ kind, path })),
      })),
    );
    return;
  }
  if (found.length === 0) {
    ctx.out.info('no MCP client was found on this machine (no config folder, program, app bundle or desktop file)');
    return;
  }
  const rows = [
    ['CLIENT', 'VERSION', 'EVIDENCE'],
    ...found.map(({ client, evidence, version }) => [
      client.id,
      version ?? '-',
      evidence.map(({ kind, path }) => `${kind} ${path}`).join('; '),
    ]),
  ].map((row) => row.map((cell) => foreign(cell)));
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)));
  for (const row of rows)
    ctx.out.result(
      row.map((cell, column) => (column === row.length - 1 ? cell : cell.padEnd(widths[column]!))).join('  '),
    );
}
