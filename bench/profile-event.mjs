// Where the time of `svcctl event send` goes, from V8's CPU profiler
// (node --cpu-prof): the batch path (--ndjson, N events) or the single path
// (one signed event, several runs added together). Self time is mapped through
// dist/'s source maps to the source file it belongs to, then grouped into the
// steps of an event; the batch path prints µs per event.
//   node bench/profile-event.mjs batch [--events 50000] [--concurrency 16]
//   node bench/profile-event.mjs single [--runs 10]
//   node bench/profile-event.mjs limit [--events 50000] [--concurrency 16]   (bench/fair-limit.mjs, for comparison)
// --other lists the sources of the 'other' step.
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { SourceMap } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { benchEnv, bin, eventLine, machineNote, root, runCommand, startReceiver } from './lib.mjs';

const mode = ['single', 'limit'].includes(process.argv[2]) ? process.argv[2] : 'batch';
const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i === -1 ? fallback : Number(process.argv[i + 1]);
};
const EVENTS = arg('events', 50_000);
const CONCURRENCY = arg('concurrency', 16);
const RUNS = arg('runs', 10);

/** The step a source file's self time counts toward. */
const STEPS = [
  ['read input', /ndjson-lines|input\.ts|internal\/fs|internal\/streams\/(readable|from)|node:fs$/],
  ['parse, validate, serialize', /event-body|event-validate|event-flags/],
  ['sign (HMAC)', /hmac\.ts|internal\/crypto|\(native\) (digest|update|Hmac|HmacImpl|createHmac)$/],
  ['deliver (headers, retries, result)', /deliver\.ts|http\/post\.ts|retry-policy|redact|redaction/],
  [
    'send (HTTP client, sockets)',
    /undici|^wasm:|\(native\) (writev|writeBuffer|writeUtf8String|writeLatin1String|onStreamRead|setTimeout|clearTimeout)$|http\/.*transport|node:net|stream_base_commons|node:_http|internal\/http|internal\/net|node:https|node:tls/,
  ],
  ['result ordering, output', /batch(-results)?\.ts|output\.ts|failed-out/],
  [
    'module loading, start-up',
    /internal\/modules|compile-cache|node:vm$|internal\/process|internal\/bootstrap|internal\/main|node:internal\/vm|commander|chalk|cli\/|top-level|main\.ts|program/,
  ],
  ['garbage collection', /^\(garbage collector\)$/],
];

const maps = new Map();
function sourceOf(url, line, column) {
  if (!url.startsWith('file:') || !url.includes('/dist/')) return url;
  let map = maps.get(url);
  if (map === undefined) {
    try {
      const path = fileURLToPath(url);
      map = new SourceMap(JSON.parse(readFileSync(`${path}.map`, 'utf8')));
    } catch {
      map = null;
    }
    maps.set(url, map);
  }
  const entry = map?.findEntry(line, column);
  return entry?.originalSource?.replace(/^.*?\/(src|node_modules)\//, '$1/') ?? url;
}

function summarize(profiles) {
  const bySource = new Map();
  let total = 0;
  let idle = 0;
  for (const profile of profiles) {
    const deltas = new Map();
    profile.samples.forEach((id, i) => deltas.set(id, (deltas.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));
    for (const node of profile.nodes) {
      const us = deltas.get(node.id) ?? 0;
      if (!us) continue;
      const { functionName, url, lineNumber, columnNumber } = node.callFrame;
      if (functionName === '(idle)' || functionName === '(program)') {
        idle += us;
        continue;
      }
      total += us;
      const source = functionName.startsWith('(')
        ? functionName
        : url
          ? sourceOf(url, lineNumber, columnNumber)
          : `(native) ${functionName}`;
      bySource.set(source, (bySource.get(source) ?? 0) + us);
    }
  }
  const bySteps = new Map();
  for (const [source, us] of bySource) {
    const step = STEPS.find(([, pattern]) => pattern.test(source))?.[0] ?? 'other';
    bySteps.set(step, (bySteps.get(step) ?? 0) + us);
  }
  return { total, idle, bySource, bySteps };
}

const dir = mkdtempSync(join(tmpdir(), 'svcctl-profile-'));
const receiver = await startReceiver();
try {
  const env = benchEnv(receiver.baseUrl);
  const profileArgs = ['--cpu-prof', '--cpu-prof-dir', dir, '--cpu-prof-interval', '200'];
  if (mode !== 'single') {
    const file = join(dir, 'events.ndjson');
    writeFileSync(file, `${Array.from({ length: EVENTS }, (_, i) => eventLine(i)).join('\n')}\n`);
    // stdout to /dev/null, as in bench/event-throughput.mjs.
    const command =
      mode === 'batch'
        ? [bin, 'event', 'send', '--ndjson', file, '--concurrency', String(CONCURRENCY)]
        : [join(root, 'bench', 'fair-limit.mjs'), receiver.origin, file, String(CONCURRENCY)];
    await runCommand(process.execPath, [...profileArgs, ...command], { env, stdio: ['ignore', 'ignore', 'pipe'] });
  } else {
    for (let run = 0; run < RUNS; run++) {
      await runCommand(
        process.execPath,
        [...profileArgs, bin, 'event', 'send', '--title', 'profile', '--severity', 'info'],
        { env },
      );
    }
  }
  const profiles = readdirSync(dir)
    .filter((name) => name.endsWith('.cpuprofile'))
    .map((name) => JSON.parse(readFileSync(join(dir, name), 'utf8')));
  const { total, idle, bySource, bySteps } = summarize(profiles);
  const per = mode === 'single' ? RUNS : EVENTS;
  const unit = mode === 'single' ? 'ms/run' : 'µs/event';
  const scale = mode === 'single' ? 1 / 1000 : 1;
  console.log(
    `${mode} path: ${mode !== 'single' ? `${EVENTS} events, concurrency ${CONCURRENCY}` : `${RUNS} runs`}, ${await machineNote()}`,
  );
  console.log(
    `busy ${(total / 1000).toFixed(0)} ms (${((total / per) * scale).toFixed(2)} ${unit}), idle ${(idle / 1000).toFixed(0)} ms`,
  );
  for (const [step, us] of [...bySteps].sort((a, b) => b[1] - a[1])) {
    console.log(
      `  ${step.padEnd(36)} ${((us / per) * scale).toFixed(2).padStart(8)} ${unit}  ${((us / total) * 100).toFixed(1).padStart(5)}%`,
    );
  }
  if (process.argv.includes('--other')) {
    const other = [...bySource].filter(([source]) => !STEPS.some(([, pattern]) => pattern.test(source)));
    for (const [source, us] of other.sort((a, b) => b[1] - a[1]).slice(0, 25)) {
      console.log(`  other: ${source.slice(-70).padEnd(70)} ${((us / per) * scale).toFixed(2).padStart(8)} ${unit}`);
    }
  }
  console.log('top sources (self time):');
  for (const [source, us] of [...bySource].sort((a, b) => b[1] - a[1]).slice(0, 30)) {
    console.log(
      `  ${source.slice(-60).padEnd(60)} ${((us / per) * scale).toFixed(2).padStart(8)} ${unit}  ${((us / total) * 100).toFixed(1).padStart(5)}%`,
    );
  }
} finally {
  await receiver.stop();
  rmSync(dir, { recursive: true, force: true });
}
