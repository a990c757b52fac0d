/**
 * `mcp clients` starts each client program it finds with `--version`: that program gets svcctl's environment
 * without a secret in it (issue 47, "Secrets stay out of what svcctl hands to others"). A fake `codex` on an
 * absolute temp PATH writes down the environment it was started with.
 */
import assert from 'node:assert/strict';
import { chmod, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { placeFile, runCli } from './helpers/cli.js';
import { tempDir } from './helpers/temp-dirs.js';

const SECRETS: Record<string, string> = {
  SERVICE_PASSWORD: 'pw-probe-9f3k2',
  SERVICE_INGEST_TOKEN: 'ing_probe_7Hq2LmX',
  SERVICE_HMAC_SECRET: 'hmac-probe-Zt81',
  SERVICE_ACCESS_TOKEN: 'eyJprobe.access.tok',
  SVC_PASSWORD: 'legacy-probe-pw',
  SERVICE_AUTH_HEADER: 'Bearer probe-header-tok',
  GITHUB_TOKEN: 'ghp_probeGithubToken1',
  OPENAI_API_KEY: 'sk-probe-openai-key',
};

describe('client version probes', () => {
  it('mcp clients runs `codex --version` with an environment without secrets', async () => {
    const home = await tempDir('svcctl-probe-');
    const record = join(home, 'probe-env.txt');
    const codex = await placeFile(home, 'bin/codex', `#!/bin/sh\nenv > '${record}'\necho "codex-cli 0.63.0"\n`);
    await chmod(codex, 0o755);
    const env = { PATH: `${join(home, 'bin')}:/usr/bin:/bin`, PROBE_MARK: 'plain-setting', ...SECRETS };
    const result = await runCli(['--json', 'mcp', 'clients'], { home, env });
    assert.equal(result.code, 0, result.stderr);
    const codexRow = (JSON.parse(result.stdout) as { client: string; version: string | null }[]).find(
      (row) => row.client === 'codex',
    );
    assert.equal(codexRow?.version, '0.63.0');
    const seen = await readFile(record, 'utf8');
    // The probe did run with svcctl's environment: an ordinary variable reached it.
    assert.match(seen, /^PROBE_MARK=plain-setting$/m);
    for (const [name, value] of Object.entries(SECRETS)) {
      assert.ok(!seen.includes(value), `${name}'s value reached the probe`);
      assert.doesNotMatch(seen, new RegExp(`^${name}=`, 'm'));
    }
  });
});
