import { readFileSync, statSync } from 'node:fs';
import { relative } from 'node:path';
import { implementedFamilies } from '../../../engine/families/registry.js';
import {
  formatOfFile,
  importRecording,
  IMPORT_FORMATS,
  type ImportFormat,
} from '../../commands/import/import-recording.js';
import { ImportFormatError } from '../../../shared/errors/import-format-error.js';
import { InputError } from '../../../shared/errors/input-error.js';
import { fixturesDir } from '../../../shared/project-root.js';
import { loadScenarios } from '../../../shared/scenarios/load-scenarios.js';
import { readApiKey, secretValues } from '../../services/recorder/api-key.js';
import {
  existingFixture,
  fixturePath,
  renderCheckedFixture,
  writeFixtureFile,
} from '../../services/recorder/fixture-file.js';
import { SecretLeakError } from '../../../shared/errors/secret-leak-error.js';
import { decideRecording } from '../../services/recorder/record-mode.js';
import { defaultRoutesFile, loadRouteTable } from '../../../shared/route-table/load-route-table.js';
import type { FamilyId } from '../../../shared/route-table/route-table.js';
import { defineCommand, EXIT_OK, EXIT_VIOLATION } from '../cli-command.js';
import { refuseOversizedTextFile } from '../../../shared/files/text-file-size-limit.js';

export const importCommand = defineCommand({
  command: 'import <file>',
  describe:
    'Turn a recording made by another tool (VCR/vcrpy cassette, HAR 1.2, Vercel AI SDK *.chunks.txt) into a redacted fixture',
  builder: (y) =>
    y
      .positional('file', {
        type: 'string',
        demandOption: true,
        describe:
          'the recording: .yaml/.yml (VCR, vcrpy), .har (Polly.js, mitmproxy, devtools), .chunks.txt (AI SDK dump)',
      })
      .option('provider', {
        type: 'string',
        demandOption: true,
        describe: 'provider spec id (specs/providers/<id>.json) or routing provider id the traffic went to',
      })
      .option('scenario', {
        type: 'string',
        describe:
          'scenario id the fixture answers (specs/scenarios/<id>.json, so the gate replays it); default: the file name',
      })
      .option('model', {
        type: 'string',
        describe: 'model id (default: the one the recorded requests name, else the spec’s)',
      })
      .option('family', {
        choices: implementedFamilies() as FamilyId[],
        describe: 'wire family (default: the spec’s, else the route’s)',
      })
      .option('format', { choices: IMPORT_FORMATS, describe: 'the recording’s format (default: from the file name)' })
      .option('base-url', {
        type: 'string',
        describe: 'where a chunk dump was recorded from (it holds no URL; default: the spec’s)',
      })
      .option('out', {
        type: 'string',
        default: fixturesDir(),
        defaultDescription: 'fixtures/providers',
        describe: 'fixture root; the file is <out>/<provider>/<scenario>.json',
      })
      .option('force', {
        type: 'boolean',
        default: false,
        describe: 'replace a recorded or imported fixture that is already there',
      })
      .option('api-key-env', {
        type: 'string',
        describe: 'environment variable whose value must be scrubbed too (default: the spec’s secretEnv)',
      })
      .option('routes', {
        type: 'string',
        default: defaultRoutesFile(),
        defaultDescription: 'specs/routes.json',
        describe: 'route table',
      })
      .example(
        '$0 import cassettes/test_reasoning.yaml --provider deepseek --scenario tool-call-with-reasoning',
        'a vcrpy cassette of a DeepSeek tool turn',
      )
      .example(
        '$0 import session.har --provider anthropic --scenario plain-two-turn-chat',
        'a HAR from devtools or Polly.js',
      )
      .example(
        '$0 import __fixtures__/google-reasoning.chunks.txt --provider gemini',
        'an AI SDK chunk dump (one streamed answer)',
      )
      .epilog(
        'Everything goes through the recorder’s redaction and secret sweep; if a credential-shaped value survives, nothing is written (exit 1). A synthesized fixture at the same place is replaced; a recorded or imported one only with --force.\n' +
          'Exit 0: written. 1: a secret survived, or a protected fixture is there. 2: the file is not what its format says, or bad input.',
      ),
  async run(args) {
    const source = args.file as string;
    const format: ImportFormat | undefined = args.format ?? formatOfFile(source);
    if (!format)
      throw new InputError(
        source,
        '',
        'cannot tell its format from the name',
        `give --format (${IMPORT_FORMATS.join(', ')})`,
      );
    // Imports are decoded as text: one over V8's longest string is refused naming its size.
    refuseOversizedTextFile(source, undefined, 'recording');
    let bytes: Uint8Array | undefined;
    try {
      if (statSync(source).isFile()) bytes = readFileSync(source);
    } catch (error) {
      throw new InputError(
        source,
        '',
        `cannot read it (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`,
      );
    }
    if (!bytes) throw new InputError(source, '', 'cannot read it (not a file)');
    const table = loadRouteTable(args.routes);
    let imported;
    try {
      imported = importRecording({
        source,
        bytes,
        format,
        provider: args.provider,
        table,
        ...(args.scenario ? { scenario: args.scenario } : {}),
        ...(args.model ? { model: args.model } : {}),
        ...(args.family ? { family: args.family } : {}),
        ...(args['base-url'] ? { baseUrl: args['base-url'] } : {}),
      });
    } catch (error) {
      if (error instanceof ImportFormatError)
        throw new InputError(source, error.pointer, `${error.problem} (read as ${format})`);
      throw error;
    }
    const { fixture, streams, live, notes } = imported;
    const file = fixturePath(args.out, fixture.provider, fixture.scenario);
    const shown = relative(process.cwd(), file) || file;
    const decision = decideRecording('new', existingFixture(file), args.force);
    if (!decision.record) {
      process.stderr.write(
        `reasoning-replay: not importing over ${shown}: ${decision.reason.replace('--mode new keeps live captures', 'an import keeps live captures')}\n`,
      );
      return EXIT_VIOLATION;
    }
    const secrets = secretValues(readApiKey(args['api-key-env'] ?? live.spec?.secretEnv, process.env, live.target), [
      live.spec?.secretEnv,
    ]);
    try {
      const pieces = await renderCheckedFixture({ fixture, streams }, secrets, file);
      writeFixtureFile(file, pieces);
    } catch (error) {
      if (error instanceof SecretLeakError) {
        process.stderr.write(`reasoning-replay: ${error.message}\n`);
        return EXIT_VIOLATION;
      }
      throw error;
    }
    for (const note of notes) process.stderr.write(`reasoning-replay: note: ${note}\n`);
    const replaced = decision.replaces === 'none' ? '' : ` (replaced a ${decision.replaces} fixture)`;
    process.stdout.write(
      `wrote ${shown}: ${fixture.exchanges.length} exchange(s) imported from ${source} (${format}), route ${fixture.route}${replaced}\n`,
    );
    // The gate replays a fixture only under a scenario it plays: say which command does, or that none will.
    const scenarios = loadScenarios().map((s) => s.id);
    if (scenarios.includes(fixture.scenario))
      process.stdout.write(
        `replayed by: reasoning-replay check --provider ${fixture.provider} (scenario ${fixture.scenario})\n`,
      );
    else
      process.stderr.write(
        `reasoning-replay: note: no scenario "${fixture.scenario}" in specs/scenarios/, so the gate never replays ${shown} (hint: import again with --scenario <id>, one of ${scenarios.slice(0, 4).join(', ')}, ...; or add specs/scenarios/${fixture.scenario}.json)\n`,
      );
    return EXIT_OK;
  },
});
