import Anthropic from '@anthropic-ai/sdk';
import {
  BedrockRuntimeClient,
  ConverseCommand,
  ConverseStreamCommand,
  type ContentBlock,
  type Message,
  type ToolConfiguration,
} from '@aws-sdk/client-bedrock-runtime';
import { createAnthropic } from '@ai-sdk/anthropic';
import { createGoogleGenerativeAI } from '@ai-sdk/google';
import { createOpenAI } from '@ai-sdk/openai';
import { GoogleGenAI, type Content } from '@google/genai';
import { generateText, stepCountIs, streamText, tool } from 'ai';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { loadMatrixInputs } from '../matrix/run-matrix.js';
import { startServe, type RunningServe } from './start-serve.js';
import type { ServeLogEntry } from './serve-log.js';

/**
 * The official SDKs against serve, wired the way docs/judge-your-agent.md says, each running a
 * tool loop with a tool of its own (`lookup_order`): the mocks must call that tool, the SDK must
 * parse every answer (sync and streamed), and the verdicts must be what the SDK really does.
 * The last case is a real client bug the mocks catch: the AI SDK's OpenAI chat provider drops
 * DeepSeek's reasoning_content on the tool turn, and DeepSeek (so the mock) answers 400.
 */
const loaded = loadMatrixInputs({});
const log: ServeLogEntry[] = [];
let serve: RunningServe;
beforeAll(async () => {
  serve = await startServe({
    port: 0,
    specs: loaded.specs,
    fixtures: loaded.fixtures,
    table: loaded.table,
    log: (e) => log.push(e),
  });
});
afterAll(() => serve.close());
const base = (id: string) => `${serve.url}/${id}`;
const KEY = 'rr-mock-key-not-a-secret';

/** The verdicts for requests whose client header is `name`, as `status rule,rule`. */
const verdictsOf = (name: string) =>
  log
    .filter((e) => e.client === name)
    .map((e) => `${e.status}${e.findings.length ? ` ${e.findings.map((f) => f.rule).join(',')}` : ''}`);
const headers = (name: string) => ({ 'x-reasoning-replay-client': name });

const ORDER_SCHEMA = {
  type: 'object',
  properties: { order_id: { type: 'string', pattern: '^ORD-[0-9]{4}$' } },
  required: ['order_id'],
  additionalProperties: false,
} as const;

describe('official SDKs against serve', () => {
  it('openai: chat.completions, sync and streamed, with reasoning_content kept by the app (DeepSeek)', async () => {
    const client = new OpenAI({
      baseURL: base('deepseek'),
      apiKey: KEY,
      defaultHeaders: headers('openai-chat-deepseek'),
    });
    const tools: OpenAI.ChatCompletionTool[] = [
      { type: 'function', function: { name: 'lookup_order', parameters: ORDER_SCHEMA } },
    ];
    for (const stream of [false, true]) {
      const messages: Array<Record<string, unknown>> = [{ role: 'user', content: 'Where is my order?' }];
      let message: Record<string, unknown> & {
        tool_calls?: Array<{ id: string; function: { name: string; arguments: string } }>;
      };
      if (stream) {
        // Read the raw chunks: the SDK's stream helper drops the non-standard reasoning_content.
        const chunks = await client.chat.completions.create({
          model: 'any-model',
          messages: messages as never,
          tools,
          stream: true,
        });
        let reasoning = '';
        const calls: Array<{ id: string; type: 'function'; function: { name: string; arguments: string } }> = [];
        for await (const chunk of chunks) {
          const delta = chunk.choices[0]?.delta as (typeof chunk.choices)[number]['delta'] & {
            reasoning_content?: string;
          };
          reasoning += delta?.reasoning_content ?? '';
          for (const tc of delta?.tool_calls ?? []) {
            calls[tc.index] ??= { id: '', type: 'function', function: { name: '', arguments: '' } };
            calls[tc.index]!.id += tc.id ?? '';
            calls[tc.index]!.function.name += tc.function?.name ?? '';
            calls[tc.index]!.function.arguments += tc.function?.arguments ?? '';
          }
        }
        message = { role: 'assistant', content: null, reasoning_content: reasoning, tool_calls: calls };
      } else {
        const answer = await client.chat.completions.create({ model: 'any-model', messages: messages as never, tools });
        message = answer.choices[0]!.message as never;
      }
      expect(message.tool_calls![0]!.function.name).toBe('lookup_order');
      expect(JSON.parse(message.tool_calls![0]!.function.arguments).order_id).toMatch(/^ORD-\d{4}$/);
      messages.push(message, {
        role: 'tool',
        tool_call_id: message.tool_calls![0]!.id,
        content: '{"status":"shipped"}',
      });
      const final = await client.chat.completions.create({ model: 'any-model', messages: messages as never, tools });
      expect(final.choices[0]!.message.content).toBeTruthy();
    }
    expect(verdictsOf('openai-chat-deepseek')).toEqual(['200', '200', '200', '200']);
  });

  it('openai: responses.create, stateless, reasoning items with encrypted_content passed back', async () => {
    const client = new OpenAI({ baseURL: base('openai'), apiKey: KEY, defaultHeaders: headers('openai-responses') });
    const tools: OpenAI.Responses.Tool[] = [
      { type: 'function', name: 'lookup_order', parameters: ORDER_SCHEMA, strict: false },
    ];
    const input: OpenAI.Responses.ResponseInput = [{ role: 'user', content: 'Where is my order?' }];
    const first = await client.responses.create({
      model: 'gpt-5',
      input,
      tools,
      store: false,
      include: ['reasoning.encrypted_content'],
    });
    const call = first.output.find((o) => o.type === 'function_call');
    expect(call?.type === 'function_call' && call.name).toBe('lookup_order');
    input.push(...(first.output as OpenAI.Responses.ResponseInputItem[]), {
      type: 'function_call_output',
      call_id: call!.type === 'function_call' ? call!.call_id : '',
      output: '{"status":"shipped"}',
    });
    const stream = client.responses.stream({
      model: 'gpt-5',
      input,
      tools,
      store: false,
      include: ['reasoning.encrypted_content'],
    });
    const final = await stream.finalResponse();
    const text = final.output
      .flatMap((o) => (o.type === 'message' ? o.content : []))
      .map((c) => (c.type === 'output_text' ? c.text : ''))
      .join('');
    expect(text).toBeTruthy();
    expect(verdictsOf('openai-responses')).toEqual(['200', '200']);
  });

  it('@anthropic-ai/sdk: messages with thinking, signed blocks passed back, sync and streamed', async () => {
    const client = new Anthropic({ baseURL: base('anthropic'), apiKey: KEY, defaultHeaders: headers('anthropic-sdk') });
    const tools: Anthropic.Tool[] = [
      { name: 'lookup_order', input_schema: ORDER_SCHEMA as unknown as Anthropic.Tool.InputSchema },
    ];
    const messages: Anthropic.MessageParam[] = [{ role: 'user', content: 'Where is my order?' }];
    const first = await client.messages.create({
      model: 'claude-whatever',
      max_tokens: 2048,
      thinking: { type: 'enabled', budget_tokens: 1024 },
      messages,
      tools,
    });
    const use = first.content.find((b) => b.type === 'tool_use');
    expect(use?.type === 'tool_use' && use.name).toBe('lookup_order');
    messages.push(
      { role: 'assistant', content: first.content },
      {
        role: 'user',
        content: [{ type: 'tool_result', tool_use_id: use!.type === 'tool_use' ? use!.id : '', content: 'shipped' }],
      },
    );
    const final = await client.messages
      .stream({
        model: 'claude-whatever',
        max_tokens: 2048,
        thinking: { type: 'enabled', budget_tokens: 1024 },
        messages,
        tools,
      })
      .finalMessage();
    expect(final.content.some((b) => b.type === 'text')).toBe(true);
    expect(verdictsOf('anthropic-sdk')).toEqual(['200', '200']);
  });

  it('@google/genai: generateContent and generateContentStream, thought signatures passed back', async () => {
    const ai = new GoogleGenAI({
      apiKey: KEY,
      httpOptions: { baseUrl: base('gemini'), headers: headers('google-genai') },
    });
    const config = {
      tools: [{ functionDeclarations: [{ name: 'lookup_order', parametersJsonSchema: ORDER_SCHEMA }] }],
    };
    const contents: Content[] = [{ role: 'user', parts: [{ text: 'Where is my order?' }] }];
    const first = await ai.models.generateContent({ model: 'gemini-2.5-flash', contents, config });
    expect(first.functionCalls?.[0]?.name).toBe('lookup_order');
    contents.push(first.candidates![0]!.content!, {
      role: 'user',
      parts: [{ functionResponse: { name: 'lookup_order', response: { status: 'shipped' } } }],
    });
    let text = '';
    for await (const chunk of await ai.models.generateContentStream({ model: 'gemini-2.5-flash', contents, config }))
      text += chunk.text ?? '';
    expect(text).toBeTruthy();
    expect(verdictsOf('google-genai')).toEqual(['200', '200']);
  });

  it('@aws-sdk/client-bedrock-runtime with its defaults (HTTP/2, binary event stream): Converse, then ConverseStream', async () => {
    const client = new BedrockRuntimeClient({
      region: 'us-east-1',
      endpoint: base('bedrock-claude'),
      credentials: { accessKeyId: 'AKIDRRMOCK', secretAccessKey: KEY },
      maxAttempts: 1,
    });
    client.middlewareStack.add(
      (next) => (args) => {
        (args.request as { headers: Record<string, string> }).headers['x-reasoning-replay-client'] = 'aws-sdk-bedrock';
        return next(args);
      },
      { step: 'build' },
    );
    const modelId = 'us.anthropic.claude-sonnet-4-5-20250929-v1:0';
    const toolConfig: ToolConfiguration = {
      tools: [{ toolSpec: { name: 'lookup_order', inputSchema: { json: structuredClone(ORDER_SCHEMA) as never } } }],
    };
    const additionalModelRequestFields = { thinking: { type: 'enabled', budget_tokens: 1024 } };
    const messages: Message[] = [{ role: 'user', content: [{ text: 'Where is my order?' }] }];
    const first = await client.send(
      new ConverseCommand({ modelId, messages, toolConfig, additionalModelRequestFields }),
    );
    const content = first.output!.message!.content!;
    const use = content.find((b) => b.toolUse)!.toolUse!;
    expect(use.name).toBe('lookup_order');
    expect(content.find((b) => b.reasoningContent)?.reasoningContent?.reasoningText?.signature).toBeTruthy();
    messages.push(
      { role: 'assistant', content },
      { role: 'user', content: [{ toolResult: { toolUseId: use.toolUseId, content: [{ text: 'shipped' }] } }] },
    );
    const streamed = await client.send(
      new ConverseStreamCommand({ modelId, messages, toolConfig, additionalModelRequestFields }),
    );
    const blocks: ContentBlock[] = [];
    let stop: string | undefined;
    for await (const event of streamed.stream!) {
      const text = event.contentBlockDelta?.delta?.text;
      if (text !== undefined) blocks.push({ text });
      stop = event.messageStop?.stopReason ?? stop;
    }
    expect(blocks.map((b) => b.text).join('')).toBeTruthy();
    expect(stop).toBe('end_turn');
    expect(verdictsOf('aws-sdk-bedrock')).toEqual(['200', '200']);
  });

  const lookupOrder = tool({
    description: 'Find an order',
    inputSchema: z.object({ order_id: z.string().regex(/^ORD-[0-9]{4}$/) }),
    execute: async () => ({ status: 'shipped' }),
  });

  it('AI SDK: generateText / streamText tool loops on @ai-sdk/anthropic and @ai-sdk/openai (Responses)', async () => {
    const models = {
      'ai-sdk-anthropic': createAnthropic({
        baseURL: `${base('anthropic')}/v1`,
        apiKey: KEY,
        headers: headers('ai-sdk-anthropic'),
      })('claude-sonnet-4-5'),
      'ai-sdk-openai': createOpenAI({ baseURL: base('openai'), apiKey: KEY, headers: headers('ai-sdk-openai') })(
        'gpt-5',
      ),
    };
    for (const [name, model] of Object.entries(models)) {
      const sync = await generateText({
        model,
        prompt: 'Where is my order?',
        tools: { lookup_order: lookupOrder },
        stopWhen: stepCountIs(3),
      });
      expect(sync.steps[0]!.toolCalls[0]!.toolName, name).toBe('lookup_order');
      expect(sync.text, name).toBeTruthy();
      const streamed = streamText({
        model,
        prompt: 'Where is my order?',
        tools: { lookup_order: lookupOrder },
        stopWhen: stepCountIs(3),
      });
      expect(await streamed.text, name).toBeTruthy();
      expect(verdictsOf(name), name).toEqual(['200', '200', '200', '200']);
    }
  });

  it('AI SDK: @ai-sdk/google sends an id in functionResponse, a contested rule (gemini-cli#13972 vs the API reference): accepted with a warning, refused under --strict', async () => {
    const model = createGoogleGenerativeAI({ baseURL: base('gemini'), apiKey: KEY, headers: headers('ai-sdk-google') })(
      'gemini-3-pro-preview',
    );
    const sync = await generateText({
      model,
      prompt: 'Where is my order?',
      tools: { lookup_order: lookupOrder },
      stopWhen: stepCountIs(3),
    });
    expect(sync.text).toBeTruthy();
    const calls = log.filter((e) => e.client === 'ai-sdk-google');
    expect(calls[0]!.tool).toBe('lookup_order');
    expect(calls.map((e) => e.status)).toEqual([200, 200]);
    expect(calls[1]!.findings).toMatchObject([{ rejection: 'function-response-id', contested: true, lenient: true }]);
    const strict = await startServe({
      port: 0,
      specs: loaded.specs,
      fixtures: loaded.fixtures,
      table: loaded.table,
      strict: true,
      log: (e) => log.push(e),
    });
    try {
      const refused = await generateText({
        model: createGoogleGenerativeAI({
          baseURL: `${strict.url}/gemini`,
          apiKey: KEY,
          headers: headers('ai-sdk-google-strict'),
        })('gemini-3-pro-preview'),
        prompt: 'Where is my order?',
        tools: { lookup_order: lookupOrder },
        stopWhen: stepCountIs(3),
      }).catch((err: unknown) => err);
      expect(String((refused as Error).message)).toMatch(
        /Unknown name "id" at 'contents\[2\]\.parts\[0\]\.function_response'/,
      );
    } finally {
      await strict.close();
    }
  });

  it('AI SDK: @ai-sdk/openai chat against DeepSeek drops reasoning_content on the tool turn, and is caught', async () => {
    const model = createOpenAI({
      baseURL: base('deepseek'),
      apiKey: KEY,
      headers: headers('ai-sdk-openai-chat-deepseek'),
    }).chat('deepseek-v4-flash');
    await generateText({
      model,
      prompt: 'Where is my order?',
      tools: { lookup_order: lookupOrder },
      stopWhen: stepCountIs(3),
    }).catch((err: unknown) => err);
    expect(verdictsOf('ai-sdk-openai-chat-deepseek')).toEqual(['200', '400 must-echo']);
  });
});
