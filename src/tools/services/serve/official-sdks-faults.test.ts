import Anthropic from '@anthropic-ai/sdk';
import { BedrockRuntimeClient, ConverseStreamCommand, type Message } from '@aws-sdk/client-bedrock-runtime';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startProviderMocks, type ProviderMocks } from '../provider-mocks/provider-mocks.js';

/**
 * The official SDKs meet the cut streams as they would meet a dropped connection: the Anthropic SDK over SSE
 * (HTTP/1.1) and the AWS SDK over Bedrock's binary event stream (HTTP/2) both raise mid-stream, after a signature
 * delta that holds only part of the signature. A ConverseStream that ends cleanly is no error to the AWS SDK: its
 * iterator just finishes. Fails when the mock does not cut where (or end how) the fault says.
 */
let mocks: ProviderMocks;
beforeAll(async () => {
  mocks = await startProviderMocks({
    providers: ['anthropic', 'bedrock-claude'],
    faults: ['messages-cut-mid-signature', 'converse-cut-mid-signature'],
    seed: 5,
  });
});
afterAll(() => mocks.close());

describe('official SDKs under a stream cut in the middle of a signature', () => {
  it('@anthropic-ai/sdk: the stream raises after a partial signature_delta', async () => {
    const client = new Anthropic({ baseURL: mocks.baseUrls.anthropic, apiKey: 'sk-ant-mock', maxRetries: 0 });
    const stream = client.messages.stream({
      model: 'claude-sonnet-4-5',
      max_tokens: 2048,
      thinking: { type: 'enabled', budget_tokens: 1024 },
      tools: [{ name: 'lookup_order', input_schema: { type: 'object', properties: {} } }],
      messages: [{ role: 'user', content: 'Where is ORD-1?' }],
    });
    let signature = '';
    stream.on('signature', (s) => (signature = s));
    await expect(stream.finalMessage()).rejects.toThrow();
    const where = mocks.verdicts.find((e) => e.fault?.name === 'messages-cut-mid-signature')!.fault!.where!;
    const [, part, whole] = /cut after (\d+) of the signature’s (\d+) characters/.exec(where)!;
    expect(signature.length).toBe(Number(part));
    expect(Number(part)).toBeLessThan(Number(whole));
  });

  it('@aws-sdk/client-bedrock-runtime: ConverseStream raises after a partial reasoning signature', async () => {
    const client = new BedrockRuntimeClient({
      region: 'us-east-1',
      endpoint: mocks.baseUrls['bedrock-claude'],
      credentials: { accessKeyId: 'AKIDRRMOCK', secretAccessKey: 'mock-secret' },
      maxAttempts: 1,
    });
    const messages: Message[] = [{ role: 'user', content: [{ text: 'Where is ORD-1?' }] }];
    const streamed = await client.send(
      new ConverseStreamCommand({
        modelId: 'us.anthropic.claude-sonnet-4-5-20250929-v1:0',
        messages,
        toolConfig: { tools: [{ toolSpec: { name: 'lookup_order', inputSchema: { json: { type: 'object' } } } }] },
        additionalModelRequestFields: { thinking: { type: 'enabled', budget_tokens: 1024 } },
      }),
    );
    let signature = '';
    let stopped = false;
    const read = async () => {
      for await (const event of streamed.stream!) {
        signature += event.contentBlockDelta?.delta?.reasoningContent?.signature ?? '';
        if (event.contentBlockStop || event.messageStop) stopped = true;
      }
    };
    await expect(read()).rejects.toThrow();
    expect(stopped).toBe(false);
    const where = mocks.verdicts.find((e) => e.fault?.name === 'converse-cut-mid-signature')!.fault!.where!;
    expect(signature.length).toBe(Number(/cut after (\d+) of/.exec(where)![1]));
  });
});

describe('the AWS SDK under a ConverseStream that ends cleanly before its signature', () => {
  let clean: ProviderMocks;
  beforeAll(async () => {
    clean = await startProviderMocks({
      providers: ['bedrock-claude'],
      faults: 'converse-stream-ends-before-signature',
      seed: 5,
    });
  });
  afterAll(() => clean.close());

  it('the event stream ends without raising: reasoning text, then nothing, no signature, block stop or messageStop', async () => {
    const client = new BedrockRuntimeClient({
      region: 'us-east-1',
      endpoint: clean.baseUrls['bedrock-claude'],
      credentials: { accessKeyId: 'AKIDRRMOCK', secretAccessKey: 'mock-secret' },
      maxAttempts: 1,
    });
    const streamed = await client.send(
      new ConverseStreamCommand({
        modelId: 'us.anthropic.claude-sonnet-4-5-20250929-v1:0',
        messages: [{ role: 'user', content: [{ text: 'Where is ORD-1?' }] }],
        toolConfig: { tools: [{ toolSpec: { name: 'lookup_order', inputSchema: { json: { type: 'object' } } } }] },
        additionalModelRequestFields: { thinking: { type: 'enabled', budget_tokens: 1024 } },
      }),
    );
    let reasoning = '';
    let signature = '';
    let stopped = false;
    // A clean end: the SDK's iterator just finishes, as it would after a proxy closed its side in good order.
    for await (const event of streamed.stream!) {
      reasoning += event.contentBlockDelta?.delta?.reasoningContent?.text ?? '';
      signature += event.contentBlockDelta?.delta?.reasoningContent?.signature ?? '';
      if (event.contentBlockStop || event.messageStop || event.metadata) stopped = true;
    }
    expect(reasoning).not.toBe('');
    expect(signature).toBe('');
    expect(stopped).toBe(false);
    const entry = clean.verdicts.find((e) => e.fault?.name === 'converse-stream-ends-before-signature')!;
    expect(entry.fault!.where).toMatch(
      /cut after \d+ of \d+ reasoning text pieces, before the signature; the body then ended cleanly/,
    );
  });
});
