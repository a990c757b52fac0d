// A remote item keeps its headers under `requestOptions.headers`, not `headers` (docs/clients-editors.md).
import type { ClientSpec, EntryRequest } from '../types.js';
import { localEntry, proxyEntry, remoteEntry } from './json-clients.js';

type Entry = Record<string, unknown>;

export function continueLocal(client: ClientSpec, request: EntryRequest): Entry {
  return { name: request.name, ...localEntry(client, request) };
}

export function continueProxy(client: ClientSpec, request: EntryRequest): Entry {
  return { name: request.name, ...proxyEntry(client, request) };
}

export function continueStdio(request: EntryRequest, entry: Entry): Entry {
  return { name: request.name, ...entry };
}

export function continueRemote(client: ClientSpec, request: EntryRequest): Entry {
  const { headers, ...rest } = remoteEntry(client, request);
  return { name: request.name, ...rest, requestOptions: { headers } };
}
