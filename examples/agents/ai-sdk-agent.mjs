#!/usr/bin/env node
// An agent on the Vercel AI SDK (ai 5), wired only through the environment `reasoning-replay run`
// sets: @ai-sdk/anthropic reads ANTHROPIC_BASE_URL and ANTHROPIC_API_KEY by itself. It keeps one
// conversation over every user turn in REASONING_REPLAY_TURNS (two, each with a tool round), so the
// second turn sends the first turn's reasoning back.
//
//   node ai-sdk-agent.mjs                Claude with extended thinking: signed thinking blocks go back
//                                        verbatim on the tool turn -> conforms (run exits 0)
//   node ai-sdk-agent.mjs --ai-sdk-deepseek
//                                        DeepSeek V4 through @ai-sdk/deepseek, which reads no base-URL
//                                        variable (so the base URL is passed in code); it sends
//                                        reasoning_content back -> conforms (run exits 0)
//   node ai-sdk-agent.mjs --deepseek     DeepSeek through @ai-sdk/openai's chat model: the provider does
//                                        not send reasoning_content back on the tool-call turn, which
//                                        DeepSeek requires -> must-echo (run exits 1)
import { createAnthropic } from '@ai-sdk/anthropic';
import { createDeepSeek } from '@ai-sdk/deepseek';
import { createOpenAI } from '@ai-sdk/openai';
import { generateText, stepCountIs, tool } from 'ai';
import { z } from 'zod';

const deepseek = process.argv.includes('--deepseek');
const aiSdkDeepseek = process.argv.includes('--ai-sdk-deepseek');
const model = deepseek
  ? createOpenAI({
      baseURL: process.env.REASONING_REPLAY_DEEPSEEK_BASE_URL,
      apiKey: process.env.DEEPSEEK_API_KEY,
    }).chat('deepseek-v4-flash')
  : aiSdkDeepseek
    ? createDeepSeek({ baseURL: process.env.REASONING_REPLAY_DEEPSEEK_BASE_URL })('deepseek-v4-flash')
    : createAnthropic()('claude-sonnet-4-5');
const client = deepseek
  ? 'ai-sdk-agent (openai chat -> deepseek)'
  : aiSdkDeepseek
    ? 'ai-sdk-agent (@ai-sdk/deepseek)'
    : 'ai-sdk-agent (anthropic)';

const tools = {
  check_inventory: tool({
    description: 'Units of a product in stock at a warehouse',
    inputSchema: z.object({ sku: z.string().min(3), warehouse: z.enum(['north', 'south']) }),
    execute: async ({ sku, warehouse }) => ({ sku, warehouse, units: 12 }),
  }),
};

const turns = JSON.parse(
  process.env.REASONING_REPLAY_TURNS ??
    '["How many units of SKU-123 are in the north warehouse?", "And in the south warehouse?"]',
);
const messages = [];
for (const turn of turns) {
  messages.push({ role: 'user', content: turn });
  const result = await generateText({
    model,
    messages,
    tools,
    stopWhen: stepCountIs(4),
    headers: { 'x-reasoning-replay-client': client },
    providerOptions: { anthropic: { thinking: { type: 'enabled', budgetTokens: 1024 } } },
  });
  messages.push(...result.response.messages);
  console.log(`assistant: ${result.text}`);
}
