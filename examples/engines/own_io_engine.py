#!/usr/bin/env python3
"""An engine that does its own I/O, for `reasoning-replay check --engine CMD --engine-io own`.

It is a small agent loop on the official SDKs only (`openai` for OpenAI-compatible Chat Completions, `anthropic`
for the Messages API): it streams or not as the session asks, runs one local tool, keeps its sessions in SQLite
(python's sqlite3), resumes and branches them from there, and compacts a session with a summarising model call.
The harness tells it per session which mock to talk to and drives it by JSON lines (docs/judge-your-agent.md,
"Own I/O"); each step is answered {"done": true, "history": [...]}: its own records, in its own shape.

--broken=<bug> plants one bug the judge must catch, each by its rule:
  compaction-drops-reasoning  the turns a compaction keeps lose their reasoning     (survives-compaction)
  stream-drops-signature      a streamed thinking block keeps no signature          (signatures-verbatim)
  session-leak                a new session of a model starts from the last one's   (history-unmutated)
  bound-block                 thinking bound to its prefix is kept after compaction (binding-respected)
"""
import json
import os
import sqlite3
import sys

import anthropic
import openai

BROKEN = {a.split("=", 1)[1] for a in sys.argv[1:] if a.startswith("--broken=")}

# Models that bind a thinking block to the prefix it was produced under (Claude Fable 5.1 and later): after a
# compaction changes that prefix, their kept thinking blocks must go.
BINDING_MODELS = ("claude-fable-5-1", "claude-fable-5.1", "claude-fable-5-2", "claude-fable-5.2")
SYSTEM = "You are a careful assistant. Use the tool when asked."
TOOL = {"name": "lookup", "description": "Look a word up.",
        "schema": {"type": "object", "properties": {"word": {"type": "string"}}, "required": ["word"]}}
SUMMARY_ASK = "Summarise the conversation so far in two sentences, for your own later use."

sessions = {}  # session id -> {"target", "stream", "records"}
clients = {}  # (family, base URL) -> SDK client, made once
last_by_model = {}  # only read by --broken=session-leak
db = None


def log(*parts):
    print(*parts, file=sys.stderr, flush=True)


def open_store(directory):
    global db
    if db is None:
        db = sqlite3.connect(os.path.join(directory, "own-io-engine.sqlite"))
        db.execute("CREATE TABLE IF NOT EXISTS sessions (id TEXT PRIMARY KEY, target TEXT, stream INTEGER, records TEXT)")


def save(sid):
    s = sessions[sid]
    db.execute("INSERT OR REPLACE INTO sessions VALUES (?, ?, ?, ?)",
               (sid, json.dumps(s["target"]), int(s["stream"]), json.dumps(s["records"])))
    db.commit()
    last_by_model[(s["target"]["provider"], s["target"]["model"])] = s["records"]


def load(sid):
    target, stream, records = db.execute("SELECT target, stream, records FROM sessions WHERE id = ?", (sid,)).fetchone()
    sessions[sid] = {"target": json.loads(target), "stream": bool(stream), "records": json.loads(records)}


def client_for(target, sdk):
    key = (target["family"], target["baseUrl"])
    if key not in clients:
        clients[key] = sdk(base_url=target["baseUrl"], api_key=target["apiKey"], max_retries=1)
    return clients[key]


# ---- the wire: records are the provider's own message shapes, kept whole -----------------------------------------

def chat_call(s, messages, tools):
    t = s["target"]
    client = client_for(t, openai.OpenAI)
    args = {"model": t["model"], "messages": [{"role": "system", "content": SYSTEM}] + messages}
    if tools:
        args["tools"] = [{"type": "function", "function": {"name": TOOL["name"], "description": TOOL["description"],
                                                             "parameters": TOOL["schema"]}}]
    if not s["stream"]:
        return client.chat.completions.create(**args).to_dict()["choices"][0]["message"]
    message, calls = {"role": "assistant", "content": ""}, {}
    for chunk in client.chat.completions.create(stream=True, **args):
        for choice in chunk.to_dict().get("choices", []):
            delta = choice.get("delta") or {}
            for key in ("content", "reasoning_content"):
                if delta.get(key):
                    message[key] = (message.get(key) or "") + delta[key]
            for call in delta.get("tool_calls") or []:
                slot = calls.setdefault(call["index"], {"id": "", "type": "function",
                                                        "function": {"name": "", "arguments": ""}})
                slot["id"] = call.get("id") or slot["id"]
                fn = call.get("function") or {}
                slot["function"]["name"] += fn.get("name") or ""
                slot["function"]["arguments"] += fn.get("arguments") or ""
    if calls:
        message["tool_calls"] = [calls[i] for i in sorted(calls)]
    return message


def chat_turn_messages(message):
    kept = {k: message[k] for k in ("role", "content", "reasoning_content", "tool_calls") if message.get(k) is not None}
    kept["role"] = "assistant"
    return kept


def messages_call(s, messages, tools):
    t = s["target"]
    client = client_for(t, anthropic.Anthropic)
    args = {"model": t["model"], "max_tokens": 2048, "system": SYSTEM, "messages": messages,
            "thinking": {"type": "enabled", "budget_tokens": 1024}}
    if tools:
        args["tools"] = [{"name": TOOL["name"], "description": TOOL["description"], "input_schema": TOOL["schema"]}]
    if not s["stream"]:
        return {"role": "assistant", "content": client.messages.create(**args).to_dict()["content"]}
    blocks = {}
    for event in client.messages.create(stream=True, **args):
        e = event.to_dict()
        if e["type"] == "content_block_start":
            blocks[e["index"]] = dict(e["content_block"])
            if blocks[e["index"]]["type"] == "tool_use":
                blocks[e["index"]]["partial"] = ""
        elif e["type"] == "content_block_delta":
            b, d = blocks[e["index"]], e["delta"]
            if d["type"] == "text_delta":
                b["text"] = b.get("text", "") + d["text"]
            elif d["type"] == "thinking_delta":
                b["thinking"] = b.get("thinking", "") + d["thinking"]
            elif d["type"] == "signature_delta" and "stream-drops-signature" not in BROKEN:
                b["signature"] = b.get("signature", "") + d["signature"]
            elif d["type"] == "input_json_delta":
                b["partial"] += d["partial_json"]
        elif e["type"] == "content_block_stop":
            b = blocks[e["index"]]
            if b["type"] == "tool_use":
                b["input"] = json.loads(b.pop("partial") or "{}")
            if b["type"] == "thinking" and "stream-drops-signature" in BROKEN:
                b["signature"] = ""
    return {"role": "assistant", "content": [blocks[i] for i in sorted(blocks)]}


def tool_calls_of(s, message):
    if s["target"]["family"] == "anthropic-messages":
        return [(b["id"], b["input"]) for b in message["content"] if b["type"] == "tool_use"]
    return [(c["id"], json.loads(c["function"]["arguments"] or "{}")) for c in message.get("tool_calls") or []]


def tool_results(s, calls):
    outputs = [(cid, json.dumps({"found": sorted(args)})) for cid, args in calls]
    if s["target"]["family"] == "anthropic-messages":
        return [{"role": "user", "content": [{"type": "tool_result", "tool_use_id": cid, "content": out}
                                             for cid, out in outputs]}]
    return [{"role": "tool", "tool_call_id": cid, "content": out} for cid, out in outputs]


def call_model(s, messages, tools=True):
    if s["target"]["family"] == "anthropic-messages":
        return messages_call(s, messages, tools)
    return chat_turn_messages(chat_call(s, messages, tools))


def run_turn(sid, content):
    s = sessions[sid]
    s["records"].append({"role": "user", "content": content})
    for _ in range(4):  # a tool round or two, then words
        try:
            message = call_model(s, s["records"])
        except (openai.APIError, anthropic.APIError) as err:
            log(f"{sid}: the provider refused: {err}")  # an agent shows the error and keeps its session
            break
        s["records"].append(message)
        calls = tool_calls_of(s, message)
        if not calls:
            break
        s["records"].extend(tool_results(s, calls))
    save(sid)


def without_reasoning(record):
    if record.get("role") != "assistant":
        return record
    if isinstance(record.get("content"), list):
        return {**record, "content": [b for b in record["content"] if b["type"] not in ("thinking", "redacted_thinking")]}
    return {k: v for k, v in record.items() if k != "reasoning_content"}


def compact(sid):
    s = sessions[sid]
    records = s["records"]
    last_user = max(i for i, r in enumerate(records) if r["role"] == "user" and isinstance(r["content"], str))
    older, kept = records[:last_user], records[last_user:]
    transcript = "\n".join(f"{r['role']}: {json.dumps(r.get('content'))}" for r in older)
    try:
        summary = call_model(s, [{"role": "user", "content": f"{SUMMARY_ASK}\n\n{transcript}"}], tools=False)
    except (openai.APIError, anthropic.APIError) as err:
        log(f"{sid}: the summarising call was refused: {err}")
        return
    text = summary["content"] if isinstance(summary["content"], str) else "".join(
        b.get("text", "") for b in summary["content"] if b["type"] == "text")
    # The prefix of every kept turn changed: thinking bound to its prefix cannot go back (the model would refuse it).
    binds = s["target"]["model"] in BINDING_MODELS and "bound-block" not in BROKEN
    if binds or "compaction-drops-reasoning" in BROKEN:
        kept = [without_reasoning(r) for r in kept]
    head = [{"role": "user", "content": f"Summary of our earlier conversation: {text}"},
            {"role": "assistant", "content": "Understood."}]
    s["records"] = head + kept
    save(sid)


def answer(msg_id, **fields):
    print(json.dumps({"id": msg_id, **fields}), flush=True)


def main():
    for line in sys.stdin:
        msg = json.loads(line)
        kind, sid = msg["type"], msg.get("session")
        if kind == "hello":
            answer(msg["id"], capabilities=["own-io"])
            continue
        if kind == "session.open":
            target = msg["target"]
            if target["family"] not in ("openai-chat", "anthropic-messages"):
                answer(msg["id"], error=f"this engine does not speak {target['family']}")
                continue
            open_store(msg["storeDir"])
            records = []
            if "session-leak" in BROKEN:
                records = list(last_by_model.get((target["provider"], target["model"]), []))
            sessions[sid] = {"target": target, "stream": msg["stream"], "records": records}
            save(sid)
            answer(msg["id"], done=True)
            continue
        if kind == "session.close":
            sessions.pop(sid, None)
            answer(msg["id"], done=True)
            continue
        if kind == "turn":
            run_turn(sid, msg["content"])
        elif kind == "resume":
            sessions.pop(sid)
            load(sid)
        elif kind == "branch":
            s = sessions[sid]
            sessions[msg["into"]] = {**s, "records": json.loads(json.dumps(s["records"][: msg["atMessage"]]))}
            save(msg["into"])
            sid = msg["into"]
        elif kind == "compact":
            compact(sid)
        else:
            answer(msg["id"], error=f"unknown step {kind}")
            continue
        answer(msg["id"], done=True, history=sessions[sid]["records"])


if __name__ == "__main__":
    main()
