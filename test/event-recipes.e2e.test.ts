/**
 * The recipes of docs/events.md for cron, systemd, GitHub Actions and Kubernetes, run as their programs would run
 * them, as far as this machine allows: read from the page, placeholders replaced by a real HTTP server on 127.0.0.1,
 * temp files and the built svcctl, then the exact command lines run in the environment the program gives them
 * (cron's `env -i` with PATH=/usr/bin:/bin and `/bin/sh -c`; a unit's `Environment=` and systemd's PATH, no shell;
 * the step's `run:` with `bash -e`; a container's `command:`, no shell). No cron daemon, systemd, runner or cluster.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { chmod, mkdir, readdir, symlink, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { describe, it } from 'node:test';
import { BIN } from './helpers/cli.js';
import { accepted, type RecordingServer, startRecordingServer } from './helpers/recording-server.js';
import {
  containerEnv,
  evaluateExpressions,
  execWords,
  fencedBlocks,
  readCronJobs,
  readCrontab,
  readSteps,
  readUnit,
  substitute,
  unitEnvironment,
} from './helpers/recipe-blocks.js';
import { packTarball } from './helpers/packed-tarball.js';
import { tempDir } from './helpers/temp-dirs.js';

const PAGE = 'docs/events.md';
const TOKEN = 'ingest-recipe-5b0d';
const SECRET = 'hmac-recipe-e91f';
/** systemd.exec(5): the PATH of a system service. */
const SYSTEMD_PATH = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin';
/** Where node is: the recipes say to add its folder to PATH when it is not in /usr/bin or /bin. */
const NODE_DIR = dirname(process.execPath);

interface Bench {
  root: string;
  home: string;
  bin: string;
  server: RecordingServer;
  /** Until set, the service answers 503 (the outage the spool is for). */
  up: { value: boolean };
  stand: Record<string, string>;
}

async function bench(): Promise<Bench> {
  const root = await tempDir('svcctl-recipes-');
  const home = join(root, 'home');
  const bin = join(root, 'bin');
  for (const dir of [home, bin, join(root, 'etc'), join(root, 'state'), join(root, 'volume')])
    await mkdir(dir, { recursive: true, mode: 0o755 });
  await symlink(BIN, join(bin, 'svcctl'));
  await writeFile(join(root, 'etc', 'ingest-token'), `${TOKEN}\n`, { mode: 0o600 });
  await writeFile(join(root, 'etc', 'hmac-secret'), `${SECRET}\n`, { mode: 0o600 });
  const backup = join(root, 'backup.sh');
  await writeFile(backup, '#!/bin/sh\necho "disk full" >&2\nexit 3\n');
  await chmod(backup, 0o755);
  const up = { value: false };
  const server = await startRecordingServer((request, index) =>
    up.value ? accepted(request, index) : { status: 503, body: 'down for maintenance' },
  );
  const stand = {
    '/usr/local/bin/svcctl': join(bin, 'svcctl'),
    '/usr/local/bin/backup.sh': backup,
    '/etc/svcctl/': `${join(root, 'etc')}/`,
    '/var/lib/svcctl/spool': join(root, 'state', 'spool'),
    '/var/spool/svcctl': join(root, 'volume'),
    'https://svc.example.com/api': server.baseUrl,
  };
  return { root, home, bin, server, up, stand };
}

interface Ran {
  code: number | null;
  output: string;
}

function run(command: string, args: string[], env: Record<string, string>, cwd: string): Promise<Ran> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env, cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, output }));
  });
}

const posted = (b: Bench) => b.server.requests.filter((request) => request.url.endsWith('/v1/event'));

const acceptedFrom = new WeakMap<Bench, number>();

/** From now on the service takes events; the events it takes are counted from here. */
function serviceBack(b: Bench): void {
  b.up.value = true;
  acceptedFrom.set(b, posted(b).length);
}

/** The titles of the events the service took since serviceBack, each checked: the recipe's token, signed with its secret. */
function acceptedTitles(b: Bench): string[] {
  return posted(b)
    .slice(acceptedFrom.get(b) ?? 0)
    .map((request) => {
      const signature = `sha256=${createHmac('sha256', SECRET).update(request.body).digest('hex')}`;
      assert.equal(request.headers['x-hub-signature-256'], signature);
      assert.equal(request.headers.authorization, `Bearer ${TOKEN}`);
      return JSON.parse(request.body.toString('utf8')).event.title as string;
    });
}

const jsonFiles = async (dir: string): Promise<string[]> =>
  (await readdir(dir, { recursive: true }).catch(() => [] as string[])).filter(
    (name) => name.endsWith('.json') && !name.includes('.inflight'),
  );

describe('the recipes of docs/events.md run as written', () => {
  it("cron: each crontab line under env -i with cron's PATH and /bin/sh -c", async () => {
    const b = await bench();
    try {
      const [block] = fencedBlocks(PAGE).filter((block) => block.lang === 'crontab');
      assert.ok(block, 'a crontab block');
      const crontab = readCrontab(substitute(block.code, b.stand));
      assert.equal(crontab.env.PATH, '/usr/bin:/bin', "the recipe keeps cron's PATH");
      const [backup, flush] = crontab.commands;
      assert.ok(backup && flush && crontab.commands.length === 2);
      const cronEnv = Object.entries({
        SHELL: '/bin/sh',
        HOME: b.home,
        LOGNAME: 'backup',
        ...crontab.env,
        // The documented fix for a node outside /usr/bin and /bin (nvm, /usr/local/bin): its folder on PATH.
        ...(['/usr/bin', '/bin'].includes(NODE_DIR) ? {} : { PATH: `${NODE_DIR}:${crontab.env.PATH}` }),
      }).map(([name, value]) => `${name}=${value}`);
      const cron = (command: string) => run('/usr/bin/env', ['-i', ...cronEnv, '/bin/sh', '-c', command], {}, b.home);
      const spool = join(b.home, '.local', 'state', 'svcctl', 'spool');

      const empty = await cron(flush);
      assert.deepEqual(empty, { code: 0, output: '' }, 'an empty spool: exit 0, nothing for cron to mail');
      const bare = await cron(`${b.stand['/usr/local/bin/svcctl']} event flush --quiet`);
      assert.deepEqual(bare, { code: 0, output: '' }, 'and no token is needed to find it empty');

      const failed = await cron(backup);
      assert.equal(failed.code, 3, failed.output);
      assert.match(failed.output, /disk full/);
      assert.equal((await jsonFiles(spool)).length, 1, failed.output);

      serviceBack(b);
      const sent = await cron(flush);
      assert.deepEqual(sent, { code: 0, output: '' });
      assert.equal(acceptedTitles(b).length, 1);
      assert.match(acceptedTitles(b)[0]!, /backup\.sh failed \(exit 3\)$/);
      assert.deepEqual(await jsonFiles(spool), []);
    } finally {
      await b.server.close();
    }
  });

  it("systemd: each ExecStart= split as systemd splits it, under the unit's Environment= and systemd's PATH", async () => {
    const b = await bench();
    try {
      const units = new Map(
        fencedBlocks(PAGE)
          .filter((block) => block.lang === 'ini')
          .map((block) => readUnit(substitute(block.code, b.stand)))
          .map((unit) => [unit.name, unit]),
      );
      assert.deepEqual([...units.keys()].sort(), [
        'backup.service',
        'svcctl-event@.service',
        'svcctl-flush.service',
        'svcctl-flush.timer',
      ]);
      assert.deepEqual(units.get('svcctl-flush.timer')!.keys.get('Timer.OnCalendar'), ['*:0/5']);
      const start = (name: string) => {
        const unit = units.get(name)!;
        const env = unitEnvironment(unit);
        const [line] = unit.keys.get('Service.ExecStart')!;
        const [program, ...args] = execWords(line!, { i: 'backup.service', n: name }, env);
        const path = ['/usr/bin', '/bin'].includes(NODE_DIR) ? SYSTEMD_PATH : `${NODE_DIR}:${SYSTEMD_PATH}`;
        // systemd sets HOME to the home of the unit's User= (systemd.exec(5), "Environment Variables in Spawned
        // Processes"); the test's user stands in for User=backup, with the temp home.
        return run(program!, args, { PATH: path, LANG: 'C.UTF-8', HOME: b.home, ...env }, '/');
      };
      const spool = b.stand['/var/lib/svcctl/spool']!;

      const failed = await start('backup.service');
      assert.equal(failed.code, 3, failed.output);
      const onFailure = await start('svcctl-event@.service');
      assert.equal(onFailure.code, 0, onFailure.output);
      assert.match(onFailure.output, /spooled, not sent/);
      assert.equal((await jsonFiles(spool)).length, 2);

      serviceBack(b);
      const flushed = await start('svcctl-flush.service');
      assert.deepEqual(flushed, { code: 0, output: '' });
      const titles = acceptedTitles(b);
      assert.equal(titles.length, 2);
      assert.ok(titles.includes('backup.service failed'), `the template's, %i replaced: ${titles}`);
      assert.ok(
        titles.some((title) => /backup\.sh failed \(exit 3\)$/.test(title)),
        `the wrapped backup's: ${titles}`,
      );
      assert.deepEqual(await jsonFiles(spool), []);
    } finally {
      await b.server.close();
    }
  });

  it("GitHub Actions: the install step from npm pack's tarball, then the if: failure() step's run: block with bash -e", async () => {
    const b = await bench();
    try {
      const [block] = fencedBlocks(PAGE).filter((block) => block.lang === 'yaml' && block.code.includes('failure()'));
      assert.ok(block, 'an Actions block');
      const steps = readSteps(block.code);
      const step = steps.find((s) => s.env?.SERVICE_INGEST_TOKEN !== undefined)!;
      assert.equal(step.if, 'failure()');
      assert.match(step.env!.SERVICE_INGEST_TOKEN!, /^\$\{\{ secrets\./);
      assert.match(step.env!.SERVICE_HMAC_SECRET!, /^\$\{\{ secrets\./);
      const values = { SERVICE_BASE_URL: b.server.baseUrl, SERVICE_INGEST_TOKEN: TOKEN, SERVICE_HMAC_SECRET: SECRET };
      const env = Object.fromEntries(
        Object.entries(step.env!).map(([name, value]) => [name, evaluateExpressions(value, values)]),
      );
      // The install step as written, in the job's checkout (b.root) with the tarball where the recipe keeps it.
      const install = steps.find((s) => s.run.includes('npm install'))!;
      const tarball = (await packTarball(join(b.root, 'tools'))).slice(b.root.length + 1);
      assert.equal(install.run, `npm install --global ./${tarball}`, 'the tarball npm pack makes, by its name');
      const npm = { npm_config_offline: 'true', npm_config_cache: join(b.root, 'npm-cache') };
      const prefix = { npm_config_prefix: join(b.root, 'prefix'), PATH: `${NODE_DIR}:/usr/bin:/bin`, HOME: b.home };
      const installed = await run('bash', ['-e', '-c', install.run], { ...npm, ...prefix }, b.root);
      assert.equal(installed.code, 0, installed.output);
      const script = join(b.root, 'step.sh');
      await writeFile(script, step.run);
      serviceBack(b);
      const ran = await run(
        'bash',
        ['-e', script],
        {
          PATH: `${join(b.root, 'prefix', 'bin')}:${NODE_DIR}:/usr/bin:/bin`,
          HOME: b.home,
          GITHUB_WORKFLOW: 'CI',
          GITHUB_REF_NAME: 'main',
          GITHUB_REPOSITORY: 'acme/api',
          GITHUB_JOB: 'test',
          GITHUB_SERVER_URL: 'https://github.com',
          GITHUB_RUN_ID: '4242',
          ...env,
        },
        b.root,
      );
      assert.equal(ran.code, 0, ran.output);
      assert.deepEqual(acceptedTitles(b), ['CI failed on main']);
      const payload = JSON.parse(JSON.parse(posted(b)[0]!.body.toString('utf8')).event.payload);
      assert.equal(payload.labels.run, 'https://github.com/acme/api/actions/runs/4242');
      assert.equal(payload.labels.repository, 'acme/api');
    } finally {
      await b.server.close();
    }
  });

  it("Kubernetes: each CronJob container's command: without a shell, its env: with the secret's values, one volume", async () => {
    const b = await bench();
    try {
      const [block] = fencedBlocks(PAGE).filter((block) => block.lang === 'yaml' && block.code.includes('CronJob'));
      assert.ok(block, 'a CronJob block');
      const jobs = readCronJobs(substitute(block.code, b.stand));
      assert.deepEqual(
        jobs.map((job) => [job.job, job.mounts]),
        [
          ['backup', [b.stand['/var/spool/svcctl']]],
          ['svcctl-flush', [b.stand['/var/spool/svcctl']]],
        ],
        'both mount the one volume',
      );
      const secrets = { svcctl: { 'ingest-token': TOKEN, 'hmac-secret': SECRET } };
      const container = (name: string) => {
        const job = jobs.find((j) => j.job === name)!;
        const [program, ...args] = job.command;
        const path = `${NODE_DIR}:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin`;
        return run(program!, args, { PATH: path, HOME: b.home, ...containerEnv(job, secrets) }, '/');
      };
      const spool = join(b.stand['/var/spool/svcctl']!, 'events');

      const empty = await container('svcctl-flush');
      assert.deepEqual(empty, { code: 0, output: '' });
      const failed = await container('backup');
      assert.equal(failed.code, 3, failed.output);
      assert.equal((await jsonFiles(spool)).length, 1);

      serviceBack(b);
      const flushed = await container('svcctl-flush');
      assert.deepEqual(flushed, { code: 0, output: '' });
      assert.equal(acceptedTitles(b).length, 1);
      assert.deepEqual(await jsonFiles(spool), []);
    } finally {
      await b.server.close();
    }
  });
});
