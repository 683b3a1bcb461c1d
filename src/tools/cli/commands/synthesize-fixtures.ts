import { loadProviderSpecs } from '../../../shared/provider-specs/load-provider-specs.js';
import { fixturesDir } from '../../../shared/project-root.js';
import { synthesizeFixtures } from '../../../provider/fixtures/synthesis/synthesize-fixtures.js';
import { loadScenarios } from '../../../shared/scenarios/load-scenarios.js';
import { defaultRoutesFile, loadRouteTable } from '../../../shared/route-table/load-route-table.js';
import { engineCarrierReader } from '../engine-carrier-reader.js';
import { defineCommand, EXIT_OK, EXIT_VIOLATION } from '../cli-command.js';

export const synthesizeFixturesCommand = defineCommand({
  command: 'synthesize-fixtures',
  describe:
    'Write documentation-derived fixtures (provenance: synthesized) for every scenario x provider; recorded fixtures are never touched',
  builder: (y) =>
    y
      .option('out', {
        type: 'string',
        default: fixturesDir(),
        defaultDescription: 'fixtures/providers',
        describe: 'fixture directory',
      })
      .option('routes', {
        type: 'string',
        default: defaultRoutesFile(),
        defaultDescription: 'specs/routes.json',
        describe: 'route table whose policies file native records',
      })
      .option('check', {
        type: 'boolean',
        default: false,
        describe: 'write nothing; exit 1 if any synthesized fixture is missing or stale',
      }),
  run(args) {
    const result = synthesizeFixtures({
      dir: args.out,
      scenarios: loadScenarios(),
      specs: loadProviderSpecs(),
      readCarriers: engineCarrierReader(loadRouteTable(args.routes)),
      check: args.check,
    });
    for (const label of result.stale)
      process.stdout.write(`stale: ${label} (run: reasoning-replay synthesize-fixtures)\n`);
    for (const label of result.orphans)
      process.stdout.write(`${args.check ? 'orphan' : 'removed'}: ${label} (no scenario needs it)\n`);
    for (const label of result.noRenderer) process.stdout.write(`no renderer for this family yet: ${label}\n`);
    process.stdout.write(
      `${result.written.length} written, ${result.unchanged.length} unchanged, ${result.keptRecorded.length} recorded kept, ${result.stale.length} stale, ${result.orphans.length} orphaned, ${result.noRenderer.length} without renderer\n`,
    );
    return result.stale.length > 0 || (args.check && result.orphans.length > 0) ? EXIT_VIOLATION : EXIT_OK;
  },
});
