/**
 * The precedence of the base URL, every combination of its five inputs at once: `--base-url`, `--deployment`,
 * SERVICE_BASE_URL, SVC_BASE_URL and SVCCTL_DEPLOYMENT over a saved default. The expected winner is the list of
 * docs/deployments.md ("Which deployment a command uses"), written out here; `svcctl status --json` shows both the
 * URL used and where it came from, so the program's choice of deployment, the URL and its origin are checked against
 * that one list together. The URLs point at a closed port on 127.0.0.1: nothing answers, nothing is sent.
 */
import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { before, describe, it } from 'node:test';
import { baseUrlSource } from '../src/config/settings.js';
import { runCli } from './helpers/cli.js';
import { tempDir } from './helpers/temp-dirs.js';

let port: number;
before(async () => {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as { port: number }).port;
  await new Promise((resolve) => server.close(resolve));
});

const url = (path: string): string => `http://127.0.0.1:${port}/${path}/api`;

interface Inputs {
  flag: boolean;
  named: boolean;
  variable: boolean;
  legacy: boolean;
  namedByVariable: boolean;
}

/** Every combination of the five inputs, present or absent. */
function allInputs(): Inputs[] {
  const keys = ['flag', 'named', 'variable', 'legacy', 'namedByVariable'] as const;
  return Array.from({ length: 1 << keys.length }, (_, bits) =>
    Object.fromEntries(keys.map((key, i) => [key, (bits & (1 << i)) !== 0])),
  ) as unknown as Inputs[];
}

/** The documented order, first match wins. */
function expected(inputs: Inputs): { base_url: string; source: string; name: string | null } {
  if (inputs.flag) return { base_url: url('flag'), source: '--base-url', name: null };
  if (inputs.named) return { base_url: url('named'), source: '--deployment', name: 'named' };
  if (inputs.variable) return { base_url: url('variable'), source: 'SERVICE_BASE_URL', name: null };
  if (inputs.legacy) return { base_url: url('legacy'), source: 'SVC_BASE_URL', name: null };
  if (inputs.namedByVariable) return { base_url: url('other'), source: 'SVCCTL_DEPLOYMENT', name: 'other' };
  return { base_url: url('default'), source: 'the default deployment of', name: 'default' };
}

function argsAndEnv(inputs: Inputs): { args: string[]; env: Record<string, string> } {
  const args = [
    ...(inputs.flag ? ['--base-url', url('flag')] : []),
    ...(inputs.named ? ['--deployment', 'named'] : []),
  ];
  const env: Record<string, string> = {
    ...(inputs.variable ? { SERVICE_BASE_URL: url('variable') } : {}),
    ...(inputs.legacy ? { SVC_BASE_URL: url('legacy') } : {}),
    ...(inputs.namedByVariable ? { SVCCTL_DEPLOYMENT: 'other' } : {}),
  };
  return { args, env };
}

describe('which base URL a command uses', () => {
  it('the resolver follows the documented order, and an empty flag or variable counts as absent', () => {
    for (const inputs of allInputs()) {
      const globals = { baseUrl: inputs.flag ? url('flag') : '', deployment: inputs.named ? 'named' : '' };
      const source = baseUrlSource({ SERVICE_BASE_URL: '', ...argsAndEnv(inputs).env }, globals);
      const want = expected(inputs);
      const got =
        source.from === 'saved' ? (source.wanted?.source ?? 'the default deployment of') : source.setting.source;
      assert.equal(got, want.source, JSON.stringify(inputs));
    }
  });

  it('status --json: the URL and its origin agree with the documented order in all 32 combinations', async () => {
    const home = await tempDir('svcctl-precedence-');
    for (const name of ['default', 'named', 'other']) {
      const added = await runCli(['deployment', 'add', name, url(name)], { home });
      assert.equal(added.code, 0, added.stderr);
    }
    for (const inputs of allInputs()) {
      const { args, env } = argsAndEnv(inputs);
      const result = await runCli([...args, '--json', 'status'], { home, env });
      assert.equal(result.code, 0, `${JSON.stringify(inputs)}: ${result.stderr}`);
      const { deployment } = JSON.parse(result.stdout) as {
        deployment: { name: string | null; base_url: string; source: string };
      };
      const want = expected(inputs);
      assert.equal(deployment.base_url, want.base_url, JSON.stringify(inputs));
      assert.equal(deployment.name, want.name, JSON.stringify(inputs));
      assert.ok(deployment.source.startsWith(want.source), `${JSON.stringify(inputs)}: ${deployment.source}`);
    }
  });
});
