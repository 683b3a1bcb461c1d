// openai (Node) chat.completions against DeepSeek, keeping reasoning_content as DeepSeek's docs ask.
// --break: the tool-call turn goes back without reasoning_content.
// --provider/--model: another provider that wants reasoning_content back the same way (Moonshot's Kimi K2.6).
// --structured: response_format json_schema, which DeepSeek refuses ("This response_format type is unavailable
// now") and Moonshot takes (a live probe on 2026-07-17: https://github.com/mnfst/modelparams.dev/pull/125).
import OpenAI from 'openai';
import {
  ANSWER_SCHEMA,
  BREAK,
  STREAM,
  STRUCTURED,
  TOOL,
  TURNS,
  baseUrlOf,
  expectToolRound,
  flag,
  keyOf,
  runTool,
} from './agent-task.mjs';

const provider = flag('--provider') ?? 'deepseek';
const model = flag('--model') ?? 'deepseek-v4-flash';
const client = new OpenAI({ baseURL: baseUrlOf(provider), apiKey: keyOf(provider) });
const tools = [
  { type: 'function', function: { name: TOOL.name, description: TOOL.description, parameters: TOOL.schema } },
];

async function complete(messages) {
  const body = { model, messages, tools };
  if (STRUCTURED)
    body.response_format = {
      type: 'json_schema',
      json_schema: { name: 'order_status', schema: ANSWER_SCHEMA, strict: true },
    };
  if (!STREAM) return (await client.chat.completions.create(body)).choices[0].message;
  // The SDK's types know no reasoning_content; the raw deltas carry it.
  const message = { role: 'assistant', content: '', reasoning_content: '' };
  const calls = [];
  for await (const chunk of await client.chat.completions.create({ ...body, stream: true })) {
    const delta = chunk.choices[0]?.delta ?? {};
    message.reasoning_content += delta.reasoning_content ?? '';
    message.content += delta.content ?? '';
    for (const tc of delta.tool_calls ?? []) {
      calls[tc.index] ??= { id: '', type: 'function', function: { name: '', arguments: '' } };
      calls[tc.index].id += tc.id ?? '';
      calls[tc.index].function.name += tc.function?.name ?? '';
      calls[tc.index].function.arguments += tc.function?.arguments ?? '';
    }
  }
  if (calls.length) message.tool_calls = calls;
  return message;
}

const messages = [];
for (const [turn, text] of TURNS.entries()) {
  messages.push({ role: 'user', content: text });
  let toolCalls = 0;
  for (;;) {
    const message = await complete(messages);
    if (BREAK) delete message.reasoning_content;
    messages.push(message);
    if (!message.tool_calls?.length) {
      expectToolRound(turn, toolCalls, message.content);
      break;
    }
    for (const call of message.tool_calls) {
      toolCalls++;
      const result = runTool(call.function.name, JSON.parse(call.function.arguments));
      messages.push({ role: 'tool', tool_call_id: call.id, content: JSON.stringify(result) });
    }
  }
}
