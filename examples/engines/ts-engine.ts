// An external request builder for `reasoning-replay check --engine "node --import tsx examples/engines/ts-engine.ts"`,
// in TypeScript: the same JSON-lines protocol and the same small route table as python_engine.py
// (see that file for the table). `--broken` plants the same two bugs: reasoning_content dropped from
// tool-call turns, and strict routes sent reasoning_content anyway.
import { createInterface } from 'node:readline';

interface Target {
  provider: string;
  host: string;
  model: string;
  family: string;
  baseUrl: string;
  path: string;
}
type Message = Record<string, unknown> & {
  role: string;
  tool_calls?: unknown[];
  reasoning_content?: string;
  reasoning?: string;
  reasoning_details?: Array<Record<string, unknown>>;
};
interface BuildRequest {
  id: number;
  type: 'build';
  target: Target;
  history: { messages: Message[] };
  options?: { stream?: boolean; tools?: unknown[] };
}

const BROKEN = process.argv.includes('--broken');
const MUST_ECHO = new Set(['deepseek', 'moonshot', 'xiaomi']);
const STRICT = new Set(['mistral', 'groq', 'cerebras', 'sambanova', 'hunyuan']);
const AGGREGATORS = new Set(['openrouter', 'kilocode', 'ai-gateway', 'nous']);
const NONE = new Set(['openai']);
const CARRIERS = ['reasoning_content', 'reasoning', 'reasoning_details'] as const;

function fieldsFor(provider: string): readonly string[] {
  if (STRICT.has(provider)) return BROKEN ? ['reasoning_content'] : [];
  if (NONE.has(provider)) return [];
  return AGGREGATORS.has(provider) ? CARRIERS : ['reasoning_content'];
}

function readableReasoning(m: Message): string | undefined {
  if (m.reasoning_content) return m.reasoning_content;
  if (m.reasoning) return m.reasoning;
  const texts = (m.reasoning_details ?? [])
    .filter((d) => d.type === 'reasoning.text' || d.type === 'reasoning.summary')
    .map((d) => (d.text ?? d.summary) as string | undefined);
  return texts.filter(Boolean).join('') || undefined;
}

function build({ target, history, options = {} }: BuildRequest): Record<string, unknown> {
  if (target.family !== 'openai-chat')
    throw new Error(`this example only builds openai-chat bodies, not ${target.family}`);
  const fields = fieldsFor(target.provider);
  const messages = history.messages.map((message) => {
    const out: Record<string, unknown> = Object.fromEntries(
      Object.entries(message).filter(([k]) => !(CARRIERS as readonly string[]).includes(k) && k !== 'native'),
    );
    if (message.role !== 'assistant') return out;
    for (const field of fields) {
      const value = field === 'reasoning_content' ? readableReasoning(message) : message[field];
      if (value !== undefined && value !== null && value !== '' && !(Array.isArray(value) && value.length === 0))
        out[field] = value;
    }
    const toolTurn = Array.isArray(out.tool_calls) && out.tool_calls.length > 0;
    if (MUST_ECHO.has(target.provider) && toolTurn && out.reasoning_content === undefined) out.reasoning_content = ' ';
    if (BROKEN && toolTurn) delete out.reasoning_content;
    return out;
  });
  return {
    model: target.model,
    messages,
    ...(options.tools ? { tools: options.tools } : {}),
    ...(options.stream ? { stream: true } : {}),
  };
}

for await (const line of createInterface({ input: process.stdin })) {
  const request = JSON.parse(line) as BuildRequest;
  let answer: Record<string, unknown>;
  try {
    answer = { id: request.id, body: build(request) };
  } catch (err) {
    answer = { id: request.id, error: err instanceof Error ? err.message : String(err) };
  }
  process.stdout.write(JSON.stringify(answer) + '\n');
}
