/**
 * Where the user's email and password come from (contract section 3), in this
 * order:
 *   email:    --email, SERVICE_EMAIL (legacy SVC_EMAIL), a prompt
 *   password: --password-stdin, --password-file, SERVICE_PASSWORD (legacy
 *             SVC_PASSWORD), a masked prompt
 * There is no password flag: a flag value is visible in the process list.
 * Prompts happen only when `canPrompt(ctx)`; otherwise a missing value is a
 * usage error (exit 2) that names the flag and variable that supply it, raised
 * before anything is sent. `svcctl mcp install` reuses these functions.
 */
import { canPrompt, type Context } from '../core/context.js';
import { usageError } from '../core/errors.js';
import { readSecretStdin, resolveSecretWithSource, warnSurroundingWhitespace } from '../config/secret-sources.js';
import { describeSource, envName, readSetting } from '../config/settings.js';

export interface CredentialFlags {
  /** --email <e> */
  email?: string;
  /** --password-stdin */
  passwordStdin?: boolean;
  /** --password-file <f> */
  passwordFile?: string;
}

export interface ResolvedCredential {
  value: string;
  /** A flag or variable name, or 'prompt'. Never the value. */
  source: string;
}

export const EMAIL_SOURCES = `--email or ${envName('EMAIL')}`;
export const PASSWORD_SOURCES = `--password-stdin, --password-file or ${envName('PASSWORD')}`;

function checkPasswordFlags(flags: CredentialFlags): void {
  if (flags.passwordStdin && flags.passwordFile !== undefined) {
    throw usageError('--password-stdin and --password-file cannot be combined: give the password one way');
  }
}

/** The email from --email or the environment; undefined when neither is set (no prompt). */
export function emailWithoutPrompt(ctx: Context, flags: CredentialFlags): ResolvedCredential | undefined {
  const setting = readSetting(ctx.env, 'EMAIL', { value: flags.email?.trim(), name: '--email' });
  if (!setting) return undefined;
  ctx.out.debug(describeSource(setting, 'email'));
  return { value: setting.value.trim(), source: setting.source };
}

/**
 * The password from --password-stdin, --password-file or the environment;
 * undefined when none is given (no prompt). Reading stdin consumes it, so call
 * this once per run.
 */
export async function passwordWithoutPrompt(ctx: Context, flags: CredentialFlags): Promise<ResolvedCredential | undefined> {
  checkPasswordFlags(flags);
  if (flags.passwordStdin) {
    const value = await readSecretStdin(ctx, 'password', '--password-stdin');
    ctx.out.debug('password from --password-stdin');
    warnSurroundingWhitespace(value, 'the password read from stdin', ctx.out);
    return { value, source: '--password-stdin' };
  }
  const secret = await resolveSecretWithSource(ctx, {
    name: 'PASSWORD',
    what: 'password',
    file: { path: flags.passwordFile, flag: '--password-file' },
  });
  if (!secret) return undefined;
  return { value: secret.value, source: secret.source.kind === 'file' ? secret.source.flag : secret.source.name };
}

/**
 * Whether a password source is given, without reading it: stdin is read only
 * once every value that cannot be prompted for is known to be there, so a
 * missing email fails at once instead of after stdin ends.
 */
export function passwordGiven(ctx: Context, flags: CredentialFlags): boolean {
  return flags.passwordStdin === true || flags.passwordFile !== undefined || readSetting(ctx.env, 'PASSWORD') !== undefined;
}

function missingError(missing: string[]): Error {
  const lines = missing.map((what) => (what === 'email' ? `email: ${EMAIL_SOURCES}` : `password: ${PASSWORD_SOURCES}`));
  const reason = 'cannot prompt (stdin or stderr is not a terminal, or --no-input was given)';
  return usageError(`no ${missing.join(' and no ')} given, and ${reason}`, `give ${lines.join('; ')}`);
}

async function promptEmail(ctx: Context): Promise<ResolvedCredential> {
  const { promptText } = await import('../ui/prompts.js');
  return { value: await promptText(ctx, 'Email'), source: 'prompt' };
}

async function promptPassword(ctx: Context): Promise<ResolvedCredential> {
  const { promptSecret } = await import('../ui/prompts.js');
  return { value: await promptSecret(ctx, 'Password'), source: 'prompt' };
}

/** The email from its flag, the environment or a prompt; exit 2 when it cannot be had. */
export async function resolveEmail(ctx: Context, flags: CredentialFlags): Promise<ResolvedCredential> {
  const found = emailWithoutPrompt(ctx, flags);
  if (found) return found;
  if (!canPrompt(ctx)) throw missingError(['email']);
  return promptEmail(ctx);
}

/** The password from stdin, its file, the environment or a masked prompt; exit 2 when it cannot be had. */
export async function resolvePassword(ctx: Context, flags: CredentialFlags): Promise<ResolvedCredential> {
  const found = await passwordWithoutPrompt(ctx, flags);
  if (found) return found;
  if (!canPrompt(ctx)) throw missingError(['password']);
  return promptPassword(ctx);
}

export interface LoginCredentials {
  email: ResolvedCredential;
  password: ResolvedCredential;
}

/**
 * Both values for a login. Everything that needs no prompt is read first, so a
 * run that cannot prompt reports every missing value at once, and a person at
 * a terminal is asked only for what is still missing (email, then password).
 */
export async function resolveLoginCredentials(ctx: Context, flags: CredentialFlags): Promise<LoginCredentials> {
  checkPasswordFlags(flags);
  const email = emailWithoutPrompt(ctx, flags);
  // Fail before reading stdin (--password-stdin) when a value is missing and cannot be prompted for.
  if (!canPrompt(ctx) && (!email || !passwordGiven(ctx, flags))) {
    throw missingError([...(email ? [] : ['email']), ...(passwordGiven(ctx, flags) ? [] : ['password'])]);
  }
  const password = await passwordWithoutPrompt(ctx, flags);
  if (email && password) return { email, password };
  const promptedEmail = email ?? (await promptEmail(ctx));
  const promptedPassword = password ?? (await promptPassword(ctx));
  return { email: promptedEmail, password: promptedPassword };
}
