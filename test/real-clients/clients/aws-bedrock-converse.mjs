// @aws-sdk/client-bedrock-runtime Converse (--stream: ConverseStream) on Claude with thinking, the
// reasoningContent blocks (text and signature) passed back as they came. Wired with an endpoint and
// a key only; the client keeps its defaults (HTTP/2 for this service, the binary event stream).
// --break: the reasoningContent blocks are dropped from the assistant turns sent back.
// --structured: outputConfig.textFormat json_schema (the schema travels as a JSON string).
import { BedrockRuntimeClient, ConverseCommand, ConverseStreamCommand } from '@aws-sdk/client-bedrock-runtime';
import {
  ANSWER_SCHEMA,
  BREAK,
  STREAM,
  STRUCTURED,
  TOOL,
  TURNS,
  baseUrlOf,
  expectToolRound,
  keyOf,
  runTool,
} from './agent-task.mjs';

const client = new BedrockRuntimeClient({
  region: 'us-east-1',
  endpoint: baseUrlOf('bedrock-claude'),
  credentials: { accessKeyId: 'AKIDRRMOCK', secretAccessKey: keyOf('bedrock-claude') },
  maxAttempts: 1,
});
const request = (messages) => ({
  modelId: 'us.anthropic.claude-sonnet-4-5-20250929-v1:0',
  messages,
  toolConfig: {
    tools: [{ toolSpec: { name: TOOL.name, description: TOOL.description, inputSchema: { json: TOOL.schema } } }],
  },
  additionalModelRequestFields: { thinking: { type: 'enabled', budget_tokens: 1024 } },
  ...(STRUCTURED
    ? {
        outputConfig: {
          textFormat: {
            type: 'json_schema',
            structure: { jsonSchema: { name: 'order_status', schema: JSON.stringify(ANSWER_SCHEMA) } },
          },
        },
      }
    : {}),
});

/** ConverseStream's events put back together into the message Converse would have answered. */
async function streamed(messages) {
  const answer = await client.send(new ConverseStreamCommand(request(messages)));
  const blocks = [];
  for await (const event of answer.stream) {
    if (event.contentBlockStart?.start?.toolUse) {
      const { toolUseId, name } = event.contentBlockStart.start.toolUse;
      blocks[event.contentBlockStart.contentBlockIndex] = { toolUse: { toolUseId, name, input: '' } };
    }
    const d = event.contentBlockDelta;
    if (!d) continue;
    const block = (blocks[d.contentBlockIndex] ??= {});
    if (d.delta.text !== undefined) block.text = (block.text ?? '') + d.delta.text;
    if (d.delta.toolUse) block.toolUse.input += d.delta.toolUse.input;
    if (d.delta.reasoningContent) {
      const r = (block.reasoningContent ??= { reasoningText: { text: '' } });
      if (d.delta.reasoningContent.text !== undefined) r.reasoningText.text += d.delta.reasoningContent.text;
      if (d.delta.reasoningContent.signature !== undefined)
        r.reasoningText.signature = d.delta.reasoningContent.signature;
    }
  }
  for (const b of blocks) if (b.toolUse) b.toolUse.input = JSON.parse(b.toolUse.input || '{}');
  return { role: 'assistant', content: blocks };
}

async function converse(messages) {
  if (STREAM) return streamed(messages);
  return (await client.send(new ConverseCommand(request(messages)))).output.message;
}

const messages = [];
for (const [turn, text] of TURNS.entries()) {
  messages.push({ role: 'user', content: [{ text }] });
  let toolCalls = 0;
  for (;;) {
    const message = await converse(messages);
    messages.push({ role: 'assistant', content: message.content.filter((b) => !(BREAK && b.reasoningContent)) });
    const uses = message.content.filter((b) => b.toolUse).map((b) => b.toolUse);
    if (!uses.length) {
      expectToolRound(turn, toolCalls, message.content.map((b) => b.text ?? '').join(''));
      break;
    }
    toolCalls += uses.length;
    messages.push({
      role: 'user',
      content: uses.map((u) => ({
        toolResult: { toolUseId: u.toolUseId, content: [{ json: runTool(u.name, u.input) }] },
      })),
    });
  }
}
