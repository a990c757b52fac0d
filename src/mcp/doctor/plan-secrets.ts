/**
 * The literal secrets an entry would send, found by what they are: values of
 * env variables and headers named like secrets (SERVICE_PASSWORD,
 * X-Service-Password, Authorization), and command-line values after a flag
 * named like one (--pass x, --api-key=x, --header "X-Service-Password: x").
 * Resolved references are added by the Resolver; these are the rest.
 */
import { secretArgValues, secretRecordValues } from '../../secrets/secret-names.js';
import type { EntryPlan } from './entry-plan.js';

export function planSecrets(plan: EntryPlan): string[] {
  const found: string[] = [];
  if (plan.mode !== 'remote') found.push(...secretRecordValues(plan.command.env), ...secretArgValues([plan.command.command, ...plan.command.args]));
  if (plan.mode !== 'local' && plan.http !== undefined) found.push(...secretRecordValues(plan.http.headers));
  return found;
}
