// Loaded lazily (inquirer costs start-up time). Prompts write to stderr: inquirer's default, stdout, would end up in
// TOKEN=$(svcctl login). Each refuses without canPrompt(ctx), so a script never hangs on a question.
import { canPrompt, type Context } from './context.js';
import { CliError, ExitCode, usageError } from './errors.js';
import { colorAllowed } from './output.js';

type InquirerContext = { input: NodeJS.ReadableStream; output: NodeJS.WritableStream; clearPromptOnDone: boolean };

function promptContext(ctx: Context): InquirerContext {
  return {
    input: ctx.stdin,
    // The Output's stderr is the process's stderr (a TTY here): a full Writable.
    output: ctx.out.stderr as unknown as NodeJS.WritableStream,
    clearPromptOnDone: false,
  };
}

const plain = (text: string): string => text;

// Inquirer's own terminal test knows NO_COLOR but not --no-color.
function theme(ctx: Context): object | undefined {
  if (colorAllowed(ctx.out.stderr, ctx.env, ctx.globals.color)) return undefined;
  return {
    prefix: { idle: '?', done: '✔' },
    style: {
      answer: plain,
      message: plain,
      error: (text: string) => `> ${text}`,
      defaultAnswer: (text: string) => `(${text})`,
      help: plain,
      highlight: plain,
      key: (text: string) => `<${text}>`,
    },
  };
}

function mapPromptError(error: unknown): never {
  const name = (error as { name?: unknown })?.name;
  if (name === 'ExitPromptError' || name === 'AbortPromptError' || name === 'CancelPromptError') {
    throw new CliError(ExitCode.Interrupted, 'interrupted');
  }
  throw error;
}

function ensureInteractive(ctx: Context, what: string, flag?: string): void {
  if (canPrompt(ctx)) return;
  if (flag) throw usageError(`no ${what} given: pass ${flag}`);
  throw usageError(`cannot ask for ${what}: stdin and stderr must be terminals and --no-input must not be given`);
}

const notEmpty =
  (label: string) =>
  (value: string): true | string =>
    value.trim() === '' ? `${label} must not be empty` : true;

export async function promptText(
  ctx: Context,
  message: string,
  options: { defaultValue?: string } = {},
): Promise<string> {
  ensureInteractive(ctx, message);
  const { default: input } = await import('@inquirer/input');
  try {
    const answer = await input(
      { message, default: options.defaultValue, validate: notEmpty(message), theme: theme(ctx) },
      promptContext(ctx),
    );
    return answer.trim();
  } catch (error) {
    return mapPromptError(error);
  }
}

export async function promptSecret(ctx: Context, message: string): Promise<string> {
  ensureInteractive(ctx, message);
  const { default: password } = await import('@inquirer/password');
  try {
    return ctx.secrets.add(
      await password({ message, mask: '*', validate: notEmpty(message), theme: theme(ctx) }, promptContext(ctx)),
    );
  } catch (error) {
    return mapPromptError(error);
  }
}

export async function promptConfirm(ctx: Context, message: string, defaultValue = false): Promise<boolean> {
  ensureInteractive(ctx, message);
  const { default: confirm } = await import('@inquirer/confirm');
  try {
    return await confirm({ message, default: defaultValue, theme: theme(ctx) }, promptContext(ctx));
  } catch (error) {
    return mapPromptError(error);
  }
}

export interface Choice<T extends string> {
  value: T;
  name: string;
  checked?: boolean;
}

export async function promptChecklist<T extends string>(
  ctx: Context,
  message: string,
  choices: Choice<T>[],
  flag: string,
): Promise<T[]> {
  ensureInteractive(ctx, message, flag);
  const { default: checkbox } = await import('@inquirer/checkbox');
  try {
    const validate = (items: readonly unknown[]): true | string => (items.length > 0 ? true : 'choose at least one');
    // Every choice on one page (inquirer shows 7 by default): 20+ clients can be detected.
    return await checkbox<T>(
      { message, choices, required: true, validate, pageSize: Math.max(7, choices.length), theme: theme(ctx) },
      promptContext(ctx),
    );
  } catch (error) {
    return mapPromptError(error);
  }
}

export async function promptChoice<T extends string>(
  ctx: Context,
  message: string,
  choices: Choice<T>[],
  flag: string,
  defaultValue?: T,
): Promise<T> {
  ensureInteractive(ctx, message, flag);
  const { default: select } = await import('@inquirer/select');
  try {
    return await select<T>({ message, choices, default: defaultValue, theme: theme(ctx) }, promptContext(ctx));
  } catch (error) {
    return mapPromptError(error);
  }
}
