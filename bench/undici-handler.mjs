// CPU per request of undici's two handler APIs on one Pool, in one process, against bench/receiver.mjs:
// the deprecated one (onConnect/onHeaders/onData/onComplete/onError) and the documented one
// (onRequestStart/onResponseStart/onResponseData/onResponseEnd/onResponseError), which undici 7 wraps in an
// adapter that parses every answer's headers. Blocks of requests, 16 in flight, alternated A B B A in the same
// rounds; prints each block's CPU µs per request and the median of the per-round differences. No start-up,
// no signing: the difference is what the API costs, to be set against a batch's CPU per event
// (`python3 bench/cpu-rounds.py`, BENCHMARKS.md "undici's handler API and its public entry").
//   node bench/undici-handler.mjs [--rounds 20] [--requests 20000]
import { Pool } from 'undici';
import { alternatedRounds, machineNote, median, startReceiver } from './lib.mjs';

const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i === -1 ? fallback : Number(process.argv[i + 1]);
};
const ROUNDS = arg('rounds', 20);
const REQUESTS = arg('requests', 20_000);
const IN_FLIGHT = 16;

/** What svcctl's handler keeps of an answer: the status, and the body's bytes. */
class Legacy {
  constructor(done) {
    this.done = done;
    this.status = 0;
    this.size = 0;
  }
  onConnect() {}
  onHeaders(status) {
    this.status = status;
    return true;
  }
  onData(chunk) {
    this.size += chunk.length;
    return true;
  }
  onComplete() {
    this.done(null, this.status);
  }
  onError(error) {
    this.done(error);
  }
}

class Documented {
  constructor(done) {
    this.done = done;
    this.status = 0;
    this.size = 0;
  }
  onRequestStart() {}
  onResponseStart(_controller, status) {
    this.status = status;
  }
  onResponseData(_controller, chunk) {
    this.size += chunk.length;
  }
  onResponseEnd() {
    this.done(null, this.status);
  }
  onResponseError(_controller, error) {
    this.done(error);
  }
}

const handlers = { legacy: Legacy, documented: Documented };
const receiver = await startReceiver();
const pool = new Pool(receiver.origin, { connections: IN_FLIGHT });
const body = Buffer.from(JSON.stringify({ event: { title: 'bench', created_at: '2026-11-27T00:00:00.000Z' } }));
const options = { path: '/api/v1/event', method: 'POST', headers: { 'content-type': 'application/json' }, body };

function block(Handler) {
  return new Promise((resolve, reject) => {
    let started = 0;
    let finished = 0;
    const before = process.cpuUsage();
    const next = () => {
      started++;
      pool.dispatch(
        options,
        new Handler((error) => {
          if (error) return reject(error);
          if (++finished === REQUESTS) {
            const used = process.cpuUsage(before);
            return resolve((used.user + used.system) / REQUESTS);
          }
          if (started < REQUESTS) next();
        }),
      );
    };
    for (let i = 0; i < IN_FLIGHT; i++) next();
  });
}

console.log(`${await machineNote()}, ${REQUESTS} requests a block, ${IN_FLIGHT} in flight`);
try {
  const samples = await alternatedRounds(
    Object.keys(handlers),
    ROUNDS,
    2,
    (name) => block(handlers[name]),
    (values) =>
      Object.entries(values)
        .map(([name, us]) => `${name} ${us.toFixed(2)} µs`)
        .join(', '),
  );
  const differences = samples.documented.map((us, i) => us - samples.legacy[i]);
  const sorted = [...differences].sort((a, b) => a - b);
  const quartile = (q) => sorted[Math.round(q * (sorted.length - 1))].toFixed(2);
  console.log(
    `medians: legacy ${median(samples.legacy).toFixed(2)} µs, documented ${median(samples.documented).toFixed(2)} µs`,
  );
  console.log(
    `documented − legacy, same round: ${median(differences).toFixed(2)} µs [${quartile(0.25)} to ${quartile(0.75)}]`,
  );
} finally {
  await pool.close();
  await receiver.stop();
}
