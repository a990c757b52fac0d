// Literal secrets, found by the names they sit under; resolved references are added by the Resolver.
import { secretArgValues, secretRecordValues } from '../../redaction/secret-names.js';
import type { EntryPlan } from './entry-plan.js';

export function planSecrets(plan: EntryPlan): string[] {
  const found: string[] = [];
  if (plan.mode !== 'remote')
    found.push(
      ...secretRecordValues(plan.command.env),
      ...secretArgValues([plan.command.command, ...plan.command.args]),
    );
  if (plan.mode !== 'local' && plan.http !== undefined) found.push(...secretRecordValues(plan.http.headers));
  return found;
}
