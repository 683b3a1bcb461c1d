import { GROWN_CORPUS_DISAGREEMENTS } from './known-disagreements-grown.js';

/**
 * Cases whose real outcome the mocks do not reproduce yet, each posted on the team board for the
 * mock owners (issue 11). The replay test fails on any disagreement NOT listed here, and prints the
 * ones that are, so this list is the honest backlog of mock fidelity, not a way to silence it. A
 * listed case that starts agreeing is reported too, so the list shrinks as the mocks improve.
 * Each value is the difference measured when the case was listed.
 */
export const KNOWN_DISAGREEMENTS: ReadonlyMap<string, string> = new Map<string, string>([
  // Issue 40's dated cases live in their own list; known-disagreements-grown.ts says why each one disagrees.
  ...GROWN_CORPUS_DISAGREEMENTS,
  // Issue 23, the wide corpus: every case below was added from a public report or recording and disagreed with
  // the mocks of the day it was added. They are the rule owners' backlog (reasoning parameters, history structure,
  // status codes, model and endpoint refusals the mocks do not model yet); docs/decisions/0086 says why they are
  // listed rather than left to fail.
  [
    'anthropic-temperature-with-adaptive-thinking-claude-bridge',
    'real=400 "temperature may only be set to 1 when thinking is enabled or in adaptive mode", mock=accepted',
  ],
  ['anthropic-unknown-model-claude-4-sonnet-continue', 'real=404 "model: claude-4-sonnet", mock=accepted'],
  ['anthropic-unknown-model-dotted-version-continue', 'real=404 "model: claude-3.5-sonnet", mock=accepted'],
  ['anthropic-unknown-model-prefixed-id-gac', 'real=404 "model: anthropic:claude-3-5-haiku-latest", mock=accepted'],
  ['anthropic-unknown-model-shorthand-claude-code', 'real=404 "model: sonnet4", mock=accepted'],
  [
    'anthropic-user-turn-without-tool-result-langchainjs',
    'real=400 "Did not find 1 `tool_result` block(s) at the beginning of this message. Messages following `tool_use` blocks must begin with a matching number of `tool_result` blocks", mock=accepted',
  ],
  // Refused at launch (August 2025) and served since (langchain-aws#588, LiteLLM#15649): cases carry no date, so the
  // mock answers as Bedrock does today and this older refusal stays listed.
  [
    'bedrock-gpt-oss-streaming-unsupported-bedrock-client-mac',
    'real=400 "The model is unsupported for streaming.", mock=accepted',
  ],
  [
    'cerebras-gpt-oss-reasoning-content-unsupported-openagents',
    'real=400 "messages.2.assistant.reasoning_content: property \'messages.2.assistant.reasoning_content\' is unsupported", mock=400 "messages.1.assistant.reasoning_content: property \'messages.1.assistant.reasoning_content\' is unsupported invalid_request_error validation_error wrong_api_format"',
  ],
  [
    'cerebras-unsupported-json-schema-fields-ccr',
    "real=400 \"Unsupported JSON schema fields: {'minItems', 'items'}\", mock=accepted",
  ],
  [
    'deepseek-chat-max-tokens-above-range-openclaude',
    'real=400 "Invalid max_tokens value, the valid range of max_tokens is [1, 8192]", mock=accepted',
  ],
  [
    'deepseek-flash-v41-thinking-param-unsupported-linecodepro',
    'real=400 "is not supported on /v1/chat/completions and was not applied. Use", mock=accepted',
  ],
  [
    'deepseek-reasoner-max-tokens-above-range-aider',
    'real=400 "Invalid max_tokens value, the valid range of max_tokens is [1, 65536]", mock=accepted',
  ],
  [
    'fireworks-stream-options-extra-flowise',
    'real=400 "Extra inputs are not permitted, field: \'stream_options\'", mock=accepted',
  ],
  ['fireworks-user-field-extra-librechat', "real=400 \"'msg': 'extra fields not permitted'\", mock=accepted"],
  [
    'fireworks-vl-high-resolution-extra-midscene',
    'real=400 "Extra inputs are not permitted, field: \'vl_high_resolution_images\', value: True.", mock=400 "error invalid_request_error invalid_request_error Extra inputs are not permitted, field: \'vl_high_resolution_images\'"',
  ],
  [
    'gemini-empty-text-in-history-generative-ai-js',
    'real=400 "Unable to submit request because it has an empty text parameter. Add a value to the parameter and try again", mock=accepted',
  ],
  [
    'gemini-retired-model-15-flash-openclaw',
    'real=404 "models/gemini-1.5-flash is not found for API version v1beta, or is not supported for generateContent.", mock=accepted',
  ],
  [
    'groq-assistant-message-id-unsupported-chatbox',
    "real=400 \"property 'id' is unsupported, did you mean 'role'?\", mock=400 \"'messages.1' : for 'role:assistant' the following must be satisfied[('messages.1' : property 'id' is unsupported)] invalid_request_error\"",
  ],
  [
    'groq-store-unsupported-chatbot',
    "real=400 \"property 'store' is unsupported, did you mean 'stop'?\", mock=400 \"property 'store' is unsupported invalid_request_error\"",
  ],
  [
    'mistral-tool-call-id-null-open-mixtral-client-js',
    'real=400 "Tool call id was null but must be a-z, A-Z, 0-9, with a length of 9.", mock=accepted',
  ],
  [
    'mistral-tool-call-id-prefixed-opencode',
    'real=400 "Tool call id was call_PTLP8xhu3uwZk4l3nlnrrJha but must be a-z, A-Z, 0-9, with a length of 9.", mock=accepted',
  ],
  [
    'mistral-tool-call-id-short-ironclaw',
    'real=400 "Tool call id was turn1_0 but must be a-z, A-Z, 0-9, with a length of 9.", mock=accepted',
  ],
  [
    'ollama-local-think-supported-model-accepted-llm-ollama',
    'real=accepted, mock=no mock serves http://127.0.0.1:11434/api/chat',
  ],
  [
    'ollama-local-think-unsupported-gemma3n-llm-ollama',
    'real=400 "registry.ollama.ai/library/gemma3n:e4b-it-q8_0 does not support thinking", mock=no mock serves http://127.0.0.1:11434/api/chat',
  ],
  [
    'ollama-local-think-unsupported-glm-flash-gguf',
    'real=400 "does not support thinking", mock=no mock serves http://127.0.0.1:11434/api/chat',
  ],
  [
    'openai-chat-temperature-zero-o1-mini-openhands',
    'real=400 "Unsupported value: \'temperature\' does not support 0.0 with this model. Only the default (1) value is supported.", mock=accepted',
  ],
  [
    'vllm-auto-tool-choice-not-enabled-aix-db',
    'real=400 "tool choice requires --enable-auto-tool-choice", mock=accepted',
  ],
  ['zhipu-glm4-max-tokens-out-of-range-lobehub', 'real=400 "max_tokens参数非法。请检查文档。", mock=accepted'],
  ['ollama-local-null-content-tool-turn-cheetahclaws', 'real=400 "invalid message content type: <nil>", mock=accepted'],
  ['zhipu-glm4-tool-history-without-user-sdk', 'real=400 "messages 参数非法。请检查文档。", mock=accepted'],
]);
