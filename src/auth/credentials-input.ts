// No password flag: a flag value shows in the process list. The sources and their order: docs/login.md.
import { canPrompt, type Context } from '../core/context.js';
import { usageError } from '../core/errors.js';
import { readSecretStdin, resolveSecretWithSource, warnSurroundingWhitespace } from '../config/secret-sources.js';
import { describeSource, envName, readSetting } from '../config/settings.js';

export interface CredentialFlags {
  email?: string;
  passwordStdin?: boolean;
  passwordFile?: string;
}

export interface ResolvedCredential {
  value: string;
  /** A flag or variable name, or 'prompt'; never the value. */
  source: string;
}

export const EMAIL_SOURCES = `--email or ${envName('EMAIL')}`;
export const PASSWORD_SOURCES = `--password-stdin, --password-file or ${envName('PASSWORD')}`;

function checkPasswordFlags(flags: CredentialFlags): void {
  if (flags.passwordStdin && flags.passwordFile !== undefined) {
    throw usageError('--password-stdin and --password-file cannot be combined: give the password one way');
  }
}

export function emailWithoutPrompt(ctx: Context, flags: CredentialFlags): ResolvedCredential | undefined {
  const setting = readSetting(ctx.env, 'EMAIL', { value: flags.email?.trim(), name: '--email' });
  if (!setting) return undefined;
  ctx.out.debug(describeSource(setting, 'email'));
  return { value: setting.value.trim(), source: setting.source };
}

/** Reading stdin consumes it: call this once per run. */
export async function passwordWithoutPrompt(
  ctx: Context,
  flags: CredentialFlags,
): Promise<ResolvedCredential | undefined> {
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

// Checked without reading: stdin is read last, so a missing email fails at once, not after stdin ends.
export function passwordGiven(ctx: Context, flags: CredentialFlags): boolean {
  return (
    flags.passwordStdin === true || flags.passwordFile !== undefined || readSetting(ctx.env, 'PASSWORD') !== undefined
  );
}

function missingError(missing: string[]): Error {
  const lines = missing.map((what) => (what === 'email' ? `email: ${EMAIL_SOURCES}` : `password: ${PASSWORD_SOURCES}`));
  const reason = 'cannot prompt (stdin or stderr is not a terminal, or --no-input was given)';
  return usageError(`no ${missing.join(' and no ')} given, and ${reason}`, `give ${lines.join('; ')}`);
}

async function promptEmail(ctx: Context): Promise<ResolvedCredential> {
  const { promptText } = await import('../core/prompts.js');
  return { value: await promptText(ctx, 'Email'), source: 'prompt' };
}

async function promptPassword(ctx: Context): Promise<ResolvedCredential> {
  const { promptSecret } = await import('../core/prompts.js');
  return { value: await promptSecret(ctx, 'Password'), source: 'prompt' };
}

export async function resolveEmail(ctx: Context, flags: CredentialFlags): Promise<ResolvedCredential> {
  const found = emailWithoutPrompt(ctx, flags);
  if (found) return found;
  if (!canPrompt(ctx)) throw missingError(['email']);
  return promptEmail(ctx);
}

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

/** All that needs no prompt is read first, so a run that cannot prompt reports every missing value at once. */
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
