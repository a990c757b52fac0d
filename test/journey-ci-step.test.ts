/**
 * A CI step, as a journey: the GitHub Actions step of docs/events.md ("Tell the service this job failed", `if:
 * failure()`, env: from secrets, no spool) runs after a failed job, against the sandbox up, down, and with a token it
 * does not know. The step's `run:` block is read from the page and expanded by bash as a runner would (bash -e);
 * svcctl itself runs in-process with the words bash gave it, in the step's environment. What the CI log shows
 * (stdout and stderr, no terminal) is checked against the step's exit code (the README's table), the sandbox's own
 * record (its events file and request log) and the disk (no spool), and for every secret of the step.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { type RunResult, runCli, secretsIn } from './helpers/cli.js';
import { type DevServer, startDev } from './helpers/dev-sandbox.js';
import { pollUntil } from './helpers/poll.js';
import { evaluateExpressions, fencedBlocks, readSteps, type WorkflowStep } from './helpers/recipe-blocks.js';
import { tempDir } from './helpers/temp-dirs.js';

/** The README's table. */
const EXIT = { ok: 0, authRejected: 4, unavailable: 6 } as const;

const GITHUB = {
  GITHUB_ACTIONS: 'true',
  GITHUB_WORKFLOW: 'CI',
  GITHUB_REF_NAME: 'main',
  GITHUB_REPOSITORY: 'acme/api',
  GITHUB_JOB: 'test',
  GITHUB_SERVER_URL: 'https://github.com',
  GITHUB_RUN_ID: '4242',
};

function theStep(): WorkflowStep {
  const [block] = fencedBlocks('docs/events.md').filter((b) => b.lang === 'yaml' && b.code.includes('failure()'));
  assert.ok(block, 'the GitHub Actions block of docs/events.md');
  const step = readSteps(block.code).find((s) => s.env?.SERVICE_INGEST_TOKEN !== undefined);
  assert.ok(step, 'the step that sends the event');
  assert.equal(step.if, 'failure()');
  assert.match(step.env!.SERVICE_INGEST_TOKEN!, /^\$\{\{ secrets\./, 'the token comes from secrets');
  assert.match(step.env!.SERVICE_HMAC_SECRET!, /^\$\{\{ secrets\./, 'the HMAC secret comes from secrets');
  assert.doesNotMatch(step.run, /--spool/, 'no spool on a runner that is thrown away');
  return step;
}

/**
 * The words of each svcctl command of a `run:` block as bash -e expands them, with the step's environment: svcctl
 * is a shell function there that records its words, so quoting and `$GITHUB_*` are bash's own.
 */
async function svcctlWords(run: string, env: Record<string, string>): Promise<string[][]> {
  const dir = await tempDir('svcctl-ci-step-');
  const script = join(dir, 'step.sh');
  await writeFile(
    script,
    `svcctl() { printf '%s\\0' "$@" >> "$SVCCTL_WORDS"; printf '\\n\\0' >> "$SVCCTL_WORDS"; }\n${run}`,
  );
  const wordsFile = join(dir, 'words');
  const code = await new Promise<number | null>((resolve, reject) => {
    const child = spawn('bash', ['-e', script], {
      env: { PATH: process.env.PATH, HOME: dir, ...env, SVCCTL_WORDS: wordsFile },
      stdio: 'ignore',
    });
    child.on('error', reject);
    child.on('close', resolve);
  });
  assert.equal(code, 0, 'the block expands');
  const words = (await readFile(wordsFile, 'utf8')).split('\0');
  const commands: string[][] = [];
  let current: string[] = [];
  for (const word of words.slice(0, -1)) {
    if (word === '\n') {
      commands.push(current);
      current = [];
    } else current.push(word);
  }
  return commands;
}

interface StepRun {
  result: RunResult;
  /** The step's secrets, as the runner would mask them. */
  secrets: string[];
  home: string;
}

/** The step after a failed job: its env: evaluated with the given secret values, its one svcctl command run. */
async function runStep(values: Record<string, string>): Promise<StepRun> {
  const step = theStep();
  const env = {
    ...GITHUB,
    ...Object.fromEntries(Object.entries(step.env!).map(([name, value]) => [name, evaluateExpressions(value, values)])),
  };
  const commands = await svcctlWords(step.run, env);
  assert.equal(commands.length, 1, 'the block runs svcctl once, so its exit code is the step’s');
  const home = await tempDir('svcctl-ci-home-');
  // A runner's log is no terminal and sets no NO_COLOR: what svcctl prints there is what the log shows.
  const result = await runCli(commands[0]!, { home, env: { ...env, NO_COLOR: undefined } });
  return { result, secrets: [values.SERVICE_INGEST_TOKEN!, values.SERVICE_HMAC_SECRET!], home };
}

const secretValues = (dev: DevServer, token = dev.ready.webhooks[0]!.ingest_token): Record<string, string> => ({
  SERVICE_BASE_URL: dev.ready.base_url,
  SERVICE_INGEST_TOKEN: token,
  SERVICE_HMAC_SECRET: dev.ready.webhooks[0]!.hmac_secret!,
});

async function storedEvents(
  file: string,
): Promise<Array<{ id: string; title: string; source?: string; payload: string }>> {
  const text = await readFile(file, 'utf8').catch(() => '');
  return text
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line).event);
}

/** What a CI log must not hold: a secret, or a terminal's escapes. */
function assertCleanLog(step: StepRun): void {
  assert.deepEqual(secretsIn(step.result, step.secrets), [], 'no secret in the log');
  assert.doesNotMatch(step.result.stdout + step.result.stderr, /\x1b/, 'no terminal escapes in a log');
}

const log = (r: RunResult): string => `${r.stdout}${r.stderr}`;

async function nothingSpooled(home: string): Promise<void> {
  const state = await readdir(join(home, '.local', 'state'), { recursive: true }).catch(() => [] as string[]);
  assert.deepEqual(
    state.filter((name) => name.includes('spool')),
    [],
    'no spool on the runner',
  );
}

describe('a CI step: the failure() step of docs/events.md after a failed job', () => {
  it('the service up: exit 0, the log names the id the service stored, once, with the run’s labels', async () => {
    const eventsFile = join(await tempDir('svcctl-ci-sandbox-'), 'events.ndjson');
    const dev = await startDev(['--events-file', eventsFile]);
    try {
      const step = await runStep(secretValues(dev));
      assert.equal(step.result.code, EXIT.ok, log(step.result));
      assertCleanLog(step);
      const stored = await pollUntil('the event in the events file', async () => {
        const events = await storedEvents(eventsFile);
        return events.length > 0 && events;
      });
      assert.equal(stored.length, 1, 'one event');
      const [event] = stored;
      assert.equal(step.result.stdout.trim(), event!.id, 'stdout is the id the service stored');
      assert.match(step.result.stderr, new RegExp(`event ${event!.id} sent: HTTP 202 after 1 attempt`));
      assert.equal(event!.title, 'CI failed on main');
      const labels = JSON.parse(event!.payload).labels;
      assert.equal(labels.run, 'https://github.com/acme/api/actions/runs/4242');
      assert.equal(labels.repository, 'acme/api');
      await dev.waitForStderr(/POST \/api\/v1\/event 202/);
      await nothingSpooled(step.home);
    } finally {
      await dev.stop();
    }
  });

  it('the service down: exit 6 fails the step, the log says failed, not sent, and nothing is spooled', async () => {
    const dev = await startDev();
    const values = secretValues(dev);
    await dev.stop();
    const step = await runStep(values);
    assert.equal(step.result.code, EXIT.unavailable, log(step.result));
    assertCleanLog(step);
    assert.equal(step.result.stdout, '', 'no id: no event exists');
    assert.match(step.result.stderr, /^error: event \S+ failed, not sent: /m);
    assert.doesNotMatch(step.result.stderr, /\bsent: HTTP|spooled/);
    await nothingSpooled(step.home);
  });

  it('a token the service does not know: exit 4, the log says unauthorized, the sandbox answered 401 and stored nothing', async () => {
    const eventsFile = join(await tempDir('svcctl-ci-sandbox-'), 'events.ndjson');
    const dev = await startDev(['--events-file', eventsFile]);
    try {
      const step = await runStep(secretValues(dev, 'ing_rotated-and-not-updated-in-the-repository'));
      assert.equal(step.result.code, EXIT.authRejected, log(step.result));
      assertCleanLog(step);
      assert.equal(step.result.stdout, '');
      assert.match(step.result.stderr, /^error: event \S+ unauthorized, not sent: /m);
      await dev.waitForStderr(/POST \/api\/v1\/event 401/);
      assert.deepEqual(await storedEvents(eventsFile), []);
    } finally {
      await dev.stop();
    }
  });
});
