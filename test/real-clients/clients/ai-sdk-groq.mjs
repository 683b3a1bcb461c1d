// AI SDK 5 on @ai-sdk/groq against Groq's moonshotai/kimi-k2-instruct, a model that does not reason: its answers
// carry no reasoning, and the provider sends back none. --break: a fetch wrapper gives every assistant turn the
// reasoning member @ai-sdk/groq sends for reasoning models (vercel/ai#8057), which Groq refuses for this one
// ("reasoning is not supported with this model", vercel/ai#8056).
import { createGroq } from '@ai-sdk/groq';
import { BREAK, baseUrlOf, keyOf } from './agent-task.mjs';
import { editingFetch, runAiSdkAgent } from './ai-sdk-loop.mjs';

const withReasoning = (body) => ({
  ...body,
  messages: body.messages.map((m) => (m.role === 'assistant' ? { ...m, reasoning: 'I should call the tool.' } : m)),
});
const groq = createGroq({
  baseURL: baseUrlOf('groq'),
  apiKey: keyOf('groq'),
  ...(BREAK ? { fetch: editingFetch(withReasoning) } : {}),
});
await runAiSdkAgent(groq('moonshotai/kimi-k2-instruct'), { breaks: 'fetch' });
