// Every secret handed out here was read where the run's known secrets learn it, so the proxy's log and its
// error replies are redacted with those. A password is read again after a 401: its file may have been updated.
import { HEADER_AUTHORIZATION, HEADER_EMAIL, HEADER_PASSWORD } from '../../core/constants.js';
import type { Context } from '../../core/context.js';
import { CliError, ExitCode } from '../../core/errors.js';
import { readStoredLogin } from '../../auth/credentials-store.js';
import { freshToken, isUsable, type RefreshSources } from '../../auth/fresh-token.js';

export type Headers = Record<string, string>;

export interface CredentialSource {
  headers(): Promise<Headers>;
  refresh(refused: Headers): Promise<Headers>;
}

export function bearerSource(ctx: Context, sources: RefreshSources): CredentialSource {
  let current: string | undefined;
  const use = (token: string): Headers => {
    current = token;
    return { [HEADER_AUTHORIZATION]: `Bearer ${token}` };
  };
  return {
    async headers() {
      if (current !== undefined && isUsable({ access_token: current, expires_at: null }, ctx.now()))
        return use(current);
      return use((await freshToken(ctx, sources)).token);
    },
    async refresh(refused) {
      const token = refused[HEADER_AUTHORIZATION]?.replace(/^Bearer /, '');
      current = undefined;
      return use((await freshToken(ctx, sources, token)).token);
    },
  };
}

export interface PasswordSources {
  baseUrl?: string;
  email?: string;
  hasPassword: boolean;
  password: () => Promise<string | undefined>;
  passwordSources: string;
}

async function passwordLogin(ctx: Context, sources: PasswordSources): Promise<{ email: string; password: string }> {
  const saved = sources.baseUrl ? await readStoredLogin(ctx, sources.baseUrl, { warn: false }) : undefined;
  const email = sources.email ?? saved?.email ?? undefined;
  let password = sources.hasPassword ? await sources.password() : undefined;
  if (password === undefined && email !== undefined && saved?.password_in_keychain && sources.baseUrl) {
    const { rememberedPassword } = await import('../../auth/keychain.js');
    password = await rememberedPassword({ baseUrl: sources.baseUrl, email, platform: ctx.platform }, ctx.secrets);
  }
  if (email === undefined || password === undefined) {
    const lacking = email === undefined ? 'email' : 'password';
    const { giveOrRelogin } = await import('../../auth/keychain.js');
    const from = email === undefined ? '--email or SERVICE_EMAIL' : sources.passwordSources;
    throw new CliError(ExitCode.AuthRejected, `the proxy has no ${lacking} to send (--auth password)`, {
      hint: await giveOrRelogin(`give it with ${from}`, ctx.platform),
    });
  }
  return { email, password };
}

export function passwordSource(ctx: Context, sources: PasswordSources): CredentialSource {
  let current: { email: string; password: string } | undefined;
  const headersOf = ({ email, password }: { email: string; password: string }): Headers => ({
    [HEADER_EMAIL]: email,
    [HEADER_PASSWORD]: password,
  });
  return {
    async headers() {
      current ??= await passwordLogin(ctx, sources);
      return headersOf(current);
    },
    async refresh() {
      current = await passwordLogin(ctx, sources);
      return headersOf(current);
    },
  };
}
