// openai (Node) 6.x: a stateless Responses tool loop (store false, encrypted reasoning included), compacted between
// the two user turns with client.responses.compact; the compacted output replaces the history, and its compaction
// item goes back verbatim on every later request. OPENAI_BASE_URL is read by the SDK itself.
// --break: the compaction item's encrypted_content is edited (one character) before it is sent back.
// --break=drop: the compaction item is left out of the compacted history (the API accepts that in silence).
import OpenAI from 'openai-v6';
/** The blob with its sixth character changed: an edit a verbatim check must see. */
const oneCharEdited = (blob) => `${blob.slice(0, 5)}${blob[5] === 'A' ? 'B' : 'A'}${blob.slice(6)}`;
import { BREAK, BREAK_HOW, STREAM, TOOL, TURNS, expectToolRound, runTool } from './agent-task.mjs';

const client = new OpenAI();
const MODEL = 'gpt-5.4';
const tools = [
  { type: 'function', name: TOOL.name, description: TOOL.description, parameters: TOOL.schema, strict: false },
];

async function respond(input) {
  const body = { model: MODEL, input, tools, store: false, include: ['reasoning.encrypted_content'] };
  if (!STREAM) return client.responses.create(body);
  for await (const event of await client.responses.create({ ...body, stream: true }))
    if (event.type === 'response.completed') return event.response;
  throw new Error('the stream ended without response.completed');
}

const edited = (item) =>
  BREAK && item.type === 'compaction'
    ? {
        ...item,
        encrypted_content: oneCharEdited(item.encrypted_content),
      }
    : item;

let input = [];
for (const [turn, text] of TURNS.entries()) {
  if (turn > 0) {
    // Between user turns, the conversation so far is compacted on the server.
    const compacted = await client.responses.compact({ model: MODEL, input });
    if (compacted.object !== 'response.compaction' || !compacted.output.some((i) => i.type === 'compaction'))
      throw new Error(`responses.compact answered no compaction item: ${JSON.stringify(compacted).slice(0, 200)}`);
    input =
      BREAK_HOW === 'drop' ? compacted.output.filter((i) => i.type !== 'compaction') : compacted.output.map(edited);
  }
  input.push({ role: 'user', content: text });
  let toolCalls = 0;
  for (;;) {
    const response = await respond(input);
    input.push(...response.output);
    const calls = response.output.filter((item) => item.type === 'function_call');
    if (!calls.length) {
      const words = response.output
        .flatMap((item) => (item.type === 'message' ? item.content : []))
        .map((part) => part.text ?? '')
        .join('');
      expectToolRound(turn, toolCalls, words);
      break;
    }
    for (const call of calls) {
      toolCalls++;
      const result = runTool(call.name, JSON.parse(call.arguments));
      input.push({ type: 'function_call_output', call_id: call.call_id, output: JSON.stringify(result) });
    }
  }
}
