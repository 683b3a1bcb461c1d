"""openai (Python) chat.completions against DeepSeek, reasoning_content kept on the assistant turns.
--break: the tool-call turn goes back without reasoning_content."""
import json

from openai import OpenAI

from agent_task import BREAK, ORDER_SCHEMA, STREAM, TOOL_DESCRIPTION, TOOL_NAME, TURNS, base_url_of, expect_tool_round, key_of, run_tool

client = OpenAI(base_url=base_url_of("deepseek"), api_key=key_of("deepseek"), max_retries=0)
TOOLS = [{"type": "function", "function": {"name": TOOL_NAME, "description": TOOL_DESCRIPTION, "parameters": ORDER_SCHEMA}}]


def complete(messages):
    if not STREAM:
        return client.chat.completions.create(model="deepseek-v4-flash", messages=messages, tools=TOOLS).choices[0].message.model_dump(exclude_none=True)
    message = {"role": "assistant", "content": "", "reasoning_content": ""}
    calls = {}
    for chunk in client.chat.completions.create(model="deepseek-v4-flash", messages=messages, tools=TOOLS, stream=True):
        if not chunk.choices:
            continue
        delta = chunk.choices[0].delta
        message["reasoning_content"] += getattr(delta, "reasoning_content", None) or ""
        message["content"] += delta.content or ""
        for tc in delta.tool_calls or []:
            call = calls.setdefault(tc.index, {"id": "", "type": "function", "function": {"name": "", "arguments": ""}})
            call["id"] += tc.id or ""
            call["function"]["name"] += (tc.function and tc.function.name) or ""
            call["function"]["arguments"] += (tc.function and tc.function.arguments) or ""
    if calls:
        message["tool_calls"] = [calls[i] for i in sorted(calls)]
    return message


messages = []
for turn, text in enumerate(TURNS):
    messages.append({"role": "user", "content": text})
    tool_calls = 0
    while True:
        message = complete(messages)
        if BREAK:
            message.pop("reasoning_content", None)
        messages.append(message)
        if not message.get("tool_calls"):
            expect_tool_round(turn, tool_calls, message.get("content"))
            break
        for call in message["tool_calls"]:
            tool_calls += 1
            result = run_tool(call["function"]["name"], json.loads(call["function"]["arguments"]))
            messages.append({"role": "tool", "tool_call_id": call["id"], "content": json.dumps(result)})
