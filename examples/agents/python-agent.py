#!/usr/bin/env python3
"""A minimal tool-using agent on DeepSeek's chat API, standard library only (urllib).

It reads its base URL the way an agent in production would (DEEPSEEK_BASE_URL, else
REASONING_REPLAY_DEEPSEEK_BASE_URL that `reasoning-replay run` sets) and runs each user turn in
REASONING_REPLAY_TURNS (two by default) through a tool loop, in one conversation, so the second turn
sends the first turn's reasoning back. With --drop-reasoning it forgets to send
reasoning_content back on the tool-call turn: DeepSeek (and the mock) answer 400, and
`reasoning-replay run` exits 1 naming the must-echo rule.
"""
import json
import os
import sys
import urllib.error
import urllib.request

BASE_URL = os.environ.get("DEEPSEEK_BASE_URL") or os.environ["REASONING_REPLAY_DEEPSEEK_BASE_URL"]
API_KEY = os.environ.get("DEEPSEEK_API_KEY", "")
DROP_REASONING = "--drop-reasoning" in sys.argv

TOOLS = [
    {"type": "function", "function": {"name": "search_notes", "description": "Search the user's notes",
        "parameters": {"type": "object", "properties": {"query": {"type": "string", "minLength": 1}, "limit": {"type": "integer", "minimum": 1, "maximum": 5}}, "required": ["query"]}}},
    {"type": "function", "function": {"name": "add_reminder", "description": "Add a reminder",
        "parameters": {"type": "object", "properties": {"text": {"type": "string"}, "at": {"type": "string", "format": "date-time"}}, "required": ["text", "at"]}}},
]


def run_tool(name, args):
    if name == "search_notes":
        return {"hits": [f"note about {args['query']}"][: args.get("limit", 1)]}
    if name == "add_reminder":
        return {"ok": True, "at": args["at"]}
    raise SystemExit(f"model called a tool I never offered: {name}")


def chat(messages):
    body = json.dumps({"model": "deepseek-v4-flash", "messages": messages, "tools": TOOLS}).encode()
    request = urllib.request.Request(f"{BASE_URL}/chat/completions", data=body, method="POST", headers={
        "content-type": "application/json", "authorization": f"Bearer {API_KEY}", "x-reasoning-replay-client": "python-agent-example"})
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return json.load(response)
    except urllib.error.HTTPError as err:
        raise SystemExit(f"provider answered {err.code}: {err.read().decode()[:300]}")


def main():
    # Under `run --each-turn`, one process per user turn: the conversation lives in a state file,
    # as an agent that waits for work keeps it in its own session store.
    state = os.environ.get("AGENT_STATE_FILE") if "REASONING_REPLAY_TURN" in os.environ else None
    if state:
        turns = [os.environ["REASONING_REPLAY_MESSAGE"]]
        messages = json.load(open(state)) if os.path.exists(state) else []
    else:
        turns = json.loads(os.environ.get(
            "REASONING_REPLAY_TURNS", '["Find my note about Lisbon.", "Now remind me to book the trip tomorrow."]'))
        messages = []
    for turn in turns:
        messages.append({"role": "user", "content": turn})
        for _ in range(5):
            message = chat(messages)["choices"][0]["message"]
            kept = {"role": "assistant", "content": message.get("content")}
            if message.get("tool_calls"):
                kept["tool_calls"] = message["tool_calls"]
            if message.get("reasoning_content") and not DROP_REASONING:
                kept["reasoning_content"] = message["reasoning_content"]
            messages.append(kept)
            if not message.get("tool_calls"):
                print(f"assistant: {message.get('content')}")
                break
            for call in message["tool_calls"]:
                result = run_tool(call["function"]["name"], json.loads(call["function"]["arguments"]))
                messages.append({"role": "tool", "tool_call_id": call["id"], "content": json.dumps(result)})
    if state:
        with open(state, "w") as f:
            json.dump(messages, f)


if __name__ == "__main__":
    main()
