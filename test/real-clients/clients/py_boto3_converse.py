"""boto3 bedrock-runtime converse (--stream: converse_stream) on Claude with thinking, the
reasoningContent blocks passed back as they came. Wired with an endpoint and a key only.
--break: the reasoningContent blocks are dropped from the assistant turns sent back."""
import json

import boto3
from botocore.config import Config

from agent_task import BREAK, ORDER_SCHEMA, STREAM, TOOL_DESCRIPTION, TOOL_NAME, TURNS, base_url_of, expect_tool_round, key_of, run_tool

client = boto3.client(
    "bedrock-runtime", region_name="us-east-1", endpoint_url=base_url_of("bedrock-claude"),
    aws_access_key_id="AKIDRRMOCK", aws_secret_access_key=key_of("bedrock-claude"),
    config=Config(retries={"max_attempts": 1}),
)
MODEL = "us.anthropic.claude-sonnet-4-5-20250929-v1:0"
TOOL_CONFIG = {"tools": [{"toolSpec": {"name": TOOL_NAME, "description": TOOL_DESCRIPTION, "inputSchema": {"json": ORDER_SCHEMA}}}]}
THINKING = {"thinking": {"type": "enabled", "budget_tokens": 1024}}


def streamed(messages):
    answer = client.converse_stream(modelId=MODEL, messages=messages, toolConfig=TOOL_CONFIG, additionalModelRequestFields=THINKING)
    blocks = {}
    for event in answer["stream"]:
        if "contentBlockStart" in event and "toolUse" in event["contentBlockStart"]["start"]:
            start = event["contentBlockStart"]["start"]["toolUse"]
            blocks[event["contentBlockStart"]["contentBlockIndex"]] = {"toolUse": {"toolUseId": start["toolUseId"], "name": start["name"], "input": ""}}
        delta = event.get("contentBlockDelta")
        if not delta:
            continue
        block = blocks.setdefault(delta["contentBlockIndex"], {})
        d = delta["delta"]
        if "text" in d:
            block["text"] = block.get("text", "") + d["text"]
        if "toolUse" in d:
            block["toolUse"]["input"] += d["toolUse"]["input"]
        if "reasoningContent" in d:
            r = block.setdefault("reasoningContent", {"reasoningText": {"text": ""}})
            if "text" in d["reasoningContent"]:
                r["reasoningText"]["text"] += d["reasoningContent"]["text"]
            if "signature" in d["reasoningContent"]:
                r["reasoningText"]["signature"] = d["reasoningContent"]["signature"]
    content = [blocks[i] for i in sorted(blocks)]
    for b in content:
        if "toolUse" in b:
            b["toolUse"]["input"] = json.loads(b["toolUse"]["input"] or "{}")
    return {"role": "assistant", "content": content}


def converse(messages):
    if STREAM:
        return streamed(messages)
    return client.converse(modelId=MODEL, messages=messages, toolConfig=TOOL_CONFIG, additionalModelRequestFields=THINKING)["output"]["message"]


messages = []
for turn, text in enumerate(TURNS):
    messages.append({"role": "user", "content": [{"text": text}]})
    tool_calls = 0
    while True:
        message = converse(messages)
        messages.append({"role": "assistant", "content": [b for b in message["content"] if not (BREAK and "reasoningContent" in b)]})
        uses = [b["toolUse"] for b in message["content"] if "toolUse" in b]
        if not uses:
            expect_tool_round(turn, tool_calls, "".join(b.get("text", "") for b in message["content"]))
            break
        tool_calls += len(uses)
        messages.append({"role": "user", "content": [
            {"toolResult": {"toolUseId": u["toolUseId"], "content": [{"json": run_tool(u["name"], u["input"])}]}} for u in uses]})
