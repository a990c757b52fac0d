// A 2025-era client in front of a server that speaks only MCP 2026-07-28 (docs/mcp.md, "Protocol revisions"):
// a 2025 client does not know the 2026 `resultType` field, nor a result asking for input mid-request.
import type { JSONRPCMessage } from '@modelcontextprotocol/client';

export const MODERN_REVISION = '2026-07-28';
const LEGACY_DEFAULT = '2025-11-25';
const PROTOCOL_KEY = 'io.modelcontextprotocol/protocolVersion';
const CLIENT_INFO_KEY = 'io.modelcontextprotocol/clientInfo';
const CAPABILITIES_KEY = 'io.modelcontextprotocol/clientCapabilities';

type Params = { _meta?: Record<string, unknown>; [key: string]: unknown };
interface Rpc {
  jsonrpc: '2.0';
  id?: string | number;
  method?: string;
  params?: Params;
  result?: Record<string, unknown>;
  error?: unknown;
}

export interface InitializeParams {
  protocolVersion?: string;
  capabilities?: Record<string, unknown>;
  clientInfo?: { name: string; version: string };
}

export class LegacyToModern {
  constructor(private readonly init: InitializeParams) {}

  envelope(message: JSONRPCMessage): JSONRPCMessage {
    const rpc = message as Rpc;
    if (rpc.method === undefined) return message;
    const params: Params = { ...(rpc.params ?? {}) };
    params._meta = {
      ...(params._meta ?? {}),
      [PROTOCOL_KEY]: MODERN_REVISION,
      [CLIENT_INFO_KEY]: this.init.clientInfo ?? { name: 'unknown', version: '0' },
      [CAPABILITIES_KEY]: this.init.capabilities ?? {},
    };
    return { ...rpc, params } as JSONRPCMessage;
  }

  discoverRequest(id: string): JSONRPCMessage {
    return this.envelope({ jsonrpc: '2.0', id, method: 'server/discover', params: {} } as JSONRPCMessage);
  }

  initializeResult(id: string | number, discover: Record<string, unknown>): JSONRPCMessage {
    const requested = this.init.protocolVersion ?? LEGACY_DEFAULT;
    const result: Record<string, unknown> = {
      protocolVersion: requested < MODERN_REVISION ? requested : LEGACY_DEFAULT,
      capabilities: discover.capabilities ?? {},
      serverInfo: discover.serverInfo ?? { name: 'unknown', version: '0' },
    };
    if (typeof discover.instructions === 'string') result.instructions = discover.instructions;
    return { jsonrpc: '2.0', id, result } as JSONRPCMessage;
  }

  toLegacy(message: JSONRPCMessage): JSONRPCMessage {
    const rpc = message as Rpc;
    if (rpc.result === undefined || rpc.id === undefined) return message;
    const { resultType, ...rest } = rpc.result;
    if (resultType === 'input_required') {
      const text =
        'svcctl mcp proxy: the server asks for input in the middle of this request (MCP 2026-07-28 multi-round-trip), which cannot be bridged to a 2025-era client';
      return { jsonrpc: '2.0', id: rpc.id, error: { code: -32603, message: text } } as JSONRPCMessage;
    }
    return { ...rpc, result: rest } as JSONRPCMessage;
  }
}

export function offeredRevisions(result: unknown): string[] {
  const versions = (result as { supportedVersions?: unknown } | undefined)?.supportedVersions;
  return Array.isArray(versions) ? versions.filter((v): v is string => typeof v === 'string') : [];
}

/** -32022, or the SDK's words for it. */
export function refusesVersion(text: string): boolean {
  return /-32022|Unsupported protocol version/i.test(text);
}
