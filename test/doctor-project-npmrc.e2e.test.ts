/**
 * Issue 37.1, played as written: a cloned project ships exactly the entry `svcctl mcp print` gives (npx -y
 * service-mcp-server@latest) and a `.npmrc` whose registry, on 127.0.0.1 here, serves a service-mcp-server 9.9.9
 * that writes its environment to a file. `mcp doctor` and `status --check`, run in the project with no terminal,
 * must not start it: the entry is the project's (svcctl's record names no such write), so exit 8. An entry svcctl
 * did write there runs without a question, but npx starts outside the project: the user's registry (~/.npmrc,
 * another stub) serves the package, the project's is never asked. The CLI runs as a process in the project
 * folder, as a user runs it: a process's working folder is what npm reads the project's config from.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { spawnCli, type RunResult } from './helpers/cli.js';
import { startRegistryStub, type RegistryStub } from './helpers/npm-registry-stub.js';
import { tempDir } from './helpers/temp-dirs.js';

const PASSWORD = 'npmrc-attack-pw-5521';
const USER_ENV = {
  SERVICE_BASE_URL: 'http://127.0.0.1:9/api',
  SERVICE_EMAIL: 'dev@example.com',
  SERVICE_PASSWORD: PASSWORD,
  // npm's update check would ask the registry for npm itself: nothing of this test's business.
  NPM_CONFIG_UPDATE_NOTIFIER: 'false',
  // npx fetches from the registries of this test (on 127.0.0.1): not offline, as the other tests' npm is.
  npm_config_offline: undefined,
};

interface Scene {
  home: string;
  project: string;
  /** Where the project's package writes what it got. */
  stolen: string;
  /** Where the user's registry's package writes what it got. */
  ran: string;
  projectRegistry: RegistryStub;
  userRegistry: RegistryStub;
}

const registries: RegistryStub[] = [];
after(() => Promise.all(registries.map((registry) => registry.close())));

async function scene(): Promise<Scene> {
  const home = await tempDir('svcctl-npmrc-home-');
  const project = await tempDir('svcctl-npmrc-project-');
  const records = await tempDir('svcctl-npmrc-records-');
  const stolen = join(records, 'stolen.json');
  const ran = join(records, 'ran.json');
  const projectRegistry = await startRegistryStub({ name: 'service-mcp-server', version: '9.9.9', recordFile: stolen });
  const userRegistry = await startRegistryStub({ name: 'service-mcp-server', version: '1.0.0', recordFile: ran });
  registries.push(projectRegistry, userRegistry);
  spawnSync('git', ['init', '-q'], { cwd: project });
  // The user's own registry: npx run from anywhere but the project asks it, never the network.
  await writeFile(join(home, '.npmrc'), `registry=${userRegistry.url}\n`);
  return { home, project, stolen, ran, projectRegistry, userRegistry };
}

const svcctl = (s: Scene, args: string[]): Promise<RunResult> =>
  spawnCli(args, { home: s.home, cwd: s.project, env: USER_ENV, timeoutMs: 60_000 });

async function plantNpmrc(s: Scene): Promise<void> {
  await writeFile(join(s.project, '.npmrc'), `registry=${s.projectRegistry.url}\n`);
}

function assertProjectPackageNeverRan(s: Scene, said: string): void {
  assert.deepEqual(s.projectRegistry.requests, [], `the project's registry was asked:\n${said}`);
  assert.equal(existsSync(s.stolen), false, `the project's package ran:\n${said}`);
  assert.equal(said.includes(PASSWORD), false);
}

describe("a project's copy of svcctl's own entry, with a .npmrc", { concurrency: true }, () => {
  let printed: string;
  before(async () => {
    const s = await scene();
    const print = await svcctl(s, ['mcp', 'print', '--client', 'claude-code', '--scope', 'project']);
    assert.equal(print.code, 0, print.stderr);
    printed = print.stdout;
    assert.match(printed, /"args": \[\s*"-y",\s*"service-mcp-server@latest"\s*\]/);
  });

  for (const command of [
    ['mcp', 'doctor'],
    ['status', '--check'],
  ]) {
    it(`${command.join(' ')}, no terminal, no --trust-project: exit 8, the project's package never runs`, async () => {
      const s = await scene();
      await writeFile(join(s.project, '.mcp.json'), printed);
      await plantNpmrc(s);
      const result = await svcctl(s, command);
      const said = result.stdout + result.stderr;
      assert.equal(result.code, 8, said);
      assertProjectPackageNeverRan(s, said);
      assert.match(
        said,
        /not run: 'service' comes with the project .* did not write it \(it looks like the entry svcctl writes/,
      );
      assert.match(said, /npx -y service-mcp-server@latest/);
    });
  }
});

describe('an entry svcctl wrote into the project, with a .npmrc planted after', { concurrency: true }, () => {
  for (const command of [
    ['mcp', 'doctor'],
    ['status', '--check'],
  ]) {
    it(`${command.join(' ')}: npx starts outside the project, from the user's registry`, async () => {
      const s = await scene();
      const install = await svcctl(s, ['mcp', 'install', '--client', 'claude-code', '--scope', 'project']);
      assert.equal(install.code, 0, install.stderr);
      await plantNpmrc(s);
      const result = await svcctl(s, command);
      const said = result.stdout + result.stderr;
      assertProjectPackageNeverRan(s, said);
      assert.doesNotMatch(said, /project entry|not run:/);
      // It ran, asked nothing, and got the user's package from the user's registry, in a folder outside the project.
      assert.ok(existsSync(s.ran), said);
      assert.ok(s.userRegistry.requests.includes('/service-mcp-server'), said);
      const seen = JSON.parse(readFileSync(s.ran, 'utf8')) as { cwd: string; env: Record<string, string> };
      assert.equal(seen.env.SERVICE_PASSWORD, PASSWORD);
      assert.ok(relative(s.project, seen.cwd).startsWith('..'), `started in ${seen.cwd}`);
      assert.ok(seen.cwd.startsWith(s.home), `started in ${seen.cwd}`);
    });
  }
});
