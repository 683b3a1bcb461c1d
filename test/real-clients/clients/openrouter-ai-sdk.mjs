// AI SDK on @openrouter/ai-sdk-provider: reasoning_details travel back as the gateway issued them.
// --model claude | gemini picks the upstream.
import { createOpenRouter } from '@openrouter/ai-sdk-provider';
import { baseUrlOf, keyOf } from './agent-task.mjs';
import { runAiSdkAgent } from './ai-sdk-loop.mjs';

const models = { claude: 'anthropic/claude-sonnet-4.5', gemini: 'google/gemini-3-pro-preview' };
const which = process.argv[process.argv.indexOf('--model') + 1];
const id = models[which];
if (!id) throw new Error(`--model ${which}: expected one of ${Object.keys(models).join(', ')}`);
const openrouter = createOpenRouter({ baseURL: baseUrlOf('openrouter'), apiKey: keyOf('openrouter') });
await runAiSdkAgent(openrouter(id, { reasoning: { enabled: true } }));
