// AI SDK on @ai-sdk/google with Gemini 3: thought signatures ride in the tool-call parts' metadata.
// The provider reads GOOGLE_GENERATIVE_AI_API_KEY; its base URL takes the API version.
import { createGoogleGenerativeAI } from '@ai-sdk/google';
import { baseUrlOf } from './agent-task.mjs';
import { runAiSdkAgent } from './ai-sdk-loop.mjs';

await runAiSdkAgent(createGoogleGenerativeAI({ baseURL: `${baseUrlOf('gemini')}/v1beta` })('gemini-3-pro-preview'), {
  providerOptions: { google: { thinkingConfig: { includeThoughts: true } } },
});
