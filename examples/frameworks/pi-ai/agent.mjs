// An order-desk agent on pi-ai (the LLM layer of the pi coding agent, github.com/earendil-works/pi): its
// Context (system prompt, messages, tools) kept across two user turns and the tool loop run as pi's agent loop runs
// it, every assistant message stored as pi-ai returns it, whatever its stopReason. pi-ai always streams (the
// Messages API, or Bedrock's ConverseStream), so --stream changes nothing here.
//
// Under --fault the agent does what pi does after a turn that went wrong: an assistant message with
// stopReason "error" stays in the history (pi-ai leaves it out of later requests) and the turn is tried once more;
// a turn that ended with no tool call is the user's to follow up, so the next user turn goes on from the history kept
// (earendil-works/pi#3936: the user typed "continue"). Whatever pi-ai stored of the cut answer is what that next
// request replays.
import {
  FAULT,
  PROVIDER,
  SYSTEM,
  TOOL,
  TURNS,
  expectToolRound,
  keyOf,
  lookupOrder,
  needProvider,
  pkg,
} from '../task.mjs';

needProvider(['anthropic', 'bedrock-claude']);
const { getModel, stream } = await import(pkg('@mariozechner/pi-ai'));

/** The model from pi-ai's catalogue and its provider's options, thinking on with a 1024-token budget. */
function modelFor(provider) {
  if (provider === 'bedrock-claude') {
    // The AWS SDK under pi-ai reads AWS_ENDPOINT_URL_BEDROCK_RUNTIME, which `run` points at this mock; naming the
    // region keeps pi-ai from pinning the catalogue's AWS endpoint instead. Credentials come from the environment,
    // as a deployment's do.
    process.env.AWS_ACCESS_KEY_ID ??= 'AKIDRRMOCK';
    process.env.AWS_SECRET_ACCESS_KEY ??= keyOf(provider);
    return {
      model: getModel('amazon-bedrock', 'us.anthropic.claude-sonnet-4-5-20250929-v1:0'),
      options: { region: 'us-east-1', reasoning: 'minimal', thinkingBudgets: { minimal: 1024 } },
    };
  }
  return {
    model: { ...getModel('anthropic', 'claude-sonnet-4-5'), baseUrl: process.env.ANTHROPIC_BASE_URL },
    options: { apiKey: keyOf(provider), thinkingEnabled: true, thinkingBudgetTokens: 1024 },
  };
}

const { model, options: providerOptions } = modelFor(PROVIDER);
const context = {
  systemPrompt: SYSTEM,
  messages: [],
  tools: [{ name: TOOL.name, description: TOOL.description, parameters: TOOL.schema }],
};
const options = { ...providerOptions, maxTokens: 4096, ...(FAULT ? {} : { maxRetries: 0 }) };

/** One model call: the answer pi-ai assembles from the stream, stored in the history as pi's agent loop stores it. */
async function call(what) {
  const answer = await stream(model, context, options).result();
  context.messages.push(answer);
  if (answer.stopReason !== 'error' && answer.stopReason !== 'aborted') return answer;
  if (!FAULT) throw new Error(`${what}: ${answer.errorMessage ?? answer.stopReason}`);
  console.log(`${what}: ${answer.errorMessage ?? answer.stopReason}; trying once more`);
  const again = await stream(model, context, options).result();
  context.messages.push(again);
  if (again.stopReason === 'error' || again.stopReason === 'aborted')
    throw new Error(`${what}: ${again.errorMessage ?? again.stopReason}`);
  return again;
}

for (const [turn, text] of TURNS.entries()) {
  context.messages.push({ role: 'user', content: text, timestamp: Date.now() });
  let calls = 0;
  for (let step = 0; step < 4; step++) {
    const answer = await call(`turn ${turn} step ${step}`);
    const toolCalls = answer.content.filter((block) => block.type === 'toolCall');
    if (!toolCalls.length) {
      const words = answer.content
        .filter((block) => block.type === 'text')
        .map((block) => block.text)
        .join('');
      try {
        expectToolRound(turn, calls, words);
      } catch (error) {
        // pi ends a turn that called no tool as finished: the user's next message carries on from it.
        if (!FAULT) throw error;
        console.log(`${error.message}; the next user turn goes on from the history kept`);
      }
      break;
    }
    for (const c of toolCalls) {
      calls++;
      context.messages.push({
        role: 'toolResult',
        toolCallId: c.id,
        toolName: c.name,
        content: [{ type: 'text', text: JSON.stringify(lookupOrder(c.arguments)) }],
        isError: false,
        timestamp: Date.now(),
      });
    }
  }
}
