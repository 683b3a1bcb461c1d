// AI SDK on @ai-sdk/openai's Responses model. --store: store true (the SDK sends item references);
// --defaults: no provider options at all, so store is the API's default (true); without either,
// store false, with the encrypted reasoning asked for, as the SDK's docs say for stateless use. OPENAI_BASE_URL and OPENAI_API_KEY are read by the provider itself.
// --break: store false: one character of each encrypted_content sent back is changed (dropping the
// item is no fault without store); store true: the reasoning parts are dropped by the middleware.
// --beta: @ai-sdk/openai 2.0.0-beta.16 (alias ai-sdk-openai-2.0.0-beta.16), whose response schema requires
// incomplete_details (nullable, not optional): an answer without it is "Invalid JSON response" to it.
const { createOpenAI } = await import(
  process.argv.includes('--beta') ? 'ai-sdk-openai-2.0.0-beta.16' : '@ai-sdk/openai'
);
import { BREAK } from './agent-task.mjs';
import { editingFetch, runAiSdkAgent } from './ai-sdk-loop.mjs';

const defaults = process.argv.includes('--defaults');
const store = process.argv.includes('--store') || defaults;
const flipOne = (text) => `${text.slice(0, 8)}${text[8] === 'A' ? 'B' : 'A'}${text.slice(9)}`;
const tamper = (body) => ({
  ...body,
  input: body.input.map((item) =>
    item.type === 'reasoning' && typeof item.encrypted_content === 'string'
      ? { ...item, encrypted_content: flipOne(item.encrypted_content) }
      : item,
  ),
});
const tampering = BREAK && !store;
// The beta reads no OPENAI_BASE_URL of its own: it is given the variable run sets.
const beta = process.argv.includes('--beta') ? { baseURL: process.env.OPENAI_BASE_URL } : {};
const openai = createOpenAI({ ...beta, ...(tampering ? { fetch: editingFetch(tamper) } : {}) });
await runAiSdkAgent(openai.responses('gpt-5'), {
  breaks: tampering ? 'fetch' : 'middleware',
  ...(defaults
    ? {}
    : {
        providerOptions: {
          openai: store ? { store: true } : { store: false, include: ['reasoning.encrypted_content'] },
        },
      }),
});
