"""google-genai (Python) generate_content on Gemini 3, the model's content (thought signatures
included) kept as it came. GOOGLE_GEMINI_BASE_URL and GEMINI_API_KEY are read by the SDK itself.
--break: the thought_signature is stripped from the model's parts."""
import os

from google import genai
from google.genai import types

from agent_task import BREAK, ORDER_SCHEMA, STREAM, TOOL_DESCRIPTION, TOOL_NAME, TURNS, expect_tool_round, run_tool

client = genai.Client(api_key=os.environ["GEMINI_API_KEY"])
CONFIG = types.GenerateContentConfig(
    tools=[types.Tool(function_declarations=[types.FunctionDeclaration(name=TOOL_NAME, description=TOOL_DESCRIPTION, parameters_json_schema=ORDER_SCHEMA)])],
    automatic_function_calling=types.AutomaticFunctionCallingConfig(disable=True),
)
MODEL = "gemini-3-pro-preview"


def generate(contents):
    if not STREAM:
        return client.models.generate_content(model=MODEL, contents=contents, config=CONFIG).candidates[0].content
    parts = []
    for chunk in client.models.generate_content_stream(model=MODEL, contents=contents, config=CONFIG):
        if chunk.candidates and chunk.candidates[0].content and chunk.candidates[0].content.parts:
            parts.extend(chunk.candidates[0].content.parts)
    return types.Content(role="model", parts=parts)


contents = []
for turn, text in enumerate(TURNS):
    contents.append(types.Content(role="user", parts=[types.Part(text=text)]))
    tool_calls = 0
    while True:
        content = generate(contents)
        parts = content.parts or []
        if BREAK:
            parts = [p.model_copy(update={"thought_signature": None}) for p in parts]
        contents.append(types.Content(role="model", parts=parts))
        calls = [p.function_call for p in parts if p.function_call]
        if not calls:
            expect_tool_round(turn, tool_calls, "".join(p.text or "" for p in parts if not p.thought))
            break
        tool_calls += len(calls)
        contents.append(types.Content(role="user", parts=[
            types.Part(function_response=types.FunctionResponse(name=c.name, response=run_tool(c.name, c.args or {}))) for c in calls]))
