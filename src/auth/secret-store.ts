// Named secrets in the OS keychain through @napi-rs/keyring (Credential Manager on Windows), as bytes: a password
// goes through keychain.ts instead, whose entries older versions wrote. Tests give Context.secretStore instead.
import type { Context, SecretStore } from '../core/context.js';

type Where = Pick<Context, 'platform' | 'secretStore'>;

async function osEntry(platform: NodeJS.Platform, service: string, account: string) {
  const { AsyncEntry } = await import('@napi-rs/keyring');
  return new AsyncEntry(service, account, platform === 'linux' ? { linux: { store: 'secret-service' } } : undefined);
}

function osStore(platform: NodeJS.Platform): SecretStore {
  return {
    read: async (service, account) => {
      const bytes = await (await osEntry(platform, service, account)).getSecret();
      return bytes === null ? undefined : Uint8Array.from(bytes);
    },
    write: async (service, account, secret) => (await osEntry(platform, service, account)).setSecret(secret),
    remove: async (service, account) => (await osEntry(platform, service, account)).deleteCredential(),
  };
}

export function secretStoreOf(ctx: Where): SecretStore {
  return ctx.secretStore ?? osStore(ctx.platform);
}
