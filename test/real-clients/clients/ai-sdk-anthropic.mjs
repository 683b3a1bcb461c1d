// AI SDK on @ai-sdk/anthropic with extended thinking. The provider reads ANTHROPIC_API_KEY; its
// base URL takes the API version, as its docs show.
import { createAnthropic } from '@ai-sdk/anthropic';
import { runAiSdkAgent } from './ai-sdk-loop.mjs';

await runAiSdkAgent(createAnthropic({ baseURL: `${process.env.ANTHROPIC_BASE_URL}/v1` })('claude-sonnet-4-5'), {
  providerOptions: { anthropic: { thinking: { type: 'enabled', budgetTokens: 1024 } } },
});
