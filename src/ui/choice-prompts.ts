/**
 * Checklist and single-choice prompts (for `svcctl mcp install` without
 * --client). Same rules as src/ui/prompts.ts: loaded lazily, written to
 * stderr, refused without a terminal or with --no-input, Ctrl+C is exit 130.
 */
import { canPrompt, type Context } from '../context.js';
import { CliError, ExitCode, usageError } from '../errors.js';

export interface Choice<T extends string> {
  value: T;
  name: string;
  checked?: boolean;
}

function promptContext(ctx: Context): { input: NodeJS.ReadableStream; output: NodeJS.WritableStream; clearPromptOnDone: boolean } {
  return { input: ctx.stdin, output: ctx.out.stderr as unknown as NodeJS.WritableStream, clearPromptOnDone: false };
}

function interrupted(error: unknown): never {
  const name = (error as { name?: unknown })?.name;
  if (name === 'ExitPromptError' || name === 'AbortPromptError' || name === 'CancelPromptError') {
    throw new CliError(ExitCode.Interrupted, 'interrupted');
  }
  throw error;
}

function ensureInteractive(ctx: Context, what: string, flag: string): void {
  if (!canPrompt(ctx)) throw usageError(`no ${what} given: pass ${flag}`);
}

/** A checklist; at least one item must be chosen. */
export async function promptChecklist<T extends string>(ctx: Context, message: string, choices: Choice<T>[], flag: string): Promise<T[]> {
  ensureInteractive(ctx, message, flag);
  const { checkbox } = await import('@inquirer/prompts');
  try {
    return await checkbox<T>(
      { message, choices, required: true, validate: (items) => (items.length > 0 ? true : 'choose at least one') },
      promptContext(ctx),
    );
  } catch (error) {
    return interrupted(error);
  }
}

/** One choice among several; the first is the default. */
export async function promptChoice<T extends string>(ctx: Context, message: string, choices: Choice<T>[], flag: string): Promise<T> {
  ensureInteractive(ctx, message, flag);
  const { select } = await import('@inquirer/prompts');
  try {
    return await select<T>({ message, choices }, promptContext(ctx));
  } catch (error) {
    return interrupted(error);
  }
}
