// What every Node client in the matrix shares: its task (the user turns `run` hands it), its tools,
// the flags the driver passes, and a base URL read the way `run` publishes it. No SDK here.

export const STREAM = process.argv.includes('--stream');
/** Break the reasoning round trip on purpose: the client edits the history it sends back. */
export const BREAK = process.argv.some((a) => a === '--break' || a.startsWith('--break='));
/** How, where a client has more than one way to break it (`--break=drop`); undefined for its default break. */
export const BREAK_HOW = process.argv.find((a) => a.startsWith('--break='))?.slice('--break='.length);
/** Ask for structured output: each final answer must be JSON that satisfies ANSWER_SCHEMA. */
export const STRUCTURED = process.argv.includes('--structured');

/** The value of a `--name value` flag, or undefined. */
export function flag(name) {
  const at = process.argv.indexOf(name);
  return at >= 0 ? process.argv[at + 1] : undefined;
}

export const TURNS = JSON.parse(
  process.env.REASONING_REPLAY_TURNS ?? '["Where is order ORD-1234?","And order ORD-5678?"]',
);

export const ORDER_SCHEMA = {
  type: 'object',
  properties: { order_id: { type: 'string', pattern: '^ORD-[0-9]{4}$' } },
  required: ['order_id'],
  additionalProperties: false,
};
/** What a structured final answer holds: the order the user asked about and its status. */
export const ANSWER_SCHEMA = {
  type: 'object',
  properties: {
    order_id: { type: 'string', pattern: '^ORD-[0-9]{4}$' },
    status: { type: 'string', enum: ['pending', 'shipped', 'delivered'] },
  },
  required: ['order_id', 'status'],
  additionalProperties: false,
};
// Loaded and compiled only when the run asks for structured output: Ajv's import is most of this module's cost, and
// the matrix starts this module in over a hundred client processes.
const validAnswer = STRUCTURED ? new (await import('ajv')).default().compile(ANSWER_SCHEMA) : undefined;

export const TOOL = { name: 'lookup_order', description: 'Status of one order', schema: ORDER_SCHEMA };

export function runTool(name, args) {
  if (name !== TOOL.name) throw new Error(`the model called a tool this agent never offered: ${name}`);
  if (!/^ORD-\d{4}$/.test(args.order_id ?? '')) throw new Error(`bad order id ${JSON.stringify(args)}`);
  return { order_id: args.order_id, status: 'shipped' };
}

/** `run`'s per-provider base URL (REASONING_REPLAY_<ID>_BASE_URL): what an agent puts in its config. */
export function baseUrlOf(provider) {
  const name = `REASONING_REPLAY_${provider.toUpperCase().replace(/[^A-Z0-9]+/g, '_')}_BASE_URL`;
  const url = process.env[name];
  if (!url) throw new Error(`${name} is not set: run this under reasoning-replay run`);
  return url;
}

/** The key `run` sets for a provider (<ID>_API_KEY), as an agent reads its key. */
export const keyOf = (provider) => process.env[`${provider.toUpperCase().replace(/[^A-Z0-9]+/g, '_')}_API_KEY`];

/** Each user turn must end with the model's words after one tool round. */
export function expectToolRound(turn, toolCalls, text) {
  if (toolCalls < 1) throw new Error(`turn ${turn}: the model called no tool`);
  if (!text) throw new Error(`turn ${turn}: no final answer after the tool round`);
  if (STRUCTURED) parseAnswer(turn, text);
  console.log(`turn ${turn}: ${toolCalls} tool call(s), answer: ${text.slice(0, 60)}`);
}

/**
 * A structured answer, parsed and checked as an agent that feeds it to code must: an answer it cannot use
 * ends the agent with exit 3, the way an agent that parses its answer fails.
 */
function parseAnswer(turn, text) {
  let answer;
  try {
    answer = JSON.parse(text);
  } catch {
    console.error(`turn ${turn}: the structured answer is not JSON: ${text.slice(0, 80)}`);
    process.exit(3);
  }
  if (!validAnswer(answer)) {
    console.error(`turn ${turn}: the structured answer breaks its schema: ${JSON.stringify(validAnswer.errors)}`);
    process.exit(3);
  }
  return answer;
}
