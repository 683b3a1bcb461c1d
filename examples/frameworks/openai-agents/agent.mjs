// An order-desk agent on the OpenAI Agents SDK: an Agent with one function tool, run() (--stream:
// run(..., {stream: true})) and result.history carried into the second user turn.
// --provider openai-responses: the SDK's own Responses model;
// anthropic / gemini / deepseek: an AI SDK model through @openai/agents-extensions' aisdk().
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

const agents = await import(pkg('@openai/agents'));
const { Agent, run, tool, setTracingDisabled } = agents;
// Traces go to OpenAI's tracing endpoint, not a provider: off, as in any deployment without OpenAI.
setTracingDisabled(true);

async function modelFor(provider) {
  switch (provider) {
    case 'openai-responses':
      // The SDK's OpenAI client reads OPENAI_BASE_URL and OPENAI_API_KEY.
      // store: false, so the encrypted reasoning is asked back (include) to be replayed.
      return {
        model: 'gpt-5',
        settings: {
          reasoning: { effort: 'low' },
          store: false,
          providerData: { include: ['reasoning.encrypted_content'] },
        },
      };
  }
  const { aisdk } = await import(pkg('@openai/agents-extensions'));
  switch (provider) {
    case 'anthropic': {
      const { createAnthropic } = await import(pkg('@ai-sdk/anthropic'));
      return {
        model: aisdk(createAnthropic({ baseURL: `${process.env.ANTHROPIC_BASE_URL}/v1` })('claude-sonnet-4-5')),
        settings: {
          providerData: { providerOptions: { anthropic: { thinking: { type: 'enabled', budgetTokens: 1024 } } } },
        },
      };
    }
    case 'gemini': {
      const { createGoogleGenerativeAI } = await import(pkg('@ai-sdk/google'));
      return {
        model: aisdk(createGoogleGenerativeAI({ baseURL: `${baseUrlOf()}/v1beta` })('gemini-3-pro-preview')),
        settings: { providerData: { providerOptions: { google: { thinkingConfig: { includeThoughts: true } } } } },
      };
    }
    case 'deepseek': {
      const { createDeepSeek } = await import(pkg('@ai-sdk/deepseek'));
      return {
        model: aisdk(createDeepSeek({ baseURL: baseUrlOf(), apiKey: keyOf() })('deepseek-v4-flash')),
        settings: {},
      };
    }
  }
  throw new Error(`--provider ${provider}: not one this agent covers`);
}

const { model, settings } = await modelFor(PROVIDER);
const lookup = tool({
  name: TOOL.name,
  description: TOOL.description,
  parameters: TOOL.schema,
  strict: true,
  execute: async (args) => JSON.stringify(lookupOrder(args)),
});
const agent = new Agent({ name: 'Order desk', instructions: SYSTEM, model, modelSettings: settings, tools: [lookup] });

let history = [];
for (const [turn, text] of TURNS.entries()) {
  const input = [...history, { role: 'user', content: text }];
  const result = await retryOnce(`turn ${turn}`, async () => {
    if (!STREAM) return run(agent, input, { maxTurns: 5 });
    const streamed = await run(agent, input, { stream: true, maxTurns: 5 });
    await streamed.completed;
    if (streamed.error) throw streamed.error;
    return streamed;
  });
  const calls = result.newItems.filter((item) => item.type === 'tool_call_item').length;
  history = result.history;
  expectToolRound(turn, calls, result.finalOutput);
}
