// AI SDK 6 (`ai-v6`) on @ai-sdk/open-responses, the provider for any Open Responses endpoint, pointed at the
// Responses mock's POST URL. It sends back what the previous answers held, as the Open Responses specification
// describes input items. --break: the middleware drops the reasoning parts and their item ids.
import * as ai from 'ai-v6';
import { createOpenResponses } from '@ai-sdk/open-responses';
import { baseUrlOf, keyOf } from './agent-task.mjs';
import { runAiSdkAgent } from './ai-sdk-loop.mjs';

const openResponses = createOpenResponses({
  name: 'openai',
  url: `${baseUrlOf('openai-responses')}/responses`,
  apiKey: keyOf('openai-responses'),
});
await runAiSdkAgent(openResponses('gpt-5'), { ai });
