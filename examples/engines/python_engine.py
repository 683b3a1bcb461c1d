#!/usr/bin/env python3
"""An external engine for `reasoning-replay check --engine`, standard library only.

It speaks the JSON-lines protocol (docs/judge-your-agent.md, "check --engine"): one operation per
line on stdin, one answer per line on stdout, each with the operation's id. It builds OpenAI Chat
Completions bodies with its own small route table, the way a team's proxy or agent framework would:

  must-echo routes (DeepSeek, Kimi, MiMo)  reasoning_content on every assistant turn that has it; a
                                            single " " on a tool-call turn that has no reasoning
  strict routes (Mistral, Groq, Cerebras,  no reasoning key at all
    SambaNova, Hunyuan)
  aggregators (OpenRouter, Kilo, Vercel,   reasoning_content + reasoning + reasoning_details
    Nous)
  OpenAI                                    none (it rejects reasoning_content as unknown)
  local servers (Ollama, vLLM, llama.cpp,  reasoning_content + reasoning
    localhost, private names)
  everything else                          reasoning_content

A route matches on the provider id, or on the base-URL host (equal, or a subdomain: a look-alike
does not match; case and a port do not matter). It also implements the operations `hello` offers:
  fallback  an unknown-field 4xx naming a carrier it sent is retried once without it (verdicts kept
            per session and (provider, host, model)); must-echo routes never drop reasoning_content
  read      a chat answer (JSON or a stream) becomes the assistant message it appends to history
It keeps no session store and does not compact: those are reported as not judged.

--build-only answers the handshake with no operations (only request building is judged).
--broken=<rule> plants one bug a gate must catch:
  must-echo      reasoning_content is dropped from tool-call turns
  strict-schema  strict routes get reasoning_content anyway
  pad-scope      the " " pad goes on every assistant turn of a must-echo route, not only tool calls (a
                 choice the providers accept and that loses nothing: warned, not failed)
  typed-items    reasoning held only as readable reasoning_details items is not read as text, so a
                 must-echo tool-call turn gets the pad instead of it (reasoning lost: fails)
  host-suffix    a host that merely ends with a route host matches it (notmoonshot.ai)
  fallback-5xx   a 5xx that names a carrier is retried as an unknown-field rejection
  stream-join    a streamed reasoning_details item keeps only its first data piece
  session-leak   fallback verdicts are kept for every session at once, not per session
--broken alone plants the first two.
"""
import json
import re
import sys

ARGS = sys.argv[1:]
BROKEN = {a.split("=", 1)[1] for a in ARGS if a.startswith("--broken=")}
if "--broken" in ARGS:
    BROKEN |= {"must-echo", "strict-schema"}
BUILD_ONLY = "--build-only" in ARGS

ROUTES = [
    # (name, provider ids, hosts, tier, fields)
    ("strict", {"mistral", "groq", "cerebras", "sambanova", "hunyuan"},
     ["mistral.ai", "groq.com", "cerebras.ai", "sambanova.ai", "hunyuan.cloud.tencent.com"], "strict", []),
    ("must-echo", {"deepseek", "moonshot", "kimi", "xiaomi", "mimo"},
     ["api.deepseek.com", "moonshot.ai", "moonshot.cn", "api.kimi.com", "xiaomimimo.com"], "must-echo", ["reasoning_content"]),
    ("aggregator", {"openrouter", "kilocode", "ai-gateway", "nous"},
     ["openrouter.ai", "kilo.ai", "ai-gateway.vercel.sh", "nousresearch.com"], "standard",
     ["reasoning_content", "reasoning", "reasoning_details"]),
    # OpenAI's own Chat Completions rejects reasoning_content as an unknown parameter.
    ("openai", {"openai"}, ["api.openai.com"], "standard", []),
    # Ollama reads `reasoning`, llama.cpp and vLLM `reasoning_content`: local servers get both.
    ("local", {"ollama-cloud", "ollama", "lmstudio", "custom", "vllm", "llamacpp"}, ["ollama.com"], "standard",
     ["reasoning_content", "reasoning"]),
]
DEFAULT = ("default", set(), [], "standard", ["reasoning_content"])
CARRIERS = ("reasoning_content", "reasoning", "reasoning_details")
# Members of a history message that are the harness's record, never the wire's: the native carrier and its author.
HISTORY_ONLY = ("native", "produced_by")
PHRASINGS = ("extra inputs are not permitted", "is unsupported", "unknown parameter", "unrecognized request argument",
             "unknown field", "unrecognized field", "no such field", "unexpected field", "additional propert",
             "unknown key", "cannot find field", "extraneous key")


def plain_host(host):
    host = host.strip().lower()
    if host.startswith("["):
        return host[1:host.find("]")]
    if host.count(":") == 1:
        host = host.split(":")[0]
    return host.rstrip(".")


def host_matches(host, pattern):
    if "host-suffix" in BROKEN:
        return plain_host(host).endswith(pattern)
    h = plain_host(host)
    return h == pattern or h.endswith("." + pattern)


def is_local(host):
    h = plain_host(host)
    return (h in ("localhost", "::1") or h.startswith(("127.", "10.", "192.168.")) or "." not in h
            or h.endswith((".local", ".localhost", ".internal")))


def route_for(target):
    provider = target["provider"].strip().lower()
    for route in ROUTES:
        if provider in route[1] or any(host_matches(target["host"], h) for h in route[2]):
            return route
    if is_local(target["host"]):
        return ROUTES[-1]
    return DEFAULT


def readable_reasoning(message):
    if (message.get("reasoning_content") or "").strip():
        return message["reasoning_content"]
    if (message.get("reasoning") or "").strip():
        return message["reasoning"]
    if "typed-items" in BROKEN:
        return None
    # Readable typed items: OpenRouter's text and summary items, and Anthropic thinking blocks.
    texts = [d.get("text") or d.get("summary") or d.get("thinking") for d in message.get("reasoning_details") or []
             if d.get("type") in ("reasoning.text", "reasoning.summary", "thinking")]
    return "".join(t for t in texts if t) or None


def kimi_keeps_thinking(model):
    """Kimi K2.6 up to (not including) 3: the models that take thinking.keep."""
    found = re.search(r"kimi-k(\d+(?:[.p]\d+)?)", model or "")
    if not found:
        return False
    version = float(found.group(1).replace("p", "."))
    return 2.6 <= version < 3


def build(target, history, options, withheld=()):
    if target["family"] != "openai-chat":
        raise ValueError(f"this example only builds openai-chat bodies, not {target['family']}")
    _, _, _, tier, fields = route_for(target)
    if tier == "strict" and "strict-schema" in BROKEN:
        fields = ["reasoning_content"]
    fields = [f for f in fields if f not in withheld or (f == "reasoning_content" and tier == "must-echo")]
    messages = []
    for message in history["messages"]:
        out = {k: v for k, v in message.items() if k not in CARRIERS and k not in HISTORY_ONLY}
        if message["role"] == "assistant":
            for field in fields:
                # The two readable carriers are aliases: a turn stored with either one sends its text as both.
                readable = field in ("reasoning_content", "reasoning")
                value = readable_reasoning(message) if readable else message.get(field)
                if value:
                    out[field] = value
            tool_turn = bool(out.get("tool_calls"))
            if tier == "must-echo" and (tool_turn or "pad-scope" in BROKEN) and "reasoning_content" not in out:
                out["reasoning_content"] = " "
            if "must-echo" in BROKEN and tool_turn:
                out.pop("reasoning_content", None)
        messages.append(out)
    body = {"model": target["model"], "messages": messages}
    # Kimi K2.6 and later 2.x keep earlier turns' thinking only when asked (Moonshot's thinking-model guide); without
    # the flag the reasoning the history holds is dropped in silence.
    if route_for(target)[0] == "must-echo" and kimi_keeps_thinking(target["model"]):
        body["thinking"] = {"type": "enabled", "keep": "all"}
    if options.get("tools"):
        body["tools"] = options["tools"]
    if options.get("stream"):
        body["stream"] = True
    return body


def sent_carriers(body):
    return {k for m in body["messages"] for k in CARRIERS if k in m}


def refused_fields(status, error, sent, tier):
    """The seed's rule: a 4xx whose text has an unknown-field phrasing and names a carrier that was sent."""
    if not (400 <= status <= 499 or ("fallback-5xx" in BROKEN and status >= 500)):
        return []
    text = json.dumps(error).lower() if not isinstance(error, str) else error.lower()
    if not any(p in text for p in PHRASINGS):
        return []
    named = [f for f in CARRIERS if f in sent and f in text and not (tier == "must-echo" and f == "reasoning_content")]
    if "reasoning_content" in named:
        return [f for f in CARRIERS if not (tier == "must-echo" and f == "reasoning_content")]
    return sorted(set(named) | ({"reasoning", "reasoning_details"} if named else set()))


def verdict_key(target):
    return (target["provider"].strip().lower(), plain_host(target["host"]), target["model"])


SESSIONS = {}  # session id -> {verdict key: set of withheld fields}


def session_key(session):
    # --broken=session-leak: every session shares one verdict store, so a verdict leaks into the next session.
    return "shared" if "session-leak" in BROKEN else session


def withheld_for(session, target):
    return SESSIONS.setdefault(session_key(session), {}).get(verdict_key(target), set())


def rejected(request):
    """Retry once without a carrier the provider refused as unknown; give up otherwise (and on a refused retry)."""
    target, response = request["target"], request["response"]
    if request.get("attempt", 1) > 1:
        return {"retry": False}
    tier = route_for(target)[3]
    previous = withheld_for(request["session"], target)
    body = build(target, request["history"], request.get("options", {}), previous)
    refused = [f for f in refused_fields(response["status"], response["body"], sent_carriers(body), tier) if f not in previous]
    if not refused:
        return {"retry": False}
    SESSIONS[session_key(request["session"])][verdict_key(target)] = previous | set(refused)
    return {"body": build(target, request["history"], request.get("options", {}), previous | set(refused)),
            "withheld": refused}


def merge_detail(items, piece):
    index = piece.get("index")
    for item in items:
        if index is not None and item.get("index") == index:
            for key, value in piece.items():
                if key in ("text", "summary", "data") and isinstance(value, str):
                    if key == "data" and "stream-join" in BROKEN and item.get(key):
                        continue
                    item[key] = item.get(key, "") + value
                elif key == "signature":
                    if value:
                        item[key] = value
                elif item.get(key) is None:
                    item[key] = value
            return
    items.append(dict(piece))


def read(request):
    """A chat answer (a JSON body, or the text of an SSE stream) as the assistant message for history."""
    if request["target"]["family"] != "openai-chat":
        raise ValueError("this example only reads openai-chat answers")
    body = request["response"]["body"]
    if isinstance(body, dict):
        m = body["choices"][0]["message"]
        out = {"role": "assistant", "content": m.get("content")}
        for key in ("tool_calls", "reasoning_content", "reasoning", "reasoning_details"):
            if m.get(key) is not None:
                out[key] = m[key]
        if out.get("tool_calls"):
            out["tool_calls"] = [{"id": c["id"], "type": "function",
                                  "function": {"name": c["function"]["name"], "arguments": c["function"]["arguments"]}}
                                 for c in out["tool_calls"]]
        return out
    content, texts, details, calls = "", {}, [], {}
    for line in body.splitlines():
        if not line.startswith("data:"):
            continue
        data = line[5:].strip()
        if data == "[DONE]":
            break
        chunk = json.loads(data)
        for choice in chunk.get("choices") or []:
            if choice.get("index", 0) != 0:
                continue
            delta = choice.get("delta") or {}
            content += delta.get("content") or ""
            for key in ("reasoning_content", "reasoning"):
                if isinstance(delta.get(key), str):
                    texts[key] = texts.get(key, "") + delta[key]
            for piece in delta.get("reasoning_details") or []:
                merge_detail(details, piece)
            for piece in delta.get("tool_calls") or []:
                call = calls.setdefault(piece.get("index", 0), {"id": None, "name": "", "arguments": ""})
                call["id"] = piece.get("id") or call["id"]
                fn = piece.get("function") or {}
                call["name"] += fn.get("name") or ""
                call["arguments"] += fn.get("arguments") or ""
    out = {"role": "assistant", "content": content or None}
    if calls:
        out["tool_calls"] = [{"id": c["id"] or f"call_{i}", "type": "function",
                              "function": {"name": c["name"], "arguments": c["arguments"]}}
                             for i, c in sorted(calls.items())]
    out.update(texts)
    if details:
        out["reasoning_details"] = details
    return out


def answer(request):
    kind = request.get("type")
    if kind == "hello":
        return {"capabilities": [] if BUILD_ONLY else ["fallback", "read", "stream"]}
    if kind == "build":
        withheld = withheld_for(request["session"], request["target"])
        return {"body": build(request["target"], request["history"], request.get("options", {}), withheld)}
    if kind == "rejected" and not BUILD_ONLY:
        return rejected(request)
    if kind == "read" and not BUILD_ONLY:
        return {"message": read(request)}
    raise ValueError(f"this example does not implement {kind}")


for line in sys.stdin:
    request = json.loads(line)
    try:
        reply = {"id": request["id"], **answer(request)}
    except Exception as err:  # the gate reports it: a cell that could not be sent, or read
        reply = {"id": request["id"], "error": str(err)}
    sys.stdout.write(json.dumps(reply) + "\n")
    sys.stdout.flush()
