"""What every Python client in the matrix shares: the user turns `run` hands it, its tool, the
driver's flags, and base URLs read the way `run` publishes them. No SDK here."""
import json
import os
import re
import sys

STREAM = "--stream" in sys.argv
BREAK = "--break" in sys.argv  # break the reasoning round trip on purpose
TURNS = json.loads(os.environ.get("REASONING_REPLAY_TURNS", '["Where is order ORD-1234?", "And ORD-5678?"]'))
ORDER_SCHEMA = {
    "type": "object",
    "properties": {"order_id": {"type": "string", "pattern": "^ORD-[0-9]{4}$"}},
    "required": ["order_id"],
    "additionalProperties": False,
}
TOOL_NAME = "lookup_order"
TOOL_DESCRIPTION = "Status of one order"


def run_tool(name, args):
    if name != TOOL_NAME:
        raise SystemExit(f"the model called a tool this agent never offered: {name}")
    if not re.fullmatch(r"ORD-\d{4}", str(args.get("order_id", ""))):
        raise SystemExit(f"bad order id {args!r}")
    return {"order_id": args["order_id"], "status": "shipped"}


def stem(provider):
    return re.sub(r"[^A-Z0-9]+", "_", provider.upper())


def base_url_of(provider):
    name = f"REASONING_REPLAY_{stem(provider)}_BASE_URL"
    if name not in os.environ:
        raise SystemExit(f"{name} is not set: run this under reasoning-replay run")
    return os.environ[name]


def key_of(provider):
    return os.environ[f"{stem(provider)}_API_KEY"]


def expect_tool_round(turn, tool_calls, text):
    if tool_calls < 1:
        raise SystemExit(f"turn {turn}: the model called no tool")
    if not text:
        raise SystemExit(f"turn {turn}: no final answer after the tool round")
    print(f"turn {turn}: {tool_calls} tool call(s), answer: {text[:60]}")
