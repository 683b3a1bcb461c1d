// An order-desk agent on LlamaIndex.TS: a tool-calling LLM and llm.exec(), the loop LlamaIndex's own
// agents run (exec calls the model, runs the tools, returns the new messages), two user turns on one
// message list. --stream: exec({stream: true}), the stream drained before newMessages().
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

const { tool } = await import(pkg('@llamaindex/core/tools'));

async function llmFor(provider) {
  switch (provider) {
    case 'openai': {
      const { OpenAI } = await import(pkg('@llamaindex/openai'));
      return new OpenAI({ model: 'gpt-5', baseURL: process.env.OPENAI_BASE_URL });
    }
    case 'anthropic': {
      const { Anthropic } = await import(pkg('@llamaindex/anthropic'));
      return new Anthropic({
        model: 'claude-sonnet-4-5',
        baseURL: process.env.ANTHROPIC_BASE_URL,
        maxTokens: 4096,
        additionalChatOptions: { thinking: { type: 'enabled', budget_tokens: 1024 } },
      });
    }
    case 'gemini': {
      const { Gemini } = await import(pkg('@llamaindex/google'));
      // Its @google/genai client reads GOOGLE_GEMINI_BASE_URL; the key comes from GOOGLE_API_KEY.
      return new Gemini({ model: 'gemini-3-pro-preview' });
    }
    case 'deepseek': {
      const { OpenAI } = await import(pkg('@llamaindex/openai'));
      return new OpenAI({ model: 'deepseek-v4-flash', apiKey: keyOf(), baseURL: baseUrlOf() });
    }
  }
  throw new Error(`--provider ${provider}: not one this agent covers`);
}

const llm = await llmFor(PROVIDER);
const tools = [tool({ name: TOOL.name, description: TOOL.description, parameters: TOOL.schema, execute: lookupOrder })];
const messages = [{ role: 'system', content: SYSTEM }];
for (const [turn, text] of TURNS.entries()) {
  messages.push({ role: 'user', content: text });
  let calls = 0;
  let answer = '';
  for (let step = 0; step < 4; step++) {
    const result = await retryOnce(`turn ${turn} step ${step}`, async () => {
      if (!STREAM) {
        const done = await llm.exec({ messages, tools });
        return { toolCalls: done.toolCalls, newMessages: done.newMessages };
      }
      const streamed = await llm.exec({ messages, tools, stream: true });
      for await (const _chunk of streamed.stream ?? []);
      return { toolCalls: streamed.toolCalls, newMessages: streamed.newMessages() };
    });
    messages.push(...result.newMessages);
    calls += result.toolCalls.length;
    if (!result.toolCalls.length) {
      const last = messages.at(-1)?.content;
      answer = typeof last === 'string' ? last : (last ?? []).map((p) => p.text ?? '').join('');
      break;
    }
  }
  expectToolRound(turn, calls, answer);
}
