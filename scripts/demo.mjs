#!/usr/bin/env node
// The README demo: every part of svcctl against a local sandbox, with nothing
// else installed. Runs right after `npm ci` (which builds dist/):
//
//   npm run demo            (or: node scripts/demo.mjs [--keep])
//
// Each step prints a heading and the exact command it runs (secrets as ***),
// then the command's output. The sandbox is stopped at the end, on a failing
// step and on Ctrl+C; the exit code is non-zero when a step fails (130 on
// Ctrl+C). Everything happens in a temporary folder, used as HOME too, so
// nothing of yours is read or changed; --keep leaves the folder in place.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const BIN = join(ROOT, 'bin', 'svcctl.js');
const STEPS = 8;
const STEP_TIME_LIMIT_MS = 90_000;
const keep = process.argv.includes('--keep');

/** Values never printed: every one is replaced by *** in what the demo shows. */
const secrets = new Set();
const redact = (text) =>
  [...secrets].reduce((shown, secret) => (secret ? shown.split(secret).join('***') : shown), text);

const useColor = process.stdout.isTTY && !process.env.NO_COLOR && process.env.TERM !== 'dumb';
const paint = (code, text) => (useColor ? `\x1b[${code}m${text}\x1b[0m` : text);
const say = (text = '') => process.stdout.write(`${redact(text)}\n`);

let stepNumber = 0;
function heading(title) {
  stepNumber += 1;
  say();
  say(paint('1;36', `==> ${stepNumber}/${STEPS} ${title}`));
}

const quote = (arg) => (/^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, `'\\''`)}'`);

/** The command as a person would type it: VAR=value pairs (secrets as ***), then svcctl and its arguments. */
function shown(args, showEnv = {}, stdinNote) {
  const pairs = Object.entries(showEnv).map(([name, value]) => `${name}=${secrets.has(value) ? '***' : quote(value)}`);
  const line = [...pairs, 'svcctl', ...args.map(quote)].join(' ');
  return stdinNote ? `${stdinNote} | ${line}` : line;
}

// --- the temporary world -------------------------------------------------
const work = await mkdtemp(join(tmpdir(), 'svcctl-demo-'));
const home = join(work, 'home');
const eventsFile = join(work, 'events.ndjson');

/** The environment of every svcctl the demo starts: yours, minus svcctl's own settings, with a temporary HOME. */
function childEnv(extra = {}) {
  const env = {};
  for (const [name, value] of Object.entries(process.env)) if (!/^(SERVICE|SVC)_/.test(name)) env[name] = value;
  return {
    ...env,
    HOME: home,
    USERPROFILE: home,
    XDG_CONFIG_HOME: join(home, '.config'),
    APPDATA: join(home, 'AppData', 'Roaming'),
    NO_COLOR: '1',
    ...extra,
  };
}

let sandbox; // { child, exited }
let current; // the child of the running step
let stopping;

function stopSandbox() {
  stopping ??= (async () => {
    if (!sandbox) return;
    const { child, exited } = sandbox;
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    const killer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    await exited;
    clearTimeout(killer);
  })();
  return stopping;
}

async function cleanUp() {
  current?.kill('SIGTERM');
  await stopSandbox();
  if (keep) say(`(kept ${work})`);
  else await rm(work, { recursive: true, force: true });
}

let interrupted = false;
process.on('SIGINT', () => {
  if (interrupted) return;
  interrupted = true;
  process.stderr.write('\ninterrupted: stopping the sandbox…\n');
  void cleanUp().finally(() => process.exit(130));
});
process.on('SIGTERM', () => void cleanUp().finally(() => process.exit(143)));

class StepFailed extends Error {
  constructor(message, code = 1) {
    super(message);
    this.code = code;
  }
}

/**
 * Runs one svcctl command: prints its line, then its output indented (stdout
 * first, then stderr, so the order does not depend on how two pipes are read),
 * with secrets redacted; resolves with its stdout. A non-zero exit fails the step.
 */
function svcctl(args, { env = {}, showEnv = env, input, stdinNote, quietStdout = false } = {}) {
  say(paint('2', `$ ${shown(args, showEnv, stdinNote)}`));
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      cwd: work,
      env: childEnv(env),
      stdio: [input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
    });
    current = child;
    const out = [];
    const err = [];
    child.stdout.on('data', (chunk) => out.push(chunk));
    child.stderr.on('data', (chunk) => err.push(chunk));
    if (input !== undefined) child.stdin.end(input);
    const timer = setTimeout(() => child.kill('SIGKILL'), STEP_TIME_LIMIT_MS);
    child.on('error', (error) => reject(new StepFailed(`cannot start svcctl: ${error.message}`)));
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      current = undefined;
      const stdout = Buffer.concat(out).toString('utf8');
      const shownText = `${quietStdout ? '' : stdout}${Buffer.concat(err).toString('utf8')}`;
      for (const line of shownText.split('\n')) if (line !== '') say(`  ${line}`);
      if (code === 0) resolve(stdout);
      else
        reject(
          new StepFailed(
            `svcctl ${args[0]}${args[1] && !args[1].startsWith('-') ? ` ${args[1]}` : ''} failed (${signal ?? `exit ${code}`})`,
            code || 1,
          ),
        );
    });
  });
}

/** Starts `svcctl dev` and resolves with its ready line. */
function startSandbox(args) {
  say(paint('2', `$ ${shown(args)} &`));
  const child = spawn(process.execPath, [BIN, ...args], {
    cwd: work,
    env: childEnv(),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise((resolve) => child.on('close', (code, signal) => resolve({ code, signal })));
  sandbox = { child, exited };
  let out = '';
  let log = '';
  child.stderr.on('data', (chunk) => {
    log = (log + chunk.toString('utf8')).slice(-8000);
  });
  sandbox.log = () => log;
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new StepFailed('svcctl dev printed no ready line within 15 s')), 15_000);
    child.stdout.on('data', (chunk) => {
      out += chunk.toString('utf8');
      const end = out.indexOf('\n');
      if (end === -1) return;
      clearTimeout(timer);
      try {
        resolve(JSON.parse(out.slice(0, end)));
      } catch {
        reject(new StepFailed(`svcctl dev printed an unexpected first line: ${out.slice(0, end)}`));
      }
    });
    void exited.then(({ code }) => {
      clearTimeout(timer);
      reject(new StepFailed(`svcctl dev exited (${code}) before it was ready: ${log.trim()}`, code || 1));
    });
  });
}

function prettyEvents(text) {
  return text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => {
      const stored = JSON.parse(line);
      const event = { ...stored.event };
      // The payload travels as a JSON string; shown parsed, it is easier to read.
      if (typeof event.payload === 'string') {
        try {
          event.payload = JSON.parse(event.payload);
        } catch {
          // shown as it is
        }
      }
      return JSON.stringify({ ...stored, event }, null, 2);
    })
    .join('\n');
}

async function main() {
  if (!existsSync(join(ROOT, 'dist', 'main.cjs'))) {
    throw new StepFailed('dist/ is missing: run `npm ci` (or `npm run build`) first');
  }
  say(paint('1', `svcctl demo — a local sandbox in ${work}`));

  heading('Start the sandbox (a local stand-in of a deployment)');
  const ready = await startSandbox(['dev', '--port', '0', '--events-file', eventsFile]);
  const user = ready.users[0];
  const webhook = ready.webhooks[0];
  for (const value of [user.password, webhook.ingest_token, webhook.hmac_secret]) if (value) secrets.add(value);
  say(`  ready: ${ready.base_url} (API), ${ready.mcp_url} (MCP)`);
  say(
    `  user ${user.email}, webhook ${webhook.name} (password, ingest token and HMAC secret read from the ready line)`,
  );
  const base = { SERVICE_BASE_URL: ready.base_url };

  heading('Log in (the password goes through stdin, never argv)');
  const token = (
    await svcctl(['login', '--email', user.email, '--password-stdin'], {
      env: base,
      input: `${user.password}\n`,
      stdinNote: "printf '%s\\n' '***'",
      quietStdout: true,
    })
  ).trim();
  secrets.add(token);
  say(`  access token: *** (a JWT of ${token.length} characters, kept for step 6)`);

  heading('Send a signed event that asks for an investigation');
  const ingest = {
    ...base,
    SERVICE_INGEST_TOKEN: webhook.ingest_token,
    ...(webhook.hmac_secret ? { SERVICE_HMAC_SECRET: webhook.hmac_secret } : {}),
  };
  await svcctl(
    [
      'event',
      'send',
      '--title',
      'Checkout latency above 2 s',
      '--investigate',
      '--source',
      'demo',
      '--severity',
      'high',
      '--message',
      'p95 of /checkout is 2.4 s since 09:12 UTC',
      '--label',
      'team=payments',
    ],
    { env: ingest },
  );

  heading('Send a batch of 5 events (NDJSON, streamed)');
  const batchFile = join(work, 'batch.ndjson');
  const services = ['api', 'web', 'worker', 'db', 'cache'];
  await writeFile(
    batchFile,
    `${services.map((name, index) => JSON.stringify({ title: `Deploy ${index + 1} of 5: ${name}`, investigate: false, payload: { source: 'demo', severity: 'info', labels: { service: name } } })).join('\n')}\n`,
  );
  await svcctl(['event', 'send', '--ndjson', batchFile], { env: ingest });

  heading('Install a remote MCP entry for Cursor (in the temporary HOME)');
  const mcp = { SERVICE_MCP_URL: ready.mcp_url };
  await svcctl(['mcp', 'install', '--client', 'cursor', '--mode', 'remote', '--auth', 'bearer'], { env: mcp });
  say(`  ${join(home, '.cursor', 'mcp.json')}:`);
  for (const line of (await readFile(join(home, '.cursor', 'mcp.json'), 'utf8')).trimEnd().split('\n'))
    say(`    ${line}`);

  heading('Check the entry for real with mcp doctor');
  await svcctl(['mcp', 'doctor', '--client', 'cursor'], { env: { SERVICE_ACCESS_TOKEN: token } });

  heading('What the sandbox received');
  say(paint('2', `$ cat ${eventsFile}   # pretty-printed, one event per block`));
  const received = await readFile(eventsFile, 'utf8');
  for (const line of prettyEvents(received).split('\n')) say(`  ${line}`);
  say(`  ${received.split('\n').filter((line) => line.trim() !== '').length} events stored`);

  heading('Stop the sandbox');
  say(
    paint(
      '2',
      `$ kill -TERM ${sandbox.child.pid}   # svcctl dev stops cleanly on SIGTERM (exit 0) and on Ctrl+C (exit 130)`,
    ),
  );
  await stopSandbox();
  const { code, signal } = await sandbox.exited;
  if (code !== 0) throw new StepFailed(`svcctl dev ended with ${signal ?? `exit ${code}`}`, code || 1);
  say('  stopped');
}

try {
  await main();
  await cleanUp();
  say();
  say(paint('1;32', `demo finished: all ${STEPS} steps passed`));
} catch (error) {
  // After Ctrl+C the SIGINT handler stops everything and exits 130; a step it ended is no failure to report.
  if (interrupted) await new Promise(() => {});
  const code = error instanceof StepFailed ? error.code : 1;
  process.stderr.write(
    `${paint('1;31', 'demo failed:')} ${redact(error instanceof Error ? error.message : String(error))}\n`,
  );
  const log = sandbox?.log?.() ?? '';
  if (log && !(error instanceof StepFailed && /before it was ready/.test(error.message))) {
    process.stderr.write(`last lines of the sandbox log:\n${redact(log.trim().split('\n').slice(-10).join('\n'))}\n`);
  }
  await cleanUp();
  process.exit(code === 0 ? 1 : code);
}
