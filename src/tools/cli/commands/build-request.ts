import { loadProviderSpecs } from '../../../shared/provider-specs/load-provider-specs.js';
import { checkProviderId, knownProviderIds } from '../provider-id-check.js';
import type { FamilyId } from '../../../shared/route-table/route-table.js';
import { FAMILY_IDS } from '../../../shared/wire/families.js';
import { replayForRoute } from '../../../engine/replay/replay-for-route.js';
import { loadHistoryAs } from '../../../engine/history-formats/load-history-as.js';
import { convertedLabel, historyFormatOption, nativeKeyFor, printNotes } from '../history-format-option.js';
import { defaultRoutesFile, loadRouteTable } from '../../../shared/route-table/load-route-table.js';
import { resolveRoute } from '../../../shared/route-table/resolve-route.js';
import { InputError } from '../../../shared/errors/input-error.js';
import { HistoryShapeError } from '../../../shared/errors/history-shape-error.js';
import { STANDARD_CARRIER_FIELDS, type StandardCarrierField } from '../../../shared/history/history.js';
import { defineCommand, EXIT_OK } from '../cli-command.js';

// The wire families, from their descriptors (src/shared/wire/families.ts): adding one adds it here.
const FAMILIES: FamilyId[] = [...FAMILY_IDS];

export const buildRequestCommand = defineCommand({
  command: 'build-request',
  describe: 'Print the exact JSON body the replay engine would send for a history on a route',
  builder: (y) =>
    y
      .option('provider', { type: 'string', demandOption: true, describe: 'provider id, e.g. deepseek, openrouter' })
      .option('host', {
        type: 'string',
        demandOption: true,
        describe: 'base-URL host, e.g. api.deepseek.com (a full URL works too)',
      })
      .option('model', { type: 'string', demandOption: true, describe: 'model id' })
      .option('history', {
        type: 'string',
        demandOption: true,
        describe: 'history JSON file (canonical unless --history-format says otherwise)',
      })
      .option('history-format', historyFormatOption)
      .option('family', { choices: FAMILIES, describe: "override the route's wire family" })
      .option('routes', {
        type: 'string',
        default: defaultRoutesFile(),
        defaultDescription: 'specs/routes.json',
        describe: 'route table file',
      })
      .option('omit', {
        type: 'array',
        string: true,
        default: [] as string[],
        describe: 'carrier fields to withhold, as the unknown-field fallback would',
      })
      .option('stream', { type: 'boolean', default: false, describe: 'build the streaming variant of the request' })
      .option('envelope', {
        type: 'boolean',
        default: false,
        describe: 'print {route, family, path, body} instead of the body alone',
      })
      .example(
        '$0 build-request --provider deepseek --host api.deepseek.com --model deepseek-v4-flash --history h.json',
        '',
      )
      .example(
        '$0 build-request --provider gemini --host generativelanguage.googleapis.com --model gemini-3-pro-preview --history exported.json --history-format openai-chat',
        'a chat-completions export, Gemini signatures included',
      ),
  run(args) {
    const table = loadRouteTable(args.routes);
    const policy = resolveRoute(table, { provider: args.provider, host: args.host, model: args.model });
    checkProviderId(args.provider, policy, table, knownProviderIds(table, loadProviderSpecs()));
    if (args.family) policy.family = args.family;
    const { history, notes, format } = loadHistoryAs(args.history, args['history-format'], {
      geminiNativeKey: nativeKeyFor(policy),
    });
    printNotes(args.history, notes, { asked: args['history-format'], format });
    const omit = new Set<StandardCarrierField>();
    for (const field of args.omit) {
      if (!(STANDARD_CARRIER_FIELDS as readonly string[]).includes(field)) {
        throw new InputError(
          '--omit',
          '',
          `unknown carrier field "${field}"`,
          `use one of ${STANDARD_CARRIER_FIELDS.join(', ')}`,
        );
      }
      omit.add(field as StandardCarrierField);
    }
    for (const note of ignoredOmits(omit, policy)) process.stderr.write(`reasoning-replay: note: --omit ${note}\n`);
    let request;
    try {
      request = replayForRoute(history, policy, { omit, stream: args.stream });
    } catch (error) {
      // A history the route's wire family cannot express is the user's input, not a crash.
      if (error instanceof HistoryShapeError)
        throw new InputError(convertedLabel(args.history, format), error.pointer, error.problem, error.hint);
      throw error;
    }
    const upstream = policy.upstreamRule !== undefined ? { upstreamRule: policy.upstreamRule } : {};
    const out = args.envelope
      ? {
          route: policy.routeId,
          tier: policy.tier,
          ...upstream,
          family: request.family,
          path: request.path,
          body: request.body,
        }
      : request.body;
    process.stdout.write(JSON.stringify(out, null, 2) + '\n');
    return EXIT_OK;
  },
});

/**
 * An --omit the route makes meaningless is said on stderr rather than dropped without a word: the
 * must-echo tier never withholds reasoning_content (the provider answers 400 without it), a strict
 * route sends no carrier at all, and a field the route does not read is not sent anyway.
 */
function ignoredOmits(
  omit: ReadonlySet<StandardCarrierField>,
  policy: { routeId: string; tier: string; fields: readonly string[] },
): string[] {
  const notes: string[] = [];
  for (const field of omit) {
    if (policy.tier === 'strict')
      notes.push(`${field} has no effect: route ${policy.routeId} is strict and sends no carrier field`);
    else if (!policy.fields.includes(field))
      notes.push(`${field} has no effect: route ${policy.routeId} does not send ${field}`);
    else if (field === 'reasoning_content' && policy.tier === 'must-echo')
      notes.push(
        `reasoning_content is ignored: route ${policy.routeId} is must-echo, and its provider rejects a tool turn without it, so the fallback never withholds it`,
      );
  }
  return notes;
}
