// openai (Node) responses.create against xAI's Responses API, as xAI's quickstart wires the OpenAI SDK
// (base URL https://api.x.ai/v1): stateless (store: false) with encrypted reasoning included, the output
// items passed back as they came.
// --break: each reasoning item goes back with its encrypted_content edited (a byte changed), which xAI
// cannot decrypt.
import OpenAI from 'openai';
import { BREAK, STREAM, TOOL, TURNS, baseUrlOf, expectToolRound, keyOf, runTool } from './agent-task.mjs';

const client = new OpenAI({ baseURL: baseUrlOf('xai-responses'), apiKey: keyOf('xai-responses') });
const tools = [
  { type: 'function', name: TOOL.name, description: TOOL.description, parameters: TOOL.schema, strict: false },
];

async function respond(input) {
  const body = { model: 'grok-4.3', input, tools, store: false, include: ['reasoning.encrypted_content'] };
  if (!STREAM) return client.responses.create(body);
  for await (const event of await client.responses.create({ ...body, stream: true }))
    if (event.type === 'response.completed') return event.response;
  throw new Error('the stream ended without response.completed');
}

/** The blob with its first character changed: still base64, no longer what xAI issued. */
const edited = (blob) => (blob.startsWith('A') ? 'B' : 'A') + blob.slice(1);

const input = [];
for (const [turn, text] of TURNS.entries()) {
  input.push({ role: 'user', content: text });
  let toolCalls = 0;
  for (;;) {
    const response = await respond(input);
    for (const item of response.output) {
      if (BREAK && item.type === 'reasoning' && typeof item.encrypted_content === 'string')
        input.push({ ...item, encrypted_content: edited(item.encrypted_content) });
      else input.push(item);
    }
    const calls = response.output.filter((item) => item.type === 'function_call');
    if (!calls.length) {
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
