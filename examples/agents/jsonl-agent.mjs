#!/usr/bin/env node
// A long-lived agent driven by `reasoning-replay run --protocol jsonl`: it reads
// {"type":"turn","turn":N,"content":...} lines on stdin, runs that turn's tool loop against the
// OpenAI Chat Completions API at OPENAI_BASE_URL (plain fetch, no SDK), answers
// {"type":"turn-done","turn":N}, and exits on {"type":"end"}. Anything else it prints is its own.
import { createInterface } from 'node:readline';

const base = process.env.OPENAI_BASE_URL ?? 'https://api.openai.com/v1';
const tools = [
  {
    type: 'function',
    function: {
      name: 'convert_currency',
      parameters: {
        type: 'object',
        properties: { amount: { type: 'number', minimum: 0 }, to: { enum: ['EUR', 'USD', 'JPY'] } },
        required: ['amount', 'to'],
      },
    },
  },
];
const messages = [];

async function chat() {
  const response = await fetch(`${base}/chat/completions`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      authorization: `Bearer ${process.env.OPENAI_API_KEY}`,
      'x-reasoning-replay-client': 'jsonl-agent-example',
    },
    body: JSON.stringify({ model: 'gpt-5', messages, tools }),
  });
  if (!response.ok) throw new Error(`provider answered ${response.status}: ${await response.text()}`);
  return (await response.json()).choices[0].message;
}

for await (const line of createInterface({ input: process.stdin })) {
  const msg = JSON.parse(line);
  if (msg.type === 'end') break;
  if (msg.type !== 'turn') continue;
  messages.push({ role: 'user', content: msg.content });
  for (let round = 0; round < 5; round++) {
    const answer = await chat();
    messages.push({
      role: 'assistant',
      content: answer.content,
      ...(answer.tool_calls ? { tool_calls: answer.tool_calls } : {}),
    });
    if (!answer.tool_calls) break;
    for (const call of answer.tool_calls)
      messages.push({ role: 'tool', tool_call_id: call.id, content: JSON.stringify({ converted: 1 }) });
  }
  console.log(`turn ${msg.turn}: ${messages.at(-1).content}`);
  console.log(JSON.stringify({ type: 'turn-done', turn: msg.turn }));
}
