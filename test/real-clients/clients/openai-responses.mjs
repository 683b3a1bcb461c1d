// openai (Node) responses.create, stateless (store: false) with encrypted reasoning included, the
// output items passed back as they came. OPENAI_BASE_URL is read by the SDK itself.
// --break: the reasoning items are left out of the input.
// --structured: text.format json_schema; each final answer is JSON checked against its schema.
import OpenAI from 'openai';
import { ANSWER_SCHEMA, BREAK, STREAM, STRUCTURED, TOOL, TURNS, expectToolRound, runTool } from './agent-task.mjs';

const client = new OpenAI();
const tools = [
  { type: 'function', name: TOOL.name, description: TOOL.description, parameters: TOOL.schema, strict: false },
];

async function respond(input) {
  const body = { model: 'gpt-5', input, tools, store: false, include: ['reasoning.encrypted_content'] };
  if (STRUCTURED)
    body.text = { format: { type: 'json_schema', name: 'order_status', schema: ANSWER_SCHEMA, strict: true } };
  if (!STREAM) return client.responses.create(body);
  // The raw events, not responses.stream(): its final response adds parsed_arguments to each call,
  // which the API refuses when the item is sent back.
  for await (const event of await client.responses.create({ ...body, stream: true }))
    if (event.type === 'response.completed') return event.response;
  throw new Error('the stream ended without response.completed');
}

const input = [];
for (const [turn, text] of TURNS.entries()) {
  input.push({ role: 'user', content: text });
  let toolCalls = 0;
  for (;;) {
    const response = await respond(input);
    input.push(...response.output.filter((item) => !(BREAK && item.type === 'reasoning')));
    const calls = response.output.filter((item) => item.type === 'function_call');
    if (!calls.length) {
      // output_text is the SDK's convenience on create(); a streamed response has only its items.
      const text = response.output
        .flatMap((item) => (item.type === 'message' ? item.content : []))
        .map((part) => part.text ?? '')
        .join('');
      expectToolRound(turn, toolCalls, text);
      break;
    }
    for (const call of calls) {
      toolCalls++;
      const result = runTool(call.name, JSON.parse(call.arguments));
      input.push({ type: 'function_call_output', call_id: call.call_id, output: JSON.stringify(result) });
    }
  }
}
