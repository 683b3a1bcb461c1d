// An order-desk agent on Mastra: an Agent with one createTool() tool over an AI SDK provider model,
// agent.generate() (--stream: agent.stream()) with maxSteps, the conversation kept by the caller
// (response messages appended to the list passed back on the next user turn).
import {
  PROVIDER,
  STREAM,
  SYSTEM,
  TOOL,
  TURNS,
  baseUrlOf,
  expectToolRound,
  keyOf,
  lookupOrder,
  pkg,
  retryOnce,
} from '../task.mjs';

const { Agent } = await import(pkg('@mastra/core/agent'));
const { createTool } = await import(pkg('@mastra/core/tools'));
const { z } = await import('zod');

async function modelFor(provider) {
  switch (provider) {
    case 'anthropic': {
      const { createAnthropic } = await import(pkg('@ai-sdk/anthropic'));
      return {
        model: createAnthropic({ baseURL: `${process.env.ANTHROPIC_BASE_URL}/v1` })('claude-sonnet-4-5'),
        providerOptions: { anthropic: { thinking: { type: 'enabled', budgetTokens: 1024 } } },
      };
    }
    case 'gemini': {
      const { createGoogleGenerativeAI } = await import(pkg('@ai-sdk/google'));
      return {
        model: createGoogleGenerativeAI({ baseURL: `${baseUrlOf()}/v1beta` })('gemini-3-pro-preview'),
        providerOptions: { google: { thinkingConfig: { includeThoughts: true } } },
      };
    }
    case 'openai-responses': {
      const { createOpenAI } = await import(pkg('@ai-sdk/openai'));
      return {
        model: createOpenAI().responses('gpt-5'),
        providerOptions: { openai: { store: false, include: ['reasoning.encrypted_content'] } },
      };
    }
    case 'deepseek': {
      const { createDeepSeek } = await import(pkg('@ai-sdk/deepseek'));
      return { model: createDeepSeek({ baseURL: baseUrlOf(), apiKey: keyOf() })('deepseek-v4-flash') };
    }
  }
  throw new Error(`--provider ${provider}: not one this agent covers`);
}

const { model, providerOptions } = await modelFor(PROVIDER);
const lookup = createTool({
  id: TOOL.name,
  description: TOOL.description,
  inputSchema: z.object({ order_id: z.string().regex(/^ORD-[0-9]{4}$/) }),
  execute: async ({ context }) => lookupOrder(context),
});
const agent = new Agent({ name: 'order-desk', instructions: SYSTEM, model, tools: { [TOOL.name]: lookup } });

const messages = [];
for (const [turn, text] of TURNS.entries()) {
  messages.push({ role: 'user', content: text });
  const options = { maxSteps: 4, providerOptions };
  const result = await retryOnce(`turn ${turn}`, async () => {
    if (!STREAM) return agent.generate(messages, options);
    const stream = await agent.stream(messages, options);
    await stream.consumeStream();
    return { text: await stream.text, steps: await stream.steps, response: await stream.response };
  });
  messages.push(...result.response.messages);
  expectToolRound(turn, result.steps.flatMap((s) => s.toolCalls ?? []).length, result.text);
}
