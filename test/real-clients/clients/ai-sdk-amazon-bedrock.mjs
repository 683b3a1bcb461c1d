// AI SDK on @ai-sdk/amazon-bedrock (Converse) with Claude's reasoning on: text and signature go back.
import { createAmazonBedrock } from '@ai-sdk/amazon-bedrock';
import { baseUrlOf, keyOf } from './agent-task.mjs';
import { runAiSdkAgent } from './ai-sdk-loop.mjs';

const bedrock = createAmazonBedrock({
  baseURL: baseUrlOf('bedrock-claude'),
  region: 'us-east-1',
  accessKeyId: 'AKIDRRMOCK',
  secretAccessKey: keyOf('bedrock-claude'),
});
await runAiSdkAgent(bedrock('us.anthropic.claude-sonnet-4-5-20250929-v1:0'), {
  providerOptions: { bedrock: { reasoningConfig: { type: 'enabled', budgetTokens: 1024 } } },
});
