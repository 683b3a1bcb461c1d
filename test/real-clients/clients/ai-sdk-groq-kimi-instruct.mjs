// AI SDK on @ai-sdk/openai-compatible against Groq's moonshotai/kimi-k2-instruct, a model that does not
// reason. @ai-sdk/groq is not among this project's dependencies; the compatible provider speaks the same chat
// completions but does not send reasoning back, so a fetch wrapper does what @ai-sdk/groq does (vercel/ai#8057):
// the reasoning an answer carried (message.reasoning, or delta.reasoning when streamed) goes back on that
// assistant turn as messages[].reasoning. A mock that answered this model with reasoning is refused on the
// next turn ("reasoning is not supported with this model", vercel/ai#8056); one that answers as the model
// does (no reasoning) is not.
// --break: every assistant turn carries reasoning, which Groq refuses for this model.
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { BREAK, baseUrlOf, keyOf } from './agent-task.mjs';
import { runAiSdkAgent } from './ai-sdk-loop.mjs';

/** The reasoning of each answer, in order: what @ai-sdk/groq keeps and sends back. */
const answered = [];
async function reasoningOf(response) {
  const text = await response.clone().text();
  if (!(response.headers.get('content-type') ?? '').includes('event-stream')) {
    return JSON.parse(text).choices?.[0]?.message?.reasoning;
  }
  let joined;
  for (const line of text.split('\n')) {
    if (!line.startsWith('data: ') || line === 'data: [DONE]') continue;
    const piece = JSON.parse(line.slice(6)).choices?.[0]?.delta?.reasoning;
    if (typeof piece === 'string') joined = (joined ?? '') + piece;
  }
  return joined;
}
const groqFetch = async (url, init) => {
  let body = init?.body;
  if (typeof body === 'string') {
    const parsed = JSON.parse(body);
    let turn = 0;
    parsed.messages = parsed.messages.map((m) => {
      if (m.role !== 'assistant') return m;
      const reasoning = BREAK ? 'I should call the tool.' : answered[turn];
      turn += 1;
      return typeof reasoning === 'string' ? { ...m, reasoning } : m;
    });
    body = JSON.stringify(parsed);
  }
  const response = await fetch(url, { ...init, body });
  if (response.ok) answered.push(await reasoningOf(response));
  return response;
};
const groq = createOpenAICompatible({
  name: 'groq',
  baseURL: baseUrlOf('groq'),
  apiKey: keyOf('groq'),
  fetch: groqFetch,
});
await runAiSdkAgent(groq('moonshotai/kimi-k2-instruct'), { breaks: 'fetch' });
