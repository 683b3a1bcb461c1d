"""Agents with no SDK (urllib only), as a team's own code would call a provider. The DeepSeek agent runs a tool
loop; keep_reasoning=False drops reasoning_content from the tool-call turn it sends back, the bug DeepSeek answers
400 for in thinking mode."""
import json
import os
import urllib.request

TOOLS = [
    {
        "type": "function",
        "function": {
            "name": "lookup_order",
            "description": "Status of one order",
            "parameters": {
                "type": "object",
                "properties": {"order_id": {"type": "string"}},
                "required": ["order_id"],
            },
        },
    }
]


def post(url, body, key):
    request = urllib.request.Request(
        url,
        data=json.dumps(body).encode(),
        headers={"content-type": "application/json", "authorization": f"Bearer {key}"},
    )
    with urllib.request.urlopen(request, timeout=30) as answer:
        return json.load(answer)


def deepseek_agent(question, keep_reasoning=True):
    """One user turn: call tools until DeepSeek answers in words; returns the answer."""
    url = os.environ["REASONING_REPLAY_DEEPSEEK_BASE_URL"] + "/chat/completions"
    messages = [{"role": "user", "content": question}]
    while True:
        body = {"model": "deepseek-v4-flash", "messages": messages, "tools": TOOLS}
        message = post(url, body, os.environ["DEEPSEEK_API_KEY"])["choices"][0]["message"]
        if not keep_reasoning:
            message.pop("reasoning_content", None)
        messages.append(message)
        if not message.get("tool_calls"):
            return message["content"]
        for call in message["tool_calls"]:
            messages.append({"role": "tool", "tool_call_id": call["id"], "content": '{"status": "shipped"}'})


def gemini_function_response_with_id():
    """A Gemini request whose functionResponse carries an id: a contested rule (refused in some reports, listed in
    the API reference), which the mock accepts and warns on."""
    url = os.environ["REASONING_REPLAY_GEMINI_BASE_URL"] + "/v1beta/models/gemini-2.5-flash:generateContent"
    contents = [
        {"role": "user", "parts": [{"text": "Where is order ORD-1234?"}]},
        {"role": "model", "parts": [{"functionCall": {"name": "lookup_order", "args": {"order_id": "ORD-1234"}}}]},
        {"role": "user", "parts": [{"functionResponse": {"id": "c1", "name": "lookup_order", "response": {"ok": True}}}]},
    ]
    return post(url, {"contents": contents}, os.environ["GEMINI_API_KEY"])
