#!/usr/bin/env python3
"""An external request builder for `reasoning-replay check --engine`, standard library only.

It speaks the JSON-lines protocol (docs/judge-your-agent.md): one build request per line on stdin,
one answer per line on stdout. It builds OpenAI Chat Completions bodies with its own small route
table, the way a team's proxy or agent framework would:

  must-echo routes (DeepSeek, Kimi, MiMo)  reasoning_content on every assistant turn; a single " "
                                            on a tool-call turn that has no reasoning stored
  strict routes (Mistral, Groq, Cerebras,  no reasoning key at all
    SambaNova, Hunyuan)
  aggregators (OpenRouter, Kilo, Vercel,   reasoning_content + reasoning + reasoning_details
    Nous)
  OpenAI                                    none (it rejects reasoning_content as unknown)
  everything else                          reasoning_content

--broken plants two bugs a gate must catch: reasoning_content is dropped from tool-call turns
(must-echo providers answer 400) and strict routes get reasoning_content anyway (strict-schema).
"""
import json
import sys

BROKEN = "--broken" in sys.argv
MUST_ECHO = {"deepseek", "moonshot", "xiaomi"}
STRICT = {"mistral", "groq", "cerebras", "sambanova", "hunyuan"}
AGGREGATORS = {"openrouter", "kilocode", "ai-gateway", "nous"}
# OpenAI's own Chat Completions rejects reasoning_content as an unknown parameter.
NONE = {"openai"}
CARRIERS = ("reasoning_content", "reasoning", "reasoning_details")


def fields_for(provider):
    if provider in STRICT:
        return ["reasoning_content"] if BROKEN else []
    if provider in NONE:
        return []
    if provider in AGGREGATORS:
        return list(CARRIERS)
    return ["reasoning_content"]


def readable_reasoning(message):
    if message.get("reasoning_content"):
        return message["reasoning_content"]
    if message.get("reasoning"):
        return message["reasoning"]
    texts = [d.get("text") or d.get("summary") for d in message.get("reasoning_details") or [] if d.get("type") in ("reasoning.text", "reasoning.summary")]
    return "".join(t for t in texts if t) or None


def build(target, history, options):
    if target["family"] != "openai-chat":
        raise ValueError(f"this example only builds openai-chat bodies, not {target['family']}")
    provider = target["provider"]
    fields = fields_for(provider)
    messages = []
    for message in history["messages"]:
        out = {k: v for k, v in message.items() if k not in CARRIERS and k != "native"}
        if message["role"] == "assistant":
            for field in fields:
                value = readable_reasoning(message) if field == "reasoning_content" else message.get(field)
                if field == "reasoning" and value is None:
                    continue
                if value:
                    out[field] = value
            if provider in MUST_ECHO and out.get("tool_calls") and "reasoning_content" not in out:
                out["reasoning_content"] = " "
            if BROKEN and out.get("tool_calls"):
                out.pop("reasoning_content", None)
        messages.append(out)
    body = {"model": target["model"], "messages": messages}
    if options.get("tools"):
        body["tools"] = options["tools"]
    if options.get("stream"):
        body["stream"] = True
    return body


for line in sys.stdin:
    request = json.loads(line)
    try:
        answer = {"id": request["id"], "body": build(request["target"], request["history"], request.get("options", {}))}
    except Exception as err:  # the gate reports it as a cell that could not be sent
        answer = {"id": request["id"], "error": str(err)}
    sys.stdout.write(json.dumps(answer) + "\n")
    sys.stdout.flush()
