// The agent loop every Vercel AI SDK client in the matrix runs: generateText (--stream: streamText)
// with the SDK's own multi-step tool loop, the response messages kept as the history, one user turn
// after another. --break wraps the model in a middleware that drops what carries the reasoning
// round trip (reasoning parts, and the provider metadata holding signatures and item ids) from the
// assistant messages before each request.
import * as aiV5 from 'ai';
import { BREAK, STREAM, TOOL, TURNS, expectToolRound, runTool } from './agent-task.mjs';

const forgetReasoning = {
  transformParams: async ({ params }) => ({
    ...params,
    prompt: params.prompt.map((message) =>
      message.role !== 'assistant'
        ? message
        : {
            ...message,
            providerOptions: undefined,
            content: message.content
              .filter((part) => part.type !== 'reasoning')
              .map(({ providerOptions: _dropped, ...part }) => part),
          },
    ),
  }),
};

/**
 * A fetch that edits each JSON request body before it leaves (--break for providers whose SDK
 * fills the reasoning field itself, so a middleware cannot take it out).
 */
export const editingFetch = (edit) => (url, init) =>
  fetch(url, typeof init?.body === 'string' ? { ...init, body: JSON.stringify(edit(JSON.parse(init.body))) } : init);

// `ai`: the AI SDK the provider is built for (AI SDK 5's `ai` by default; a v3 provider passes `ai-v6`).
export async function runAiSdkAgent(model, { providerOptions, breaks = 'middleware', ai = aiV5 } = {}) {
  const { generateText, jsonSchema, stepCountIs, streamText, tool, wrapLanguageModel } = ai;
  const tools = {
    [TOOL.name]: tool({
      description: TOOL.description,
      inputSchema: jsonSchema(TOOL.schema),
      execute: async (args) => runTool(TOOL.name, args),
    }),
  };
  const wrapped = BREAK && breaks === 'middleware' ? wrapLanguageModel({ model, middleware: forgetReasoning }) : model;
  const messages = [];
  for (const [turn, text] of TURNS.entries()) {
    messages.push({ role: 'user', content: text });
    const options = { model: wrapped, messages, tools, stopWhen: stepCountIs(4), providerOptions, maxRetries: 0 };
    let steps, answer, response;
    if (STREAM) {
      let failure;
      const result = streamText({ ...options, onError: ({ error }) => (failure = error) });
      answer = await result.text;
      steps = await result.steps;
      response = await result.response;
      if (failure) throw failure;
    } else {
      ({ steps, text: answer, response } = await generateText(options));
    }
    messages.push(...response.messages);
    expectToolRound(turn, steps.flatMap((s) => s.toolCalls).length, answer);
  }
}
