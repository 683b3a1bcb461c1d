// An external engine for `reasoning-replay check --engine "node --import tsx examples/engines/ts-engine.ts"`, in
// TypeScript: the same JSON-lines protocol, the same small route table and the same operations as python_engine.py
// (see that file for the table, the operations and the --broken=<rule> switches). `--build-only` answers the
// handshake with no operations; `--broken` alone plants must-echo and strict-schema.
import { createInterface } from 'node:readline';

interface Target {
  provider: string;
  host: string;
  model: string;
  family: string;
  baseUrl: string;
  path: string;
}
type Detail = Record<string, unknown> & { type?: string; index?: number; text?: string; data?: string };
type Message = Record<string, unknown> & {
  role: string;
  content?: unknown;
  tool_calls?: unknown[];
  reasoning_content?: string;
  reasoning?: string;
  reasoning_details?: Detail[];
};
interface Request {
  id: number;
  type: string;
  session?: string;
  target: Target;
  history: { messages: Message[] };
  options?: { stream?: boolean; tools?: unknown[] };
  attempt?: number;
  response: { status: number; body: unknown };
}

const ARGS = process.argv.slice(2);
const BROKEN = new Set(ARGS.filter((a) => a.startsWith('--broken=')).map((a) => a.slice('--broken='.length)));
if (ARGS.includes('--broken')) ['must-echo', 'strict-schema'].forEach((r) => BROKEN.add(r));
const BUILD_ONLY = ARGS.includes('--build-only');

type Tier = 'strict' | 'must-echo' | 'standard';
interface Route {
  providers: string[];
  hosts: string[];
  tier: Tier;
  fields: string[];
}
const CARRIERS = ['reasoning_content', 'reasoning', 'reasoning_details'];
/** Members of a history message that are the harness's record, never the wire's: the native carrier and its author. */
const HISTORY_ONLY = ['native', 'produced_by'];
const ROUTES: Route[] = [
  {
    providers: ['mistral', 'groq', 'cerebras', 'sambanova', 'hunyuan'],
    hosts: ['mistral.ai', 'groq.com', 'cerebras.ai', 'sambanova.ai', 'hunyuan.cloud.tencent.com'],
    tier: 'strict',
    fields: [],
  },
  {
    providers: ['deepseek', 'moonshot', 'kimi', 'xiaomi', 'mimo'],
    hosts: ['api.deepseek.com', 'moonshot.ai', 'moonshot.cn', 'api.kimi.com', 'xiaomimimo.com'],
    tier: 'must-echo',
    fields: ['reasoning_content'],
  },
  {
    providers: ['openrouter', 'kilocode', 'ai-gateway', 'nous'],
    hosts: ['openrouter.ai', 'kilo.ai', 'ai-gateway.vercel.sh', 'nousresearch.com'],
    tier: 'standard',
    fields: CARRIERS,
  },
  // OpenAI's own Chat Completions rejects reasoning_content as an unknown parameter.
  { providers: ['openai'], hosts: ['api.openai.com'], tier: 'standard', fields: [] },
];
// Ollama reads `reasoning`, llama.cpp and vLLM `reasoning_content`: local servers get both.
const LOCAL: Route = {
  providers: ['ollama-cloud', 'ollama', 'lmstudio', 'custom', 'vllm', 'llamacpp'],
  hosts: ['ollama.com'],
  tier: 'standard',
  fields: ['reasoning_content', 'reasoning'],
};
ROUTES.push(LOCAL);
const DEFAULT: Route = { providers: [], hosts: [], tier: 'standard', fields: ['reasoning_content'] };
const PHRASINGS = [
  'extra inputs are not permitted',
  'is unsupported',
  'unknown parameter',
  'unrecognized request argument',
  'unknown field',
  'unrecognized field',
  'no such field',
  'unexpected field',
  'additional propert',
  'unknown key',
  'cannot find field',
  'extraneous key',
];

function plainHost(host: string): string {
  let h = host.trim().toLowerCase();
  if (h.startsWith('[')) return h.slice(1, h.indexOf(']'));
  if ((h.match(/:/g) ?? []).length === 1) h = h.split(':')[0]!;
  return h.replace(/\.$/, '');
}

function hostMatches(host: string, pattern: string): boolean {
  if (BROKEN.has('host-suffix')) return plainHost(host).endsWith(pattern);
  const h = plainHost(host);
  return h === pattern || h.endsWith(`.${pattern}`);
}

function isLocal(host: string): boolean {
  const h = plainHost(host);
  return (
    ['localhost', '::1'].includes(h) ||
    /^(127|10|192\.168)\./.test(h) ||
    !h.includes('.') ||
    ['.local', '.localhost', '.internal'].some((s) => h.endsWith(s))
  );
}

function routeFor(target: Target): Route {
  const provider = target.provider.trim().toLowerCase();
  const route = ROUTES.find((r) => r.providers.includes(provider) || r.hosts.some((h) => hostMatches(target.host, h)));
  return route ?? (isLocal(target.host) ? LOCAL : DEFAULT);
}

const nonBlank = (s: unknown): s is string => typeof s === 'string' && s.trim() !== '';

function readableReasoning(m: Message): string | undefined {
  if (nonBlank(m.reasoning_content)) return m.reasoning_content;
  if (nonBlank(m.reasoning)) return m.reasoning;
  // --broken=typed-items: reasoning held only as readable items is not read, so the pad replaces it.
  if (BROKEN.has('typed-items')) return undefined;
  // Readable typed items: OpenRouter's text and summary items, and Anthropic thinking blocks.
  const texts = (m.reasoning_details ?? [])
    .filter((d) => d.type === 'reasoning.text' || d.type === 'reasoning.summary' || d.type === 'thinking')
    .map((d) => (d.text ?? d.summary ?? d.thinking) as string | undefined);
  return texts.filter(Boolean).join('') || undefined;
}

/** Kimi K2.6 up to (not including) 3: the models that take thinking.keep. */
function kimiKeepsThinking(model: string): boolean {
  const found = /kimi-k(\d+(?:[.p]\d+)?)/.exec(model);
  if (!found) return false;
  const version = Number(found[1]!.replace('p', '.'));
  return version >= 2.6 && version < 3;
}

function build(
  target: Target,
  history: Request['history'],
  options: Request['options'] = {},
  withheld = new Set<string>(),
) {
  if (target.family !== 'openai-chat')
    throw new Error(`this example only builds openai-chat bodies, not ${target.family}`);
  const { tier } = routeFor(target);
  let fields = routeFor(target).fields;
  if (tier === 'strict' && BROKEN.has('strict-schema')) fields = ['reasoning_content'];
  fields = fields.filter((f) => !withheld.has(f) || (f === 'reasoning_content' && tier === 'must-echo'));
  const messages = history.messages.map((message) => {
    const out: Record<string, unknown> = Object.fromEntries(
      Object.entries(message).filter(([k]) => !CARRIERS.includes(k) && !HISTORY_ONLY.includes(k)),
    );
    if (message.role !== 'assistant') return out;
    for (const field of fields) {
      // The two readable carriers are aliases: a turn stored with either one sends its text as both.
      const readable = field === 'reasoning_content' || field === 'reasoning';
      const value = readable ? readableReasoning(message) : message[field];
      if (value !== undefined && value !== null && value !== '' && !(Array.isArray(value) && value.length === 0))
        out[field] = value;
    }
    const toolTurn = Array.isArray(out.tool_calls) && out.tool_calls.length > 0;
    if (tier === 'must-echo' && (toolTurn || BROKEN.has('pad-scope')) && out.reasoning_content === undefined)
      out.reasoning_content = ' ';
    if (BROKEN.has('must-echo') && toolTurn) delete out.reasoning_content;
    return out;
  });
  return {
    model: target.model,
    messages,
    // Kimi K2.6 and later 2.x keep earlier turns' thinking only when asked (Moonshot's thinking-model guide); without
    // the flag the reasoning the history holds is dropped in silence.
    ...(tier === 'must-echo' && kimiKeepsThinking(target.model) ? { thinking: { type: 'enabled', keep: 'all' } } : {}),
    ...(options.tools ? { tools: options.tools } : {}),
    ...(options.stream ? { stream: true } : {}),
  };
}

const sentCarriers = (body: { messages: Array<Record<string, unknown>> }) =>
  new Set(body.messages.flatMap((m) => CARRIERS.filter((k) => k in m)));

/** The seed's rule: a 4xx whose text has an unknown-field phrasing and names a carrier that was sent. */
function refusedFields(status: number, error: unknown, sent: Set<string>, tier: Tier): string[] {
  if (!((status >= 400 && status <= 499) || (BROKEN.has('fallback-5xx') && status >= 500))) return [];
  const text = (typeof error === 'string' ? error : JSON.stringify(error)).toLowerCase();
  if (!PHRASINGS.some((p) => text.includes(p))) return [];
  const named = CARRIERS.filter(
    (f) => sent.has(f) && text.includes(f) && !(tier === 'must-echo' && f === 'reasoning_content'),
  );
  if (named.includes('reasoning_content'))
    return CARRIERS.filter((f) => !(tier === 'must-echo' && f === 'reasoning_content'));
  return named.length > 0 ? [...new Set([...named, 'reasoning', 'reasoning_details'])].sort() : [];
}

const verdictKey = (t: Target) => JSON.stringify([t.provider.trim().toLowerCase(), plainHost(t.host), t.model]);
const sessions = new Map<string, Map<string, Set<string>>>();
// --broken=session-leak: every session shares one verdict store, so a verdict leaks into the next session.
const sessionKey = (session: string) => (BROKEN.has('session-leak') ? 'shared' : session);
function withheldFor(session: string, target: Target): Set<string> {
  if (!sessions.has(sessionKey(session))) sessions.set(sessionKey(session), new Map());
  return sessions.get(sessionKey(session))!.get(verdictKey(target)) ?? new Set();
}

/** Retry once without a carrier the provider refused as unknown; give up otherwise (and on a refused retry). */
function rejected(r: Request): Record<string, unknown> {
  if ((r.attempt ?? 1) > 1) return { retry: false };
  const previous = withheldFor(r.session!, r.target);
  const body = build(r.target, r.history, r.options, previous);
  const refused = refusedFields(r.response.status, r.response.body, sentCarriers(body), routeFor(r.target).tier).filter(
    (f) => !previous.has(f),
  );
  if (refused.length === 0) return { retry: false };
  const now = new Set([...previous, ...refused]);
  sessions.get(sessionKey(r.session!))!.set(verdictKey(r.target), now);
  return { body: build(r.target, r.history, r.options, now), withheld: refused };
}

function mergeDetail(items: Detail[], piece: Detail): void {
  const item = items.find((d) => piece.index !== undefined && d.index === piece.index);
  if (!item) {
    items.push({ ...piece });
    return;
  }
  for (const [key, value] of Object.entries(piece)) {
    if ((key === 'text' || key === 'summary' || key === 'data') && typeof value === 'string') {
      if (key === 'data' && BROKEN.has('stream-join') && item.data) continue;
      item[key] = `${(item[key] as string | undefined) ?? ''}${value}`;
    } else if (key === 'signature') {
      if (value) item[key] = value;
    } else if (item[key] === undefined || item[key] === null) item[key] = value;
  }
}

type ChatMessage = Record<string, unknown> & {
  tool_calls?: Array<{ id: string; function: { name: string; arguments: string } }>;
};

/** A chat answer (a JSON body, or the text of an SSE stream) as the assistant message for history. */
function read(r: Request): Message {
  if (r.target.family !== 'openai-chat') throw new Error('this example only reads openai-chat answers');
  const body = r.response.body;
  if (typeof body !== 'string') {
    const m = (body as { choices: Array<{ message: ChatMessage }> }).choices[0]!.message;
    const out: Message = { role: 'assistant', content: m.content ?? null };
    for (const key of ['reasoning_content', 'reasoning', 'reasoning_details'])
      if (m[key] !== undefined && m[key] !== null) out[key] = m[key];
    if (m.tool_calls?.length)
      out.tool_calls = m.tool_calls.map((c) => ({
        id: c.id,
        type: 'function',
        function: { name: c.function.name, arguments: c.function.arguments },
      }));
    return out;
  }
  let content = '';
  const texts: Record<string, string> = {};
  const details: Detail[] = [];
  const calls = new Map<number, { id?: string; name: string; arguments: string }>();
  for (const line of body.split('\n')) {
    if (!line.startsWith('data:')) continue;
    const data = line.slice(5).trim();
    if (data === '[DONE]') break;
    const chunk = JSON.parse(data) as { choices?: Array<{ index?: number; delta?: Record<string, unknown> }> };
    for (const choice of chunk.choices ?? []) {
      if ((choice.index ?? 0) !== 0) continue;
      const delta = choice.delta ?? {};
      if (typeof delta.content === 'string') content += delta.content;
      for (const key of ['reasoning_content', 'reasoning'])
        if (typeof delta[key] === 'string') texts[key] = (texts[key] ?? '') + (delta[key] as string);
      for (const piece of (delta.reasoning_details as Detail[] | undefined) ?? []) mergeDetail(details, piece);
      for (const piece of (delta.tool_calls as Array<Record<string, unknown>> | undefined) ?? []) {
        const index = typeof piece.index === 'number' ? piece.index : 0;
        const call = calls.get(index) ?? { name: '', arguments: '' };
        if (typeof piece.id === 'string') call.id = piece.id;
        const fn = (piece.function ?? {}) as { name?: string; arguments?: string };
        call.name += fn.name ?? '';
        call.arguments += fn.arguments ?? '';
        calls.set(index, call);
      }
    }
  }
  const out: Message = { role: 'assistant', content: content === '' ? null : content, ...texts };
  if (calls.size > 0)
    out.tool_calls = [...calls.entries()]
      .sort(([a], [b]) => a - b)
      .map(([i, c]) => ({
        id: c.id ?? `call_${i}`,
        type: 'function',
        function: { name: c.name, arguments: c.arguments },
      }));
  if (details.length > 0) out.reasoning_details = details;
  return out;
}

function answer(r: Request): Record<string, unknown> {
  if (r.type === 'hello') return { capabilities: BUILD_ONLY ? [] : ['fallback', 'read', 'stream'] };
  if (r.type === 'build') return { body: build(r.target, r.history, r.options, withheldFor(r.session!, r.target)) };
  if (r.type === 'rejected' && !BUILD_ONLY) return rejected(r);
  if (r.type === 'read' && !BUILD_ONLY) return { message: read(r) };
  throw new Error(`this example does not implement ${r.type}`);
}

for await (const line of createInterface({ input: process.stdin })) {
  const request = JSON.parse(line) as Request;
  let reply: Record<string, unknown>;
  try {
    reply = { id: request.id, ...answer(request) };
  } catch (err) {
    reply = { id: request.id, error: err instanceof Error ? err.message : String(err) };
  }
  process.stdout.write(JSON.stringify(reply) + '\n');
}
