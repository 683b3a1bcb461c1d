import { STANDARD_CARRIER_FIELDS } from '../../model/history.js';
import { replayForRoute } from '../../replay/replay-for-route.js';
import { defaultRoutesFile, loadRouteTable } from '../../routes/load-route-table.js';
import { defaultStateDbFile } from '../../session/open-state-db.js';
import { SessionStore } from '../../session/session-store.js';
import { defineCommand, EXIT_OK } from '../cli-command.js';
import { resolveCliRoute } from '../resolve-cli-route.js';
import { parseSessionId } from './sessions.js';

export const replayCommand = defineCommand({
  command: 'replay',
  describe: "Print the request a stored session would send now on a route, honouring the session's unknown-field verdicts",
  builder: (y) =>
    y
      .option('session', { type: 'string', demandOption: true, describe: 'session id (see: sessions list)' })
      .option('route', { type: 'string', describe: 'a route id from the table (or give --provider, --host and --model)' })
      .option('provider', { type: 'string' })
      .option('host', { type: 'string' })
      .option('model', { type: 'string' })
      .option('db', { type: 'string', default: defaultStateDbFile(), defaultDescription: '$REASONING_REPLAY_DB or ./state.db', describe: 'the state.db file' })
      .option('routes', { type: 'string', default: defaultRoutesFile(), defaultDescription: 'specs/routes.json', describe: 'route table file' })
      .option('stream', { type: 'boolean', default: false, describe: 'build the streaming variant' })
      .option('envelope', { type: 'boolean', default: false, describe: 'print {route, tier, family, path, omitted, body} instead of the body alone' })
      .example('$0 replay --session 1 --route deepseek', '')
      .example('$0 replay --session 1 --provider groq --host api.groq.com --model qwen3-32b', ''),
  run(args) {
    const table = loadRouteTable(args.routes);
    const policy = resolveCliRoute(table, args);
    const store = SessionStore.open(args.db, { mustExist: true });
    try {
      const resumed = store.resume(parseSessionId(args.session, 'replay'));
      const omit = resumed.verdicts.fieldsFor(policy.target);
      const request = replayForRoute(resumed.history, policy, { omit, stream: args.stream });
      const omitted = STANDARD_CARRIER_FIELDS.filter((f) => omit.has(f));
      const printed = args.envelope ? { route: policy.routeId, tier: policy.tier, family: request.family, path: request.path, target: policy.target, omitted, body: request.body } : request.body;
      process.stdout.write(JSON.stringify(printed, null, 2) + '\n');
      if (omitted.length > 0 && !args.envelope) process.stderr.write(`reasoning-replay: withheld ${omitted.join(', ')} (recorded as unknown for ${policy.target.provider} ${policy.target.host} ${policy.target.model})\n`);
      return EXIT_OK;
    } finally {
      store.close();
    }
  },
});
