// Cost of the redactor (src/redaction/redaction.ts) on what svcctl writes: 100,000 lines of each kind, redacted
// one by one with two known secrets (the ingest token and the HMAC secret), and the same lines as 1,000
// tails of 100 lines (event run redacts its tail as one text). Prints CPU ns per line (process.cpuUsage: the
// work of this one thread, which a busy machine disturbs far less than wall time), the median of the rounds.
// To compare with other versions of the file, give their paths: the versions take turns, round by round, in
// the same process (`--module` again for each; `this` is this checkout's file):
//   node --import tsx bench/redaction.mjs [--module path/to/redaction.ts --module this] [--rounds 5]
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { root } from './lib.mjs';

const own = `${root}/src/redaction/redaction.ts`;
const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i === -1 ? fallback : process.argv[i + 1];
};
const modulePaths = process.argv
  .flatMap((value, i) => (process.argv[i - 1] === '--module' ? [value === 'this' ? own : resolve(value)] : []))
  .concat(process.argv.includes('--module') ? [] : [own]);
const ROUNDS = Number(arg('rounds', 5));
const LINES = 100_000;

const TOKEN = 'ingTOK/Zq9+xY=abc-7f3a91c2';
const HMAC = 'hmacSEC/7+7=xyz-0b5e44d1';
const uuid = (n) => `0f2c9d4e-5b6a-4c3d-8e7f-${String(n).padStart(12, '0')}`;
const KINDS = {
  'batch result (JSON, a uuid)': (n) => `{"line":${n},"id":"${uuid(n)}","status":202,"attempts":1}`,
  'log line (time, words)': (n) =>
    `2026-11-25T12:34:56.${String(n % 1000).padStart(3, '0')}Z backup: copied ${n} files to /srv/backup/db-${n % 7}`,
  'hex-ish (sha256, od bytes)': (n) =>
    n % 2
      ? `sha256 ${(n * 2654435761).toString(16).padStart(8, '0').repeat(8)}`
      : ` 69 6e 67 54 4f 4b 2f 5a 71 39 2b 78 ${(n % 256).toString(16).padStart(2, '0')}`,
  'a URL, 1% with the token': (n) =>
    n % 100 ? `GET https://acme.example.com/api/v1/items/${n}?page=2 200` : `Authorization: Bearer ${TOKEN}`,
};

const cpu = () => {
  const { user, system } = process.cpuUsage();
  return user + system;
};
const median = (values) => [...values].sort((a, b) => a - b)[values.length >> 1];

const redactors = [];
for (const path of modulePaths) {
  const { createRedactor } = await import(pathToFileURL(path).href);
  const redactor = createRedactor([TOKEN, HMAC]);
  redactor.redact(`x ${TOKEN} \\u0020`); // compiled once, outside the timing
  redactors.push({ path, redactor });
}
let sink = 0;
for (const [kind, line] of Object.entries(KINDS)) {
  const lines = Array.from({ length: LINES }, (_unused, n) => line(n));
  const tails = Array.from({ length: LINES / 100 }, (_unused, n) => lines.slice(n * 100, n * 100 + 100).join('\n'));
  const samples = redactors.map(() => ({ each: [], asTails: [] }));
  for (let round = 0; round < ROUNDS; round++) {
    for (const [index, { redactor }] of redactors.entries()) {
      let started = cpu();
      for (const text of lines) sink += redactor.redact(text).length;
      samples[index].each.push(((cpu() - started) * 1000) / LINES);
      started = cpu();
      for (const text of tails) sink += redactor.redact(text).length;
      samples[index].asTails.push(((cpu() - started) * 1000) / LINES);
    }
  }
  console.log(kind);
  for (const [index, { path }] of redactors.entries()) {
    const { each, asTails } = samples[index];
    console.log(
      `  ${median(each).toFixed(0).padStart(6)} ns/line one by one   ${median(asTails).toFixed(0).padStart(6)} ns/line in tails of 100   ${path}`,
    );
  }
}
if (sink === 0) console.log('');
