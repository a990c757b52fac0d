// The environment a client starts an entry's command in, where it differs from the one doctor runs in: a GUI
// client's PATH (docs/mcp-gui.md), and NODE_EXTRA_CA_CERTS, which a client that cleans the environment drops.
import path from 'node:path';
import { findProgram } from '../../fs/path-search.js';
import { guiPathOf, startedFrom } from '../clients/gui-path.js';
import { caFileProblem } from '../install/runner-path.js';
import { CA_VARIABLE } from '../render/values.js';
import { isSvcctlProxy } from '../service-entries.js';
import type { ClientSpec } from '../types.js';
import type { CommandPlan } from './entry-plan.js';
import { isPackageRunner, programOf, type RuntimeEnv } from './runtime-checks.js';
import { fail, pass, type CheckResult } from './types.js';

/** The entry's own PATH first (it wins in the client too), else the session's PATH for a GUI client that has no other. */
export function startRuntime(runtime: RuntimeEnv, client: ClientSpec | null, command: CommandPlan): RuntimeEnv {
  const guiPath = guiPathOf(client, runtime.platform);
  const startPath = command.env.PATH ?? guiPath?.join(path.posix.delimiter);
  return startPath === undefined ? runtime : { ...runtime, env: { ...runtime.env, PATH: startPath } };
}

const reinstall = (client: ClientSpec): string =>
  `svcctl mcp install --client ${client.id} --force (with the same --mode and --name) writes the absolute path of npx and the PATH its node needs`;

/** undefined: nothing GUI-specific to say, the plain runner check speaks. */
export async function guiRunnerCheck(
  command: CommandPlan,
  start: RuntimeEnv,
  shell: RuntimeEnv,
  client: ClientSpec | null,
): Promise<CheckResult | undefined> {
  if (client === null) return undefined;
  const program = programOf(command);
  if (start.platform === 'win32') return windowsRunnerCheck(program, command, start, client);
  if (guiPathOf(client, start.platform) === undefined) return undefined;
  const where = `${client.label} started ${startedFrom(start.platform)} gives it PATH=${start.env.PATH}`;
  const found = await findProgram(program, start.env, start.platform, start.cwd);
  if (found === undefined) {
    const inShell = await findProgram(program, shell.env, shell.platform, shell.cwd);
    if (inShell === undefined) return undefined;
    return fail(
      'runner',
      `${program} is at ${inShell} on your shell's PATH, but ${where}, where there is none`,
      reinstall(client),
    );
  }
  // npx (and the package it starts) begin with `#!/usr/bin/env node`.
  if (isPackageRunner(program) && (await findProgram('node', start.env, start.platform, start.cwd)) === undefined)
    return fail('runner', `${found} needs node, but ${where}, where there is none`, reinstall(client));
  return pass('runner', `${path.basename(program)} found at ${found} (${where})`);
}

/** Windows: the PATH a client started from the Start menu gets is the registry's, which svcctl cannot read, so only an
 * absolute npx that install wrote is checked, with the entry's own PATH, as the client would start it. */
async function windowsRunnerCheck(
  program: string,
  command: CommandPlan,
  start: RuntimeEnv,
  client: ClientSpec,
): Promise<CheckResult | undefined> {
  if (client.startPath !== 'session' || !isPackageRunner(program) || !path.win32.isAbsolute(program)) return undefined;
  const where = `the entry gives it PATH=${command.env.PATH ?? '(none: the PATH of the registry)'}`;
  const found = await findProgram(program, start.env, start.platform, start.cwd);
  if (found === undefined)
    return fail(
      'runner',
      `${program}, the npx the entry runs, is gone (a Node version switched or removed)`,
      reinstall(client),
    );
  if ((await findProgram('node', start.env, start.platform, start.cwd)) === undefined)
    return fail('runner', `${found} needs node, but ${where}, where there is none`, reinstall(client));
  return pass('runner', `npx found at ${found} (${where})`);
}

/** Plain http only, and no npx: such an entry makes no TLS connection, and NODE_EXTRA_CA_CERTS changes nothing. */
function downloadsNothingOverTls(command: CommandPlan): string | undefined {
  if (isPackageRunner(programOf(command)) || !isSvcctlProxy([command.command, ...command.args])) return undefined;
  const urls = command.args.filter((_, index) => ['--base-url', '--mcp-url'].includes(command.args[index - 1] ?? ''));
  return urls.length > 0 && urls.every((url) => url.startsWith('http://')) ? urls.join(' and ') : undefined;
}

/**
 * Set where doctor runs, so the client most likely has it too; only the entry or the client can pass it on. The
 * entry's own value is compared with this one: a path copied from another machine, or a relative one, fails there.
 */
export function caCertsCheck(
  command: CommandPlan,
  runtime: Pick<RuntimeEnv, 'env' | 'platform'>,
  client: ClientSpec | null,
): CheckResult | undefined {
  const value = runtime.env[CA_VARIABLE] ?? '';
  // A reference to a variable unset here resolves to nothing: the `variables` check speaks of that.
  const carried = command.env[CA_VARIABLE] || undefined;
  if (value === '' && carried === undefined) return undefined;
  const plain = downloadsNothingOverTls(command);
  if (plain !== undefined)
    return pass('ca', `not needed (note): the entry makes no TLS connection (svcctl's proxy to ${plain}, no npx)`);
  const reinstall =
    client === null
      ? `set "${CA_VARIABLE}" in the entry's env to the absolute path of your CA file`
      : `svcctl mcp install --client ${client.id} --force (with the same --mode and --name) writes it into the entry`;
  if (carried !== undefined) {
    const problem = caFileProblem(carried, runtime.platform);
    if (problem !== undefined)
      return fail('ca', `the entry sets ${CA_VARIABLE}=${JSON.stringify(carried)}, but ${problem}`, reinstall);
    if (value !== '' && caFileProblem(value, runtime.platform) === undefined && carried !== value)
      return fail('ca', `the entry sets ${CA_VARIABLE}=${carried}, but here it is ${value}`, reinstall);
    return pass('ca', `the entry passes ${CA_VARIABLE} on to the server`);
  }
  const unusable = caFileProblem(value, runtime.platform);
  if (unusable !== undefined)
    return pass('ca', `note: ${CA_VARIABLE}=${JSON.stringify(value)} here, but ${unusable}: no entry is given it`);
  if (command.forwarded.includes(CA_VARIABLE)) return pass('ca', `the entry passes ${CA_VARIABLE} on to the server`);
  if (client?.passesEnvironment)
    return pass('ca', `${client.label} passes its whole environment, ${CA_VARIABLE} with it, on to the server`);
  const who = client?.label ?? 'the client';
  return fail(
    'ca',
    `${CA_VARIABLE} is set here, but the entry does not carry it, and ${who} may start the server with a cleaned environment (Gemini CLI and Codex do): behind a TLS-inspecting proxy npx then fails with SELF_SIGNED_CERT_IN_CHAIN`,
    client === null ? `add "${CA_VARIABLE}": "${value}" to the entry's env` : reinstall,
  );
}
