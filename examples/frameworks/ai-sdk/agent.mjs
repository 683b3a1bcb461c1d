// An order-desk agent on the Vercel AI SDK: generateText (--stream: streamText) with the SDK's own
// multi-step tool loop, the response messages kept as history across two user turns.
// --major 5|6 picks the SDK line (6 loads the ai-v6* aliases); --provider picks the provider package.
import {
  FAULT,
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

const major = process.argv.includes('--major') ? process.argv[process.argv.indexOf('--major') + 1] : '5';
/** The AI SDK package at this line: ai-v6 aliases for 6, the real names (or a --use alias) for 5. */
const load = (name) =>
  import(major === '6' ? pkg(name.replace(/^(@ai-sdk\/)?/, 'ai-v6-').replace('ai-v6-ai', 'ai-v6')) : pkg(name));

const compatible = {
  moonshot: 'kimi-k2.6',
  mimo: 'mimo-v2.5-pro',
  'zhipu-glm': 'glm-5.1',
  dashscope: 'qwen3.6-plus',
  fireworks: 'accounts/fireworks/models/kimi-k2p6',
};

async function modelFor(provider) {
  switch (provider) {
    case 'openai': {
      const { createOpenAI } = await load('@ai-sdk/openai');
      return { model: createOpenAI().chat('gpt-5') };
    }
    case 'openai-responses': {
      const { createOpenAI } = await load('@ai-sdk/openai');
      return {
        model: createOpenAI().responses('gpt-5'),
        providerOptions: { openai: { store: false, include: ['reasoning.encrypted_content'] } },
      };
    }
    case 'anthropic': {
      const { createAnthropic } = await load('@ai-sdk/anthropic');
      return {
        model: createAnthropic({ baseURL: `${process.env.ANTHROPIC_BASE_URL}/v1` })('claude-sonnet-4-5'),
        providerOptions: { anthropic: { thinking: { type: 'enabled', budgetTokens: 1024 } } },
      };
    }
    case 'gemini': {
      const { createGoogleGenerativeAI } = await load('@ai-sdk/google');
      return {
        model: createGoogleGenerativeAI({ baseURL: `${baseUrlOf()}/v1beta` })('gemini-3-pro-preview'),
        providerOptions: { google: { thinkingConfig: { includeThoughts: true } } },
      };
    }
    case 'deepseek': {
      const { createDeepSeek } = await load('@ai-sdk/deepseek');
      return { model: createDeepSeek({ baseURL: baseUrlOf(), apiKey: keyOf() })('deepseek-v4-flash') };
    }
    case 'bedrock-claude': {
      const { createAmazonBedrock } = await load('@ai-sdk/amazon-bedrock');
      const bedrock = createAmazonBedrock({
        baseURL: baseUrlOf(),
        region: 'us-east-1',
        accessKeyId: 'AKIDRRMOCK',
        secretAccessKey: keyOf(),
      });
      return {
        model: bedrock('us.anthropic.claude-sonnet-4-5-20250929-v1:0'),
        providerOptions: { bedrock: { reasoningConfig: { type: 'enabled', budgetTokens: 1024 } } },
      };
    }
    case 'openrouter': {
      const { createOpenRouter } = await import(pkg('@openrouter/ai-sdk-provider'));
      const openrouter = createOpenRouter({ baseURL: baseUrlOf(), apiKey: keyOf() });
      return { model: openrouter('google/gemini-3-pro-preview', { reasoning: { enabled: true } }) };
    }
    default: {
      if (!compatible[provider]) break;
      const { createOpenAICompatible } = await load('@ai-sdk/openai-compatible');
      const client = createOpenAICompatible({ name: provider, baseURL: baseUrlOf(), apiKey: keyOf() });
      return { model: client(compatible[provider]) };
    }
  }
  throw new Error(`--provider ${provider}: not one this agent covers`);
}

const { generateText, jsonSchema, stepCountIs, streamText, tool } = await load('ai');
const { model, providerOptions } = await modelFor(PROVIDER);
const tools = {
  [TOOL.name]: tool({ description: TOOL.description, inputSchema: jsonSchema(TOOL.schema), execute: lookupOrder }),
};
const messages = [];
for (const [turn, text] of TURNS.entries()) {
  messages.push({ role: 'user', content: text });
  // Under a fault, the SDK's default retries (the matrix otherwise turns them off: a refusal is final).
  const options = {
    model,
    system: SYSTEM,
    messages,
    tools,
    stopWhen: stepCountIs(4),
    providerOptions,
    ...(FAULT ? {} : { maxRetries: 0 }),
  };
  const { steps, answer, response } = await retryOnce(`turn ${turn}`, async () => {
    if (!STREAM) {
      const { steps, text, response } = await generateText(options);
      return { steps, answer: text, response };
    }
    let failure;
    const result = streamText({ ...options, onError: ({ error }) => (failure = error) });
    const answer = await result.text;
    const steps = await result.steps;
    const response = await result.response;
    if (failure) throw failure;
    return { steps, answer, response };
  });
  messages.push(...response.messages);
  expectToolRound(turn, steps.flatMap((s) => s.toolCalls).length, answer);
}
