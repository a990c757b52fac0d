import { isAbsolute, join } from 'node:path';
import { CONFIG_DIR_NAME } from '../core/constants.js';
import type { Context } from '../core/context.js';

export function configDir(ctx: Pick<Context, 'env' | 'homeDir'>): string {
  const xdg = ctx.env.XDG_CONFIG_HOME;
  // The XDG spec says a relative XDG_CONFIG_HOME is invalid and must be ignored.
  const base = xdg && isAbsolute(xdg) ? xdg : join(ctx.homeDir, '.config');
  return join(base, CONFIG_DIR_NAME);
}

/** $XDG_STATE_HOME/svcctl (default ~/.local/state/svcctl): what svcctl remembers that is not a setting. */
export function stateDir(ctx: Pick<Context, 'env' | 'homeDir'>): string {
  const xdg = ctx.env.XDG_STATE_HOME;
  return join(xdg && isAbsolute(xdg) ? xdg : join(ctx.homeDir, '.local', 'state'), CONFIG_DIR_NAME);
}
