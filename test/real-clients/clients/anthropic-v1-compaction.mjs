// @anthropic-ai/sdk 1.x (beta messages) with server compaction, compact_20260112: past the trigger the answer opens
// with a compaction block, and the whole content is appended so the next request carries it back.
// The first user turn is long enough (about 52,000 tokens) to pass the lowest trigger the API takes, 50,000.
// ANTHROPIC_BASE_URL and ANTHROPIC_API_KEY are read by the SDK itself.
// --break: the compaction block's encrypted_content is edited (one character) in the history sent back.
// --break=drop: the compaction block is left out of the history sent back (the API accepts that in silence).
import Anthropic from 'anthropic-sdk-v1';
/** The blob with its sixth character changed: an edit a verbatim check must see. */
const oneCharEdited = (blob) => `${blob.slice(0, 5)}${blob[5] === 'A' ? 'B' : 'A'}${blob.slice(6)}`;
import { BREAK, BREAK_HOW, STREAM, TOOL, TURNS, expectToolRound, runTool } from './agent-task.mjs';

const client = new Anthropic();
const tools = [{ name: TOOL.name, description: TOOL.description, input_schema: TOOL.schema }];
const CONTEXT = `Earlier notes, kept for context:\n${'The warehouse log repeats this line. '.repeat(5600)}`;

async function create(messages) {
  const body = {
    model: 'claude-opus-5',
    max_tokens: 2048,
    betas: ['compact-2026-01-12'],
    context_management: { edits: [{ type: 'compact_20260112', trigger: { type: 'input_tokens', value: 50000 } }] },
    thinking: { type: 'adaptive' },
    messages,
    tools,
  };
  return STREAM ? client.beta.messages.stream(body).finalMessage() : client.beta.messages.create(body);
}

/** The block as the history keeps it: verbatim, or (--break) with its opaque metadata edited. */
const kept = (block) =>
  BREAK && block.type === 'compaction'
    ? {
        ...block,
        encrypted_content: oneCharEdited(block.encrypted_content),
      }
    : block;
/** The blocks the history keeps of an answer: all of them, or (--break=drop) all but the compaction block. */
const keptBlocks = (content) =>
  BREAK_HOW === 'drop' ? content.filter((b) => b.type !== 'compaction') : content.map(kept);

const messages = [];
let compactions = 0;
for (const [turn, text] of TURNS.entries()) {
  messages.push({ role: 'user', content: turn === 0 ? `${CONTEXT}\n\n${text}` : text });
  let toolCalls = 0;
  for (;;) {
    const message = await create(messages);
    compactions += message.content.filter((b) => b.type === 'compaction').length;
    messages.push({ role: 'assistant', content: keptBlocks(message.content) });
    const uses = message.content.filter((b) => b.type === 'tool_use');
    if (!uses.length) {
      expectToolRound(turn, toolCalls, message.content.find((b) => b.type === 'text')?.text);
      break;
    }
    toolCalls += uses.length;
    messages.push({
      role: 'user',
      content: uses.map((u) => ({
        type: 'tool_result',
        tool_use_id: u.id,
        content: JSON.stringify(runTool(u.name, u.input)),
      })),
    });
  }
}
if (compactions < 1) throw new Error('the server never compacted: no compaction block came back');
