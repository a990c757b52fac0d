// The one precedence of the base URL (docs/deployments.md, "Which deployment a command uses"): the program asks it
// whether config.toml must be read, base-url.ts which value to use and where it came from. Kept apart from
// base-url.ts so that building the program does not load the URL checks.
import type { GlobalOptions } from '../core/context.js';
import { readSetting, type Setting } from './settings.js';

export const DEPLOYMENT_VARIABLE = 'SVCCTL_DEPLOYMENT';

/** A deployment asked for by name, and who asked. */
export interface WantedDeployment {
  name: string;
  source: string;
}

/**
 * `flag` and `variable` give the URL itself; `saved` means config.toml decides: the deployment `wanted` names, or
 * (without it) the file's default, its only deployment, or the only saved login.
 */
export type BaseUrlSource =
  | { from: 'flag' | 'variable'; setting: Setting }
  | { from: 'saved'; wanted: WantedDeployment | undefined };

const given = (value: string | undefined): value is string => value !== undefined && value !== '';

/** First match wins: --base-url, --deployment, SERVICE_BASE_URL (or SVC_BASE_URL), SVCCTL_DEPLOYMENT, what is saved. */
export function baseUrlSource(
  env: NodeJS.ProcessEnv,
  globals: Pick<Partial<GlobalOptions>, 'baseUrl' | 'deployment'>,
): BaseUrlSource {
  if (given(globals.baseUrl))
    return { from: 'flag', setting: { value: globals.baseUrl, source: '--base-url', legacy: false } };
  if (given(globals.deployment)) return { from: 'saved', wanted: { name: globals.deployment, source: '--deployment' } };
  const variable = readSetting(env, 'BASE_URL');
  if (variable) return { from: 'variable', setting: variable };
  const named = env[DEPLOYMENT_VARIABLE];
  return { from: 'saved', wanted: given(named) ? { name: named, source: DEPLOYMENT_VARIABLE } : undefined };
}
