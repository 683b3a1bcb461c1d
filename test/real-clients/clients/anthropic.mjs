// @anthropic-ai/sdk messages with extended thinking: the signed thinking blocks go back verbatim.
// ANTHROPIC_BASE_URL and ANTHROPIC_API_KEY are read by the SDK itself.
// --break: the thinking blocks are dropped from the assistant turns sent back.
// --structured: output_config.format json_schema (structured outputs, GA); the SDK passes the member through.
import Anthropic from '@anthropic-ai/sdk';
import { ANSWER_SCHEMA, BREAK, STREAM, STRUCTURED, TOOL, TURNS, expectToolRound, runTool } from './agent-task.mjs';

const client = new Anthropic();
const tools = [{ name: TOOL.name, description: TOOL.description, input_schema: TOOL.schema }];

async function create(messages) {
  const body = {
    model: 'claude-sonnet-4-5',
    max_tokens: 2048,
    thinking: { type: 'enabled', budget_tokens: 1024 },
    messages,
    tools,
    ...(STRUCTURED ? { output_config: { format: { type: 'json_schema', schema: ANSWER_SCHEMA } } } : {}),
  };
  return STREAM ? client.messages.stream(body).finalMessage() : client.messages.create(body);
}

const messages = [];
for (const [turn, text] of TURNS.entries()) {
  messages.push({ role: 'user', content: text });
  let toolCalls = 0;
  for (;;) {
    const message = await create(messages);
    const content = message.content.filter((b) => !(BREAK && b.type === 'thinking'));
    messages.push({ role: 'assistant', content });
    const uses = message.content.filter((b) => b.type === 'tool_use');
    if (!uses.length) {
      expectToolRound(turn, toolCalls, message.content.find((b) => b.type === 'text')?.text);
      break;
    }
    toolCalls += uses.length;
    messages.push({
      role: 'user',
      content: uses.map((u) => ({
        type: 'tool_result',
        tool_use_id: u.id,
        content: JSON.stringify(runTool(u.name, u.input)),
      })),
    });
  }
}
