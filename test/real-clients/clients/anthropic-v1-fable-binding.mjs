// @anthropic-ai/sdk 1.x (beta messages) on Claude Fable 5.1 with thinking-block binding controls: each thinking block
// is bound to the conversation before it and goes back verbatim under the same system prompt and tools.
// ANTHROPIC_BASE_URL and ANTHROPIC_API_KEY are read by the SDK itself.
// --break: the system prompt changes before the second user turn while the earlier thinking is kept, which a
// binding model refuses under prefix_mismatch_behavior "error".
import Anthropic from 'anthropic-sdk-v1';
import { BREAK, STREAM, TOOL, TURNS, expectToolRound, runTool } from './agent-task.mjs';

const client = new Anthropic();
const tools = [{ name: TOOL.name, description: TOOL.description, input_schema: TOOL.schema }];

async function create(system, messages) {
  const body = {
    model: 'claude-fable-5-1',
    max_tokens: 2048,
    betas: ['thinking-binding-controls-2026-08-01'],
    system,
    thinking: { type: 'adaptive', block_binding: { prefix_mismatch_behavior: 'error' } },
    messages,
    tools,
  };
  return STREAM ? client.beta.messages.stream(body).finalMessage() : client.beta.messages.create(body);
}

const messages = [];
for (const [turn, text] of TURNS.entries()) {
  const system = BREAK && turn > 0 ? 'You answer order questions tersely.' : 'You answer order questions.';
  messages.push({ role: 'user', content: text });
  let toolCalls = 0;
  for (;;) {
    const message = await create(system, messages);
    const dropped = (message.input_transformations ?? []).length;
    if (dropped) throw new Error(`the API reported ${dropped} input transformation(s) on a conforming history`);
    messages.push({ role: 'assistant', content: message.content });
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
