// AI SDK on @ai-sdk/google with Gemini 3: thought signatures ride in the tool-call parts' metadata.
// The provider reads GOOGLE_GENERATIVE_AI_API_KEY; its base URL takes the API version.
// --break changes one character of each thought signature sent back. Dropping the signature is no
// break here: this SDK then sends the documented stand-in "skip_thought_signature_validator"
// (https://ai.google.dev/gemini-api/docs/thought-signatures), which Gemini accepts.
import { createGoogleGenerativeAI } from '@ai-sdk/google';
import { BREAK, baseUrlOf } from './agent-task.mjs';
import { editingFetch, runAiSdkAgent } from './ai-sdk-loop.mjs';

const flipOne = (text) => `${text.slice(0, 8)}${text[8] === 'A' ? 'B' : 'A'}${text.slice(9)}`;
const tamper = (body) => ({
  ...body,
  contents: body.contents?.map((content) => ({
    ...content,
    parts: content.parts?.map((part) =>
      typeof part.thoughtSignature === 'string' && part.thoughtSignature !== 'skip_thought_signature_validator'
        ? { ...part, thoughtSignature: flipOne(part.thoughtSignature) }
        : part,
    ),
  })),
});
const google = createGoogleGenerativeAI({
  baseURL: `${baseUrlOf('gemini')}/v1beta`,
  ...(BREAK ? { fetch: editingFetch(tamper) } : {}),
});
await runAiSdkAgent(google('gemini-3-pro-preview'), {
  breaks: BREAK ? 'fetch' : 'middleware',
  providerOptions: { google: { thinkingConfig: { includeThoughts: true } } },
});
