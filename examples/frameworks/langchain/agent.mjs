// An order-desk agent on LangChain.js: a chat model with the tool bound (bindTools), the tool loop
// run by hand as LangChain's docs show, the AIMessages kept as history across two user turns.
// --stream streams each model call and concatenates the chunks (AIMessageChunk.concat).
import { HumanMessage, SystemMessage, ToolMessage } from '@langchain/core/messages';
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

async function modelFor(provider) {
  switch (provider) {
    case 'openai': {
      const { ChatOpenAI } = await import(pkg('@langchain/openai'));
      return new ChatOpenAI({ model: 'gpt-5', configuration: { baseURL: process.env.OPENAI_BASE_URL } });
    }
    case 'openai-responses': {
      const { ChatOpenAI } = await import(pkg('@langchain/openai'));
      // zdrEnabled: store false; LangChain then replays a reasoning item only with its encrypted
      // content, which OpenAI returns only when asked (include).
      return new ChatOpenAI({
        model: 'gpt-5',
        useResponsesApi: true,
        zdrEnabled: true,
        modelKwargs: { include: ['reasoning.encrypted_content'] },
        reasoning: { effort: 'low' },
        configuration: { baseURL: process.env.OPENAI_BASE_URL },
      });
    }
    case 'anthropic': {
      const { ChatAnthropic } = await import(pkg('@langchain/anthropic'));
      return new ChatAnthropic({
        model: 'claude-sonnet-4-5',
        anthropicApiUrl: process.env.ANTHROPIC_BASE_URL,
        maxTokens: 4096,
        thinking: { type: 'enabled', budget_tokens: 1024 },
      });
    }
    case 'gemini': {
      const { ChatGoogleGenerativeAI } = await import(pkg('@langchain/google-genai'));
      return new ChatGoogleGenerativeAI({ model: 'gemini-3-pro-preview', baseUrl: baseUrlOf(), apiKey: keyOf() });
    }
    case 'deepseek': {
      const { ChatDeepSeek } = await import(pkg('@langchain/deepseek'));
      return new ChatDeepSeek({ model: 'deepseek-v4-flash', apiKey: keyOf(), configuration: { baseURL: baseUrlOf() } });
    }
    case 'bedrock-claude': {
      const { ChatBedrockConverse } = await import(pkg('@langchain/aws'));
      // The AWS SDK under it reads AWS_ENDPOINT_URL_BEDROCK_RUNTIME, which `run` points at this mock.
      return new ChatBedrockConverse({
        model: 'us.anthropic.claude-sonnet-4-5-20250929-v1:0',
        region: 'us-east-1',
        credentials: { accessKeyId: 'AKIDRRMOCK', secretAccessKey: keyOf() },
        additionalModelRequestFields: { thinking: { type: 'enabled', budget_tokens: 1024 } },
      });
    }
  }
  throw new Error(`--provider ${provider}: not one this agent covers`);
}

const tool = {
  type: 'function',
  function: { name: TOOL.name, description: TOOL.description, parameters: TOOL.schema },
};
const model = (await modelFor(PROVIDER)).bindTools([tool]);

async function call(messages) {
  if (!STREAM) return model.invoke(messages);
  let whole;
  for await (const chunk of await model.stream(messages)) whole = whole ? whole.concat(chunk) : chunk;
  return whole;
}

const history = [new SystemMessage(SYSTEM)];
for (const [turn, text] of TURNS.entries()) {
  history.push(new HumanMessage(text));
  let calls = 0;
  for (let step = 0; step < 4; step++) {
    const answer = await retryOnce(`turn ${turn} step ${step}`, () => call(history));
    history.push(answer);
    if (!answer.tool_calls?.length) {
      expectToolRound(turn, calls, answer.text ?? answer.content);
      break;
    }
    for (const c of answer.tool_calls) {
      calls++;
      history.push(new ToolMessage({ tool_call_id: c.id, content: JSON.stringify(lookupOrder(c.args)) }));
    }
  }
}
