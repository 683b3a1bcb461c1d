#!/usr/bin/env node
// A hand-written Anthropic Messages agent (fetch and SSE, no SDK) for `run --faults`: it streams with extended
// thinking, calls its one tool, and sends the tool result back with the turn's signed thinking block. How it
// builds a thinking block from the stream is the point:
//
//   node interrupted-thinking-agent.mjs --commit-at-delta   keeps the signature as it accumulates, delta by delta;
//       when the stream is cut it stores the partial block and goes on, then resubmits the refused history
//       (as openclaw/openclaw#103830 and #95627 report) -> recovers-from-faults fails (run exits 1)
//   node interrupted-thinking-agent.mjs                     commits a block only at its content_block_stop (the fix
//       of openclaw/openclaw#104043); a cut turn is resent untouched, a bounded number of times -> passes
//
// reasoning-replay run --faults messages-cut-mid-signature -- node examples/agents/interrupted-thinking-agent.mjs
const base = (process.env.ANTHROPIC_BASE_URL ?? 'https://api.anthropic.com').replace(/\/$/, '');
const commitAtDelta = process.argv.includes('--commit-at-delta');
const MAX_RESENDS = 3;
const tools = [
  {
    name: 'lookup_order',
    description: 'Where an order is',
    input_schema: { type: 'object', properties: { order_id: { type: 'string' } }, required: ['order_id'] },
  },
];

/** One streamed request: the blocks the agent keeps, and whether the stream finished. */
async function stream(messages) {
  const res = await fetch(`${base}/v1/messages`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-api-key': process.env.ANTHROPIC_API_KEY ?? 'placeholder',
      'anthropic-version': '2023-06-01',
      'x-reasoning-replay-client': `interrupted-thinking-agent${commitAtDelta ? ' (commit at delta)' : ''}`,
    },
    body: JSON.stringify({
      model: 'claude-sonnet-4-5',
      max_tokens: 2048,
      thinking: { type: 'enabled', budget_tokens: 1024 },
      stream: true,
      tools,
      messages,
    }),
  });
  if (!res.ok) return { status: res.status, blocks: [], finished: false };
  const kept = []; // blocks committed
  const open = new Map(); // index -> block being streamed
  let buffer = '';
  let finished = false;
  const decoder = new TextDecoder();
  try {
    for await (const chunk of res.body) {
      buffer += decoder.decode(chunk, { stream: true });
      let cut;
      while ((cut = buffer.indexOf('\n\n')) >= 0) {
        const frame = buffer.slice(0, cut);
        buffer = buffer.slice(cut + 2);
        const data = frame.split('\n').find((l) => l.startsWith('data:'));
        if (!data) continue;
        const event = JSON.parse(data.slice(5));
        if (event.type === 'content_block_start') {
          const block = structuredClone(event.content_block);
          if (block.type === 'tool_use') block.partial = '';
          open.set(event.index, block);
          // The buggy agent's history is whatever it has seen so far.
          if (commitAtDelta) kept[event.index] = block;
        } else if (event.type === 'content_block_delta') {
          const block = open.get(event.index);
          const d = event.delta;
          if (d.type === 'thinking_delta') block.thinking += d.thinking;
          if (d.type === 'signature_delta') block.signature += d.signature;
          if (d.type === 'text_delta') block.text += d.text;
          if (d.type === 'input_json_delta') block.partial += d.partial_json;
        } else if (event.type === 'content_block_stop') {
          const block = open.get(event.index);
          if (block.type === 'tool_use') {
            block.input = block.partial ? JSON.parse(block.partial) : {};
            delete block.partial;
          }
          kept[event.index] = block;
          open.delete(event.index);
        } else if (event.type === 'message_stop') finished = true;
      }
    }
  } catch {
    // The connection dropped mid-stream.
  }
  const blocks = kept.filter(Boolean).filter((b) => b.type !== 'tool_use' || b.input !== undefined);
  return { status: res.status, blocks, finished };
}

const messages = [{ role: 'user', content: 'Where is order ORD-1234?' }];
for (let turn = 0, resends = 0; turn < 6; turn++) {
  const answer = await stream(messages);
  if (!answer.finished) {
    if (commitAtDelta && answer.status === 200) {
      // Stores what it has (the signature as far as it came) and carries on.
      messages.push({ role: 'assistant', content: answer.blocks });
      messages.push({ role: 'user', content: 'Please go on.' });
      continue;
    }
    if (answer.status >= 400 && answer.status < 500 && answer.status !== 429 && !commitAtDelta) break;
    if (++resends > MAX_RESENDS) break;
    // The fixed agent: nothing of the cut turn was committed; resend the same history.
    continue;
  }
  resends = 0;
  messages.push({ role: 'assistant', content: answer.blocks });
  const call = answer.blocks.find((b) => b.type === 'tool_use');
  if (!call) break;
  messages.push({
    role: 'user',
    content: [{ type: 'tool_result', tool_use_id: call.id, content: 'ORD-1234 left the warehouse this morning.' }],
  });
}
process.stdout.write(`interrupted-thinking-agent: ${messages.length} messages\n`);
