import type { LoadedInputs } from './run-matrix.js';
import { InputError } from '../../../shared/errors/input-error.js';
import { policyFor } from '../../../shared/route-table/policy-for.js';

/** `check --provider P ...`: the routes those specs resolve to (every target on them runs); undefined: all. */
export function checkScope(
  loaded: LoadedInputs,
  providers: readonly string[],
  engine: string | undefined,
): ReadonlySet<string> | undefined {
  if (engine !== undefined && engine.trim() === '')
    throw new InputError(
      '--engine',
      '',
      'is empty',
      'give the shell command that starts your request builder, e.g. --engine "python3 my_adapter.py"',
    );
  if (providers.length === 0) return undefined;
  const routes = new Set<string>();
  for (const id of providers) {
    const spec = loaded.specs.find((s) => s.id === id);
    if (!spec)
      throw new InputError(
        '--provider',
        '',
        `no provider "${id}"`,
        `one of ${loaded.specs.map((s) => s.id).join(', ')}`,
      );
    routes.add(policyFor(loaded.table, spec).routeId);
  }
  return routes;
}
