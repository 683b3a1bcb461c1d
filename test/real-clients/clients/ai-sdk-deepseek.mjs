// AI SDK on @ai-sdk/deepseek: reasoning_content travels back on the tool-call turn.
// --break: the provider writes reasoning_content itself (empty when it has none), so the edit is
// made on the body it sends: reasoning_content is taken off the assistant messages.
import { createDeepSeek } from '@ai-sdk/deepseek';
import { BREAK, baseUrlOf, keyOf } from './agent-task.mjs';
import { editingFetch, runAiSdkAgent } from './ai-sdk-loop.mjs';

const dropReasoning = (body) => ({
  ...body,
  messages: body.messages.map(({ reasoning_content: _dropped, ...m }) => m),
});
const deepseek = createDeepSeek({
  baseURL: baseUrlOf('deepseek'),
  apiKey: keyOf('deepseek'),
  ...(BREAK ? { fetch: editingFetch(dropReasoning) } : {}),
});
await runAiSdkAgent(deepseek('deepseek-v4-flash'), { breaks: BREAK ? 'fetch' : 'middleware' });
