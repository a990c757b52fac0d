// A minimal keep-alive receiver: answers 202 {"ok":true} to every request once
// its body has arrived. Prints its port on stdout; the request count on exit.
import { createServer } from 'node:http';

let count = 0;
const server = createServer((request, response) => {
  request.on('data', () => {});
  request.on('end', () => {
    count++;
    response.writeHead(202, { 'content-type': 'application/json', 'content-length': '11' });
    response.end('{"ok":true}');
  });
});
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => process.stdout.write(`${server.address().port}\n`));
process.on('SIGTERM', () => {
  process.stderr.write(`receiver: ${count} requests\n`);
  process.exit(0);
});
