import { loadProviderSpecs } from '../../../shared/provider-specs/load-provider-specs.js';
import { HistoryShapeError } from '../../../shared/errors/history-shape-error.js';
import { loadHistoryAs } from '../../../engine/history-formats/load-history-as.js';
import { InputError } from '../../../shared/errors/input-error.js';
import { STANDARD_CARRIER_FIELDS, type History, type StandardCarrierField } from '../../../shared/history/history.js';
import { replayForRoute } from '../../../engine/replay/replay-for-route.js';
import { defaultRoutesFile, loadRouteTable } from '../../../shared/route-table/load-route-table.js';
import type { RoutePolicy } from '../../../shared/route-table/route-table.js';
import { defaultStateDbFile } from '../../../engine/session/open-state-db.js';
import { SessionStore } from '../../../engine/session/session-store.js';
import { defineCommand, EXIT_OK } from '../cli-command.js';
import { convertedLabel, historyFormatOption, nativeKeyFor, printNotes } from '../history-format-option.js';
import { resolveCliRoute } from '../resolve-cli-route.js';
import { parseSessionId } from './sessions.js';

export const replayCommand = defineCommand({
  command: 'replay',
  describe:
    "Print the request a stored session (or a history file) would send now on a route, honouring the session's unknown-field verdicts",
  builder: (y) =>
    y
      .option('session', { type: 'string', describe: 'session id (see: sessions list)' })
      .option('history', { type: 'string', describe: 'a history file instead of a stored session (no verdicts apply)' })
      .option('history-format', { ...historyFormatOption, describe: `with --history: ${historyFormatOption.describe}` })
      .conflicts('session', 'history')
      .option('route', {
        type: 'string',
        describe: 'a route id from the table (or give --provider, --host and --model)',
      })
      .option('provider', { type: 'string' })
      .option('host', { type: 'string' })
      .option('model', { type: 'string' })
      .option('db', {
        type: 'string',
        default: defaultStateDbFile(),
        defaultDescription: '$REASONING_REPLAY_DB or ./state.db',
        describe: 'the state.db file',
      })
      .option('routes', {
        type: 'string',
        default: defaultRoutesFile(),
        defaultDescription: 'specs/routes.json',
        describe: 'route table file',
      })
      .option('stream', { type: 'boolean', default: false, describe: 'build the streaming variant' })
      .option('envelope', {
        type: 'boolean',
        default: false,
        describe: 'print {route, tier, family, path, omitted, body} instead of the body alone',
      })
      .example('$0 replay --session 1 --route deepseek', '')
      .example(
        '$0 replay --history exported.json --history-format openai-chat --route openrouter',
        'a history as an agent stored it',
      )
      .example('$0 replay --session 1 --provider groq --host api.groq.com --model qwen3-32b', ''),
  run(args) {
    const table = loadRouteTable(args.routes);
    const policy = resolveCliRoute(table, args, loadProviderSpecs());
    if (args.history !== undefined) {
      const { history, notes, format } = loadHistoryAs(args.history, args['history-format'], {
        geminiNativeKey: nativeKeyFor(policy),
      });
      printNotes(args.history, notes, { asked: args['history-format'], format });
      printRequest(history, policy, new Set(), {
        stream: args.stream,
        envelope: args.envelope,
        label: convertedLabel(args.history, format),
      });
      return EXIT_OK;
    }
    if (args.session === undefined)
      throw new InputError(
        '--session',
        '',
        'name what to replay',
        'give --session ID (see: sessions list) or --history FILE',
      );
    const store = SessionStore.open(args.db, { mustExist: true });
    try {
      const resumed = store.resume(parseSessionId(args.session, 'replay'));
      const omit = resumed.verdicts.fieldsFor(policy.target);
      const omitted = printRequest(resumed.history, policy, omit, {
        stream: args.stream,
        envelope: args.envelope,
        label: `session ${args.session}`,
      });
      if (omitted.length > 0 && !args.envelope)
        process.stderr.write(
          `reasoning-replay: withheld ${omitted.join(', ')} (recorded as unknown for ${policy.target.provider} ${policy.target.host} ${policy.target.model})\n`,
        );
      return EXIT_OK;
    } finally {
      store.close();
    }
  },
});

/**
 * Builds and prints the request (or its envelope) for a history on a route; a history the route's
 * family cannot express is the user's input (`label` names it), not a crash. Returns what was withheld.
 */
function printRequest(
  history: History,
  policy: RoutePolicy,
  omit: ReadonlySet<StandardCarrierField>,
  options: { stream: boolean; envelope: boolean; label: string },
): StandardCarrierField[] {
  let request;
  try {
    request = replayForRoute(history, policy, { omit, stream: options.stream });
  } catch (error) {
    if (error instanceof HistoryShapeError)
      throw new InputError(options.label, error.pointer, error.problem, error.hint);
    throw error;
  }
  const omitted = STANDARD_CARRIER_FIELDS.filter((f) => omit.has(f));
  const printed = options.envelope
    ? {
        route: policy.routeId,
        tier: policy.tier,
        ...(policy.upstreamRule !== undefined ? { upstreamRule: policy.upstreamRule } : {}),
        family: request.family,
        path: request.path,
        target: policy.target,
        omitted,
        body: request.body,
      }
    : request.body;
  process.stdout.write(JSON.stringify(printed, null, 2) + '\n');
  return omitted;
}
