/**
 * A temp folder and a recording server on 127.0.0.1 for one describe block of
 * event tests, with the environment that points svcctl at it; both are removed
 * after the block.
 */
import { rm } from 'node:fs/promises';
import { after, before } from 'node:test';
import { makeTempDir } from './cli-env.js';
import { startRecordingServer, type RecordingServer } from './recording-server.js';

export interface EventFixture {
  dir: string;
  server: RecordingServer;
  env: Record<string, string>;
}

export function useEventFixture(
  token: string,
  baseUrlOf: (server: RecordingServer) => string = (server) => server.baseUrl,
): EventFixture {
  const fixture = {} as EventFixture;
  before(async () => {
    fixture.dir = await makeTempDir();
    fixture.server = await startRecordingServer();
    fixture.env = { SERVICE_BASE_URL: baseUrlOf(fixture.server), SERVICE_INGEST_TOKEN: token };
  });
  after(async () => {
    await fixture.server.close();
    await rm(fixture.dir, { recursive: true, force: true });
  });
  return fixture;
}
