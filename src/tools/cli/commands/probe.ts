import type { FamilyId } from '../../../shared/route-table/route-table.js';
import { FAMILY_IDS } from '../../../shared/wire/families.js';
import { defaultRoutesFile, loadRouteTable } from '../../../shared/route-table/load-route-table.js';
import { InputError } from '../../../shared/errors/input-error.js';
import { readApiKey } from '../../services/recorder/api-key.js';
import { authHeaders } from '../../services/recorder/auth-headers.js';
import { redactText } from '../../services/recorder/redact.js';
import { bedrockSigning } from '../../services/recorder/bedrock-signing.js';
import { fetchWithDeadline } from '../../services/recorder/deadline-fetch.js';
import { resolveLiveTarget } from '../../services/recorder/live-target.js';
import { classifyProbe, diffRoute, suggestRow } from '../../services/recorder/probe/classify-probe.js';
import { probeRoute, type ProbeOutcome } from '../../services/recorder/probe/probe-route.js';
import { defineCommand, EXIT_OK, EXIT_VIOLATION } from '../cli-command.js';

// The wire families, from their descriptors (src/shared/wire/families.ts): adding one adds it here.
const FAMILIES: FamilyId[] = [...FAMILY_IDS];

function outcomeLine(o: ProbeOutcome): string {
  const verdict = o.accepted ? 'accepted' : o.unknownField ? 'refused as unknown field' : 'refused';
  return `  ${(o.variant === 'none' ? '(no reasoning)' : o.variant).padEnd(18)} ${String(o.status).padEnd(4)} ${verdict}${o.wording ? `: ${o.wording}` : ''}`;
}

export const probeCommand = defineCommand({
  command: 'probe',
  describe: 'Ask a live endpoint which reasoning carriers it accepts, and compare with the route table',
  builder: (y) =>
    y
      .option('provider', {
        type: 'string',
        demandOption: true,
        describe: 'provider spec id (specs/providers/<id>.json) or routing provider id',
      })
      .option('base-url', {
        type: 'string',
        demandOption: true,
        describe: 'base URL of the endpoint, as a client is configured with it',
      })
      .option('model', { type: 'string', demandOption: true, describe: 'model id' })
      .option('family', { choices: FAMILIES, describe: 'wire family (default: the spec’s, else the route’s)' })
      .option('api-key-env', {
        type: 'string',
        describe: 'environment variable holding the API key (default: the spec’s secretEnv)',
      })
      .option('routes', {
        type: 'string',
        default: defaultRoutesFile(),
        defaultDescription: 'specs/routes.json',
        describe: 'route table to compare with',
      })
      .option('json', {
        type: 'boolean',
        default: false,
        describe: 'print the outcomes, suggested row and diff as JSON',
      })
      .option('timeout', {
        type: 'number',
        default: 120_000,
        describe:
          'deadline per probe call in ms, body included: an endpoint that never answers ends the probe (exit 1) instead of hanging it',
      })
      .example(
        'DEEPSEEK_API_KEY=... $0 probe --provider deepseek --base-url https://api.deepseek.com --model deepseek-v4-flash',
        '',
      )
      .epilog(
        'Sends the minimal tool turn (user, assistant tool call with reasoning, tool result) once per carrier field and once with none.\nExit 0: the table agrees with the endpoint. 1: it does not (a suggested row and the diff are printed), or the probe was inconclusive. 2: bad input.',
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
    if (!(args.timeout > 0))
      throw new InputError('--timeout', '', `must be a positive number of milliseconds, got ${args.timeout}`);
    const key = readApiKey(args['api-key-env'] ?? live.spec?.secretEnv, process.env, live.target);
    try {
      authHeaders(live.family, key.value, live.target.host);
    } catch (err) {
      throw new InputError('--api-key-env', '', (err as Error).message);
    }
    if (key.env && !key.value)
      process.stderr.write(`reasoning-replay: ${key.env} is not set; probing without an API key\n`);
    const signing = bedrockSigning(live.family, key.value, live.target.host);
    const fetch = fetchWithDeadline(args.timeout, signing?.fetch);
    let outcomes: ProbeOutcome[];
    try {
      outcomes = await probeRoute({
        baseUrl: live.baseUrl,
        family: live.family,
        target: live.target,
        flags: live.policy.flags,
        fetch,
        ...(key.value ? { apiKey: key.value } : {}),
      });
    } catch (err) {
      const cause = (err as { cause?: { message?: string } }).cause?.message;
      // The base URL may carry ?token=... and the error may quote it: redacted like every printed line.
      const secrets = key.value ? [{ name: key.env ?? 'API_KEY', value: key.value }] : [];
      process.stderr.write(
        `reasoning-replay: ${redactText(`could not reach ${live.baseUrl}: ${err instanceof Error ? err.message : String(err)}${cause ? ` (${cause})` : ''}`, secrets)}\n`,
      );
      return EXIT_VIOLATION;
    }
    const classification = classifyProbe(outcomes);
    const evidence = `Probed ${new Date().toISOString().slice(0, 10)} at ${live.target.host} with ${live.target.model}: ${outcomes
      .map((o) => `${o.variant} ${o.status}${o.unknownField ? ' (unknown field)' : ''}`)
      .join(', ')}.`;
    const suggested = suggestRow(classification, live.route, live.target, live.family, evidence);
    const diff = suggested ? diffRoute(live.route, suggested) : [];
    if (args.json) {
      process.stdout.write(
        JSON.stringify(
          {
            target: live.target,
            family: live.family,
            currentRoute: live.route.id,
            outcomes,
            classification,
            suggested,
            diff,
          },
          null,
          2,
        ) + '\n',
      );
    } else {
      const out: string[] = [
        `probe ${live.id} at ${live.target.host}, model ${live.target.model} (${live.family})`,
        ...outcomes.map(outcomeLine),
        `classification: ${classification.tier}: ${classification.reason}`,
      ];
      out.push(
        `current route: ${live.route.id} (${live.route.tier}; ${live.route.fields.join(', ') || 'no carriers'})`,
      );
      if (suggested) {
        out.push('suggested row (specs/routes.json shape):', JSON.stringify(suggested.row, null, 2));
        if (suggested.alsoAccepted.length > 0)
          out.push(
            `also accepted, not proposed (a lenient server ignores keys it does not read): ${suggested.alsoAccepted.join(', ')}`,
          );
        out.push(
          diff.length === 0
            ? `diff against route ${live.route.id}: none, the table agrees`
            : `diff against route ${live.route.id}:\n${diff.map((l) => `  ${l}`).join('\n')}`,
        );
      }
      process.stdout.write(out.join('\n') + '\n');
    }
    return suggested && diff.length === 0 ? EXIT_OK : EXIT_VIOLATION;
  },
});
