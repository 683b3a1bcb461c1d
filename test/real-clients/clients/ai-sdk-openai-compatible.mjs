// AI SDK on @ai-sdk/openai-compatible against Kimi K2.6 (Moonshot), whose thinking models want
// reasoning_content back on tool-call turns.
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { baseUrlOf, keyOf } from './agent-task.mjs';
import { runAiSdkAgent } from './ai-sdk-loop.mjs';

const moonshot = createOpenAICompatible({
  name: 'moonshot',
  baseURL: baseUrlOf('moonshot'),
  apiKey: keyOf('moonshot'),
});
await runAiSdkAgent(moonshot('kimi-k2.6'));
