// What every framework agent here shares: its task (two user turns, an order lookup tool), its
// command line, and where it finds its provider. Nothing else is wired: base URLs and keys come from
// the environment `reasoning-replay run` sets (REASONING_REPLAY_<ID>_BASE_URL, the SDKs' own
// variables, <ID>_API_KEY), as they would from a deployment's environment.
//
// Command line: --provider ID (a provider id of specs/providers/), --stream, --use NAME=ALIAS to
// load one package at another installed version (an npm alias such as ai-sdk-google-2.0.38), and
// --fault NAME when `run --faults NAME` injects a fault (the faults column of `npm run frameworks`).
const argv = process.argv.slice(2);
const valueOf = (flag) => {
  const at = argv.indexOf(flag);
  return at >= 0 ? argv[at + 1] : undefined;
};

export const PROVIDER = valueOf('--provider') ?? process.env.AGENT_PROVIDER;
export const STREAM = argv.includes('--stream');
/** The fault injected into this run, if any: the agent then behaves as a deployed one (see retryOnce). */
export const FAULT = valueOf('--fault');

/**
 * One user turn (or one model call of an agent's own loop). Under a fault the agent does what a deployed agent does
 * after an error: its SDK retries as it does by default, and a call that still fails is tried once more from the
 * history the framework kept. Whatever the framework stored of the failed attempt is what the retry replays: that is
 * what the faults column judges. Without a fault an error ends the run, as before.
 */
export async function retryOnce(what, attempt) {
  try {
    return await attempt();
  } catch (error) {
    if (!FAULT) throw error;
    console.log(`${what}: ${error?.message ?? error}; trying once more`);
    return attempt();
  }
}

const uses = new Map(
  argv.flatMap((arg, i) => (argv[i - 1] === '--use' ? [arg.split('=')] : [])).map(([name, alias]) => [name, alias]),
);
/** The module to import for a package: its alias when the matrix pins another version. */
export const pkg = (name) => uses.get(name) ?? name;

export function needProvider(supported) {
  if (!supported.includes(PROVIDER))
    throw new Error(`--provider ${PROVIDER}: this agent supports ${supported.join(', ')}`);
  return PROVIDER;
}

export const TURNS = JSON.parse(
  process.env.REASONING_REPLAY_TURNS ?? '["Where is order ORD-1234?","And order ORD-5678?"]',
);
export const SYSTEM = 'You are an order desk. Look orders up with lookup_order before answering.';
export const TOOL = {
  name: 'lookup_order',
  description: 'Status of one order',
  schema: {
    type: 'object',
    properties: { order_id: { type: 'string', pattern: '^ORD-[0-9]{4}$' } },
    required: ['order_id'],
    additionalProperties: false,
  },
};

export function lookupOrder(args) {
  const input = typeof args === 'string' ? JSON.parse(args) : args;
  if (!/^ORD-\d{4}$/.test(input?.order_id ?? '')) throw new Error(`bad order id ${JSON.stringify(args)}`);
  return { order_id: input.order_id, status: 'shipped' };
}

const stem = (id) => id.toUpperCase().replace(/[^A-Z0-9]+/g, '_');
/** The provider's base URL, as `run` publishes it (REASONING_REPLAY_<ID>_BASE_URL). */
export function baseUrlOf(provider = PROVIDER) {
  const name = `REASONING_REPLAY_${stem(provider)}_BASE_URL`;
  const url = process.env[name];
  if (!url) throw new Error(`${name} is not set: run this agent under reasoning-replay run`);
  return url;
}
/** The provider's key (<ID>_API_KEY): `run` sets a placeholder, a deployment its secret. */
export const keyOf = (provider = PROVIDER) => process.env[`${stem(provider)}_API_KEY`] ?? 'unset';

/** Each user turn must end with the model's words after at least one tool round. */
export function expectToolRound(turn, toolCalls, text) {
  if (toolCalls < 1) throw new Error(`turn ${turn}: the model called no tool`);
  if (!text) throw new Error(`turn ${turn}: no final answer after the tool round`);
  console.log(`turn ${turn}: ${toolCalls} tool call(s), answer: ${String(text).slice(0, 60)}`);
}
