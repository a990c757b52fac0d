/**
 * An npm registry on 127.0.0.1 that serves one package, whose only bin writes its environment and working folder
 * (as JSON) to a file when it starts: the proof that npx ran it, and with what. It serves the packument (every
 * version it names is `version`, also as the `latest` tag) and the tarball, with the sha512 integrity npm checks;
 * every request is logged. The tarball is a plain ustar archive built here, gzipped: no tar program is needed.
 */
import { createHash } from 'node:crypto';
import { createServer } from 'node:http';
import { gzipSync } from 'node:zlib';
import { listenOnLoopback } from './loopback.js';

export interface RegistryStub {
  /** http://127.0.0.1:PORT/ — what a `.npmrc` line `registry=` takes. */
  url: string;
  /** Request paths, in order. */
  requests: string[];
  close(): Promise<void>;
}

function octal(value: number, width: number): string {
  return `${value.toString(8).padStart(width - 1, '0')}\0`;
}

/** One ustar header and its content, padded to 512-byte blocks. */
function tarEntry(name: string, content: Buffer, mode: number): Buffer {
  const header = Buffer.alloc(512);
  header.write(name, 0, 100, 'utf8');
  header.write(octal(mode, 8), 100, 'ascii');
  header.write(octal(0, 8), 108, 'ascii');
  header.write(octal(0, 8), 116, 'ascii');
  header.write(octal(content.length, 12), 124, 'ascii');
  header.write(octal(0, 12), 136, 'ascii');
  header.write('        ', 148, 'ascii');
  header.write('0', 156, 'ascii');
  header.write('ustar\u000000', 257, 'ascii');
  let sum = 0;
  for (const byte of header) sum += byte;
  header.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148, 'ascii');
  const padding = Buffer.alloc((512 - (content.length % 512)) % 512);
  return Buffer.concat([header, content, padding]);
}

function tarball(name: string, version: string, recordFile: string): Buffer {
  const manifest = { name, version, bin: { [name]: 'bin.js' } };
  const bin = [
    '#!/usr/bin/env node',
    "const { writeFileSync } = require('node:fs');",
    `writeFileSync(${JSON.stringify(recordFile)}, JSON.stringify({ cwd: process.cwd(), env: process.env }));`,
  ].join('\n');
  const archive = Buffer.concat([
    tarEntry('package/package.json', Buffer.from(JSON.stringify(manifest)), 0o644),
    tarEntry('package/bin.js', Buffer.from(`${bin}\n`), 0o755),
    Buffer.alloc(1024),
  ]);
  return gzipSync(archive);
}

export async function startRegistryStub(pkg: {
  name: string;
  version: string;
  recordFile: string;
}): Promise<RegistryStub> {
  const requests: string[] = [];
  const tgz = tarball(pkg.name, pkg.version, pkg.recordFile);
  const tgzPath = `/${pkg.name}/-/${pkg.name}-${pkg.version}.tgz`;
  let origin = '';
  const server = createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url ?? '/', 'http://stub').pathname);
    requests.push(path);
    if (path === `/${pkg.name}`) {
      const integrity = `sha512-${createHash('sha512').update(tgz).digest('base64')}`;
      const shasum = createHash('sha1').update(tgz).digest('hex');
      const body = JSON.stringify({
        name: pkg.name,
        'dist-tags': { latest: pkg.version },
        versions: {
          [pkg.version]: {
            name: pkg.name,
            version: pkg.version,
            bin: { [pkg.name]: 'bin.js' },
            dist: { tarball: `${origin}${tgzPath}`, integrity, shasum },
          },
        },
      });
      res.writeHead(200, { 'content-type': 'application/json' }).end(body);
      return;
    }
    if (path === tgzPath) {
      res.writeHead(200, { 'content-type': 'application/octet-stream' }).end(tgz);
      return;
    }
    res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"not found"}');
  });
  const listening = await listenOnLoopback(server);
  origin = listening.origin;
  return {
    url: `${origin}/`,
    requests,
    close: listening.close,
  };
}
