import { existsSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { implementedFamilies } from '../../../engine/families/registry.js';
import { InputError } from '../../../shared/errors/input-error.js';
import { readJsonFile } from '../../../shared/validation/read-json.js';
import { fixturesDir } from '../../../shared/project-root.js';
import { readApiKey, secretValues } from '../../services/recorder/api-key.js';
import { authHeaders } from '../../services/recorder/auth-headers.js';
import { bedrockSigning } from '../../services/recorder/bedrock-signing.js';
import { fetchWithDeadline } from '../../services/recorder/deadline-fetch.js';
import { existingFixture, fixturePath } from '../../services/recorder/fixture-file.js';
import { SecretLeakError } from '../../../shared/errors/secret-leak-error.js';
import { resolveLiveTarget } from '../../services/recorder/live-target.js';
import { decideRecording, RECORD_MODES, type RecordMode } from '../../services/recorder/record-mode.js';
import { recordScenario } from '../../services/recorder/record-scenario.js';
import { RecordingFailedError } from '../../../shared/errors/recording-failed-error.js';
import { defaultRoutesFile, loadRouteTable } from '../../../shared/route-table/load-route-table.js';
import type { FamilyId } from '../../../shared/route-table/route-table.js';
import { FAMILY_IDS } from '../../../shared/wire/families.js';
import { checkScenario, defaultScenariosDir } from '../../../shared/scenarios/load-scenarios.js';
import type { Scenario } from '../../../shared/scenarios/scenario.js';
import { defineCommand, EXIT_OK, EXIT_VIOLATION } from '../cli-command.js';
import { progressLine } from '../progress.js';
import { shownFileName } from '../../../shared/files/shown-file-name.js';

// The wire families, from their descriptors (src/shared/wire/families.ts): adding one adds it here.
const FAMILIES: FamilyId[] = [...FAMILY_IDS];

/** `--scenario` is an id from specs/scenarios, or a path to a scenario file. */
function loadScenarioArg(value: string): Scenario {
  if (value.endsWith('.json') || value.includes('/')) return checkScenario(readJsonFile(value), value);
  const file = join(defaultScenariosDir(), `${value}.json`);
  if (!existsSync(file)) {
    const known = readdirSync(defaultScenariosDir())
      .filter((f) => f.endsWith('.json'))
      .map((f) => f.slice(0, -5));
    throw new InputError('--scenario', '', `no scenario "${value}" in specs/scenarios`, `one of: ${known.join(', ')}`);
  }
  return checkScenario(readJsonFile(file), file);
}

const kB = (bytes: number) => `${(bytes / 1024).toFixed(1)} kB`;

export const recordCommand = defineCommand({
  command: 'record',
  describe:
    'Record a scenario against a live endpoint into a redacted fixture (fixtures/providers/<provider>/<scenario>.json)',
  builder: (y) =>
    y
      .option('provider', {
        type: 'string',
        demandOption: true,
        describe: 'provider spec id (specs/providers/<id>.json) or routing provider id',
      })
      .option('base-url', { type: 'string', demandOption: true, describe: 'base URL of the live endpoint' })
      .option('model', { type: 'string', demandOption: true, describe: 'model id' })
      .option('scenario', {
        type: 'string',
        demandOption: true,
        describe: 'scenario id (specs/scenarios/<id>.json) or a scenario file',
      })
      .option('stream', {
        type: 'boolean',
        default: false,
        describe: 'ask for streamed answers and record the SSE events with their timing',
      })
      .option('out', {
        type: 'string',
        default: fixturesDir(),
        defaultDescription: 'fixtures/providers',
        describe: 'fixture root; the file is <out>/<provider>/<scenario>.json',
      })
      .option('mode', {
        choices: RECORD_MODES,
        default: 'new' as RecordMode,
        describe:
          'new: record unless a live capture is already there (a synthesized fixture, which every shipped scenario has, is replaced); once: only where no fixture exists; all: re-record (a recorded one needs --force)',
      })
      .option('timeout', {
        type: 'number',
        default: 300_000,
        describe:
          'deadline per call in ms, body included: a server that never answers or stalls mid-stream fails the recording instead of hanging it',
      })
      .option('force', { type: 'boolean', default: false, describe: 'record and replace whatever fixture is there' })
      .option('quiet', {
        type: 'boolean',
        default: false,
        describe: 'no progress line (also off when stderr is not a terminal, or CI is set)',
      })
      .option('api-key-env', {
        type: 'string',
        describe: 'environment variable holding the API key (default: the spec’s secretEnv)',
      })
      .option('family', { choices: FAMILIES, describe: 'wire family (default: the spec’s, else the route’s)' })
      .option('routes', {
        type: 'string',
        default: defaultRoutesFile(),
        defaultDescription: 'specs/routes.json',
        describe: 'route table the replay engine uses',
      })
      .example(
        'DEEPSEEK_API_KEY=... $0 record --provider deepseek --base-url https://api.deepseek.com --model deepseek-v4-flash --scenario tool-call-with-reasoning --stream',
        'records the scenario live and replaces its synthesized fixture (default --mode new)',
      )
      .example(
        'AWS_ACCESS_KEY_ID=... AWS_SECRET_ACCESS_KEY=... AWS_REGION=us-east-1 $0 record --provider bedrock-claude --base-url https://bedrock-runtime.us-east-1.amazonaws.com --model anthropic.claude-sonnet-4-5 --scenario tool-call-with-reasoning --stream',
        'Bedrock: SigV4-signed from the AWS variables (or AWS_BEARER_TOKEN_BEDROCK), ConverseStream decoded',
      )
      .epilog(
        'The API key is read from the environment only. Credentials are redacted before anything is written; if a credential-shaped value survives, nothing is written (exit 1).\n' +
          'Exit 0: written, or skipped by --mode (a live capture is already there; said on stderr). 1: the endpoint refused, broke off or missed --timeout, a secret survived, or an existing fixture is protected. 2: bad input.',
      ),
  async run(args) {
    const table = loadRouteTable(args.routes);
    const live = resolveLiveTarget({
      provider: args.provider,
      baseUrl: args['base-url'],
      model: args.model,
      ...(args.family ? { family: args.family } : {}),
      table,
    });
    const scenario = loadScenarioArg(args.scenario);
    if (!implementedFamilies().includes(live.family)) {
      throw new InputError(
        '--family',
        '',
        `the ${live.family} wire family is not implemented yet`,
        `implemented: ${implementedFamilies().join(', ')}`,
      );
    }
    const file = fixturePath(args.out, live.id, scenario.id);
    const shown = shownFileName(relative(process.cwd(), file) || file);
    const mode = args.mode;
    const decision = decideRecording(mode, existingFixture(file), args.force);
    if (!decision.record) {
      process.stderr.write(
        `reasoning-replay: ${decision.refused ? 'refusing to record' : 'nothing recorded'}: ${shown}: ${decision.reason}\n`,
      );
      return decision.refused ? EXIT_VIOLATION : EXIT_OK;
    }

    if (!(args.timeout > 0))
      throw new InputError('--timeout', '', `must be a positive number of milliseconds, got ${args.timeout}`);
    const key = readApiKey(args['api-key-env'] ?? live.spec?.secretEnv, process.env, live.target);
    try {
      authHeaders(live.family, key.value, live.target.host);
    } catch (err) {
      throw new InputError('--api-key-env', '', (err as Error).message);
    }
    const signing = bedrockSigning(live.family, key.value, live.target.host);
    if (!key.value && !signing)
      process.stderr.write(
        `reasoning-replay: ${key.env ? `${key.env} is not set` : 'no key variable is known (--api-key-env)'}; recording without an API key\n`,
      );
    const secrets = [...secretValues(key, [live.spec?.secretEnv]), ...(signing?.secrets ?? [])];
    const network = fetchWithDeadline(args.timeout, signing?.fetch);

    const line = progressLine(
      `recording ${live.id}/${scenario.id}:`,
      !args.quiet && process.stderr.isTTY === true && !process.env.CI,
    );
    let turns = [0, 0];
    let bytes = 0;
    let lastDraw = 0;
    const draw = () => line.update(turns[0]!, turns[1]!, `turns, ${kB(bytes)} streamed`);
    try {
      const result = await recordScenario({
        live,
        scenario,
        table,
        stream: args.stream,
        ...(key.value ? { apiKey: key.value } : {}),
        secrets,
        file,
        fetch: network,
        mayWrite: () => {
          const late = decideRecording(mode, existingFixture(file), args.force);
          return late.record ? undefined : `a fixture appeared there while recording (${late.reason})`;
        },
        progress: {
          turns: (done, total) => {
            turns = [done, total];
            draw();
          },
          bytes: (n) => {
            bytes = n;
            const now = Date.now();
            if (now - lastDraw > 100) {
              lastDraw = now;
              draw();
            }
          },
        },
      });
      line.done();
      for (const note of result.notes) process.stderr.write(`reasoning-replay: note: ${note}\n`);
      const replaced = decision.replaces === 'none' ? '' : ` (replaced a ${decision.replaces} fixture)`;
      process.stdout.write(
        `wrote ${shown}: ${result.exchanges} exchanges, ${kB(result.bytes)} received from ${live.target.host}${replaced}\n`,
      );
      return EXIT_OK;
    } catch (err) {
      line.done();
      if (err instanceof RecordingFailedError || err instanceof SecretLeakError) {
        process.stderr.write(`reasoning-replay: ${err.message}\n`);
        return EXIT_VIOLATION;
      }
      throw err;
    }
  },
});
