// The garbage collections of one process and what it allocated in the young generation, printed to stderr at exit.
// Loaded with -r, so V8's flags stay as they are (a V8 flag would make Node's and svcctl's code caches miss).
// One signed send against the bench receiver (bench/receiver.mjs prints its port):
//   node -r ./bench/gc-report.cjs bin/svcctl.js event send --title x
// with SERVICE_BASE_URL, SERVICE_INGEST_TOKEN and SERVICE_HMAC_SECRET set.
'use strict';
const v8 = require('node:v8');

const YOUNG = new Set(['new_space', 'new_large_object_space']);
const young = (spaces, name = 'space_name', used = 'space_used_size') =>
  spaces.filter((space) => YOUNG.has(space[name])).reduce((sum, space) => sum + space[used], 0);
const kb = (bytes) => `${Math.round(bytes / 1024)} KB`;

const profiler = new v8.GCProfiler();
profiler.start();
const atStart = young(v8.getHeapSpaceStatistics());

process.on('exit', () => {
  const atExit = young(v8.getHeapSpaceStatistics());
  const { statistics } = profiler.stop();
  let allocated = 0;
  let before = atStart;
  const collections = statistics.map((gc) => {
    const from = young(gc.beforeGC.heapSpaceStatistics, 'spaceName', 'spaceUsedSize');
    const to = young(gc.afterGC.heapSpaceStatistics, 'spaceName', 'spaceUsedSize');
    allocated += from - before;
    before = to;
    return `${gc.gcType} ${(gc.cost / 1000).toFixed(2)} ms (young ${kb(from)} → ${kb(to)})`;
  });
  allocated += atExit - before;
  process.stderr.write(
    `gc-report: ${collections.length} collection(s)${collections.length ? `: ${collections.join('; ')}` : ''}; ` +
      `young generation allocated after start-up: ${kb(allocated)} (large objects included)\n`,
  );
});
