// @google/genai generateContent on Gemini 3, the model's content (thought signatures included) kept
// as it came. GOOGLE_GEMINI_BASE_URL and GEMINI_API_KEY are read by the SDK itself.
// --break: the thoughtSignature is stripped from the model's parts.
// --structured: responseMimeType application/json with responseJsonSchema, beside the tools (Gemini 3).
import { GoogleGenAI } from '@google/genai';
import { ANSWER_SCHEMA, BREAK, STREAM, STRUCTURED, TOOL, TURNS, expectToolRound, runTool } from './agent-task.mjs';

const ai = new GoogleGenAI({ apiKey: process.env.GEMINI_API_KEY });
const config = {
  tools: [
    { functionDeclarations: [{ name: TOOL.name, description: TOOL.description, parametersJsonSchema: TOOL.schema }] },
  ],
  ...(STRUCTURED ? { responseMimeType: 'application/json', responseJsonSchema: ANSWER_SCHEMA } : {}),
};
const model = 'gemini-3-pro-preview';

async function generate(contents) {
  if (!STREAM) return (await ai.models.generateContent({ model, contents, config })).candidates[0].content;
  // A streamed answer's parts arrive chunk by chunk: the turn is all of them, in order.
  const parts = [];
  for await (const chunk of await ai.models.generateContentStream({ model, contents, config }))
    parts.push(...(chunk.candidates?.[0]?.content?.parts ?? []));
  return { role: 'model', parts };
}

const contents = [];
for (const [turn, text] of TURNS.entries()) {
  contents.push({ role: 'user', parts: [{ text }] });
  let toolCalls = 0;
  for (;;) {
    const content = await generate(contents);
    const parts = content.parts ?? [];
    contents.push({
      role: 'model',
      parts: BREAK ? parts.map(({ thoughtSignature: _dropped, ...part }) => part) : parts,
    });
    const calls = parts.filter((p) => p.functionCall);
    if (!calls.length) {
      expectToolRound(turn, toolCalls, parts.map((p) => (p.thought ? '' : (p.text ?? ''))).join(''));
      break;
    }
    toolCalls += calls.length;
    contents.push({
      role: 'user',
      parts: calls.map(({ functionCall }) => ({
        functionResponse: { name: functionCall.name, response: runTool(functionCall.name, functionCall.args) },
      })),
    });
  }
}
