"""anthropic (Python) messages with extended thinking, the signed thinking blocks sent back as they
came. ANTHROPIC_BASE_URL and ANTHROPIC_API_KEY are read by the SDK itself.
--break: the thinking blocks are dropped from the assistant turns sent back."""
import json

import anthropic

from agent_task import BREAK, ORDER_SCHEMA, STREAM, TOOL_DESCRIPTION, TOOL_NAME, TURNS, expect_tool_round, run_tool

client = anthropic.Anthropic(max_retries=0)
TOOLS = [{"name": TOOL_NAME, "description": TOOL_DESCRIPTION, "input_schema": ORDER_SCHEMA}]


def create(messages):
    body = dict(model="claude-sonnet-4-5", max_tokens=2048, thinking={"type": "enabled", "budget_tokens": 1024}, messages=messages, tools=TOOLS)
    if not STREAM:
        return client.messages.create(**body)
    with client.messages.stream(**body) as stream:
        return stream.get_final_message()


messages = []
for turn, text in enumerate(TURNS):
    messages.append({"role": "user", "content": text})
    tool_calls = 0
    while True:
        message = create(messages)
        blocks = [b.model_dump(exclude_none=True) for b in message.content if not (BREAK and b.type == "thinking")]
        messages.append({"role": "assistant", "content": blocks})
        uses = [b for b in message.content if b.type == "tool_use"]
        if not uses:
            expect_tool_round(turn, tool_calls, "".join(b.text for b in message.content if b.type == "text"))
            break
        tool_calls += len(uses)
        messages.append({"role": "user", "content": [
            {"type": "tool_result", "tool_use_id": u.id, "content": json.dumps(run_tool(u.name, u.input))} for u in uses]})
