/** `svcctl event sign` and `svcctl event verify`: the signature of exact bytes. */
import type { Context } from '../core/context.js';
import { exitWith, ExitCode, usageError } from '../core/errors.js';
import { inputOrStdin, readInputBytes } from '../fs/read-input.js';
import { resolveSecret } from '../config/secret-sources.js';
import { isWellFormedSignature, signBody, verifySignature } from '../events/hmac.js';

export interface SignatureOptions {
  file?: string;
  hmacSecretFile?: string;
}

async function requireSecret(ctx: Context, options: SignatureOptions): Promise<string> {
  const secret = await resolveSecret(ctx, {
    name: 'HMAC_SECRET',
    what: 'HMAC secret',
    file: { path: options.hmacSecretFile, flag: '--hmac-secret-file' },
  });
  if (secret === undefined)
    throw usageError('no HMAC secret: set SERVICE_HMAC_SECRET or pass --hmac-secret-file <file>');
  return secret;
}

export async function runEventSign(ctx: Context, options: SignatureOptions): Promise<void> {
  const secret = await requireSecret(ctx, options);
  const file = inputOrStdin(options.file, ctx.stdin, 'svcctl event sign body.json');
  const signature = signBody(await readInputBytes(file, ctx.stdin, ctx.cwd), secret);
  if (ctx.globals.json) ctx.out.jsonResult({ signature });
  else ctx.out.result(signature);
}

export async function runEventVerify(ctx: Context, options: SignatureOptions & { signature: string }): Promise<void> {
  const signature = options.signature.trim();
  if (!isWellFormedSignature(signature)) {
    throw usageError(`--signature must be sha256= followed by 64 hex digits, got '${options.signature.slice(0, 80)}'`);
  }
  const secret = await requireSecret(ctx, options);
  const file = inputOrStdin(options.file, ctx.stdin, 'svcctl event verify body.json --signature sha256=...');
  const valid = verifySignature(await readInputBytes(file, ctx.stdin, ctx.cwd), secret, signature);
  if (ctx.globals.json) ctx.out.jsonResult({ valid });
  else ctx.out.result(valid ? 'valid' : 'invalid');
  if (!valid) throw exitWith(ExitCode.CheckFailed);
}
