import { describe, expect, it } from 'vitest';
import { inlineValidator } from '../validation/validate.js';
import type { History } from '../history/history.js';
import { fillRejection } from '../../provider/handlers/fill-rejection.js';
import { judgeRequestSchema } from '../../provider/rules/request-schema-judge.js';
import { replayForRoute } from '../../engine/replay/replay-for-route.js';
import { loadRouteTable } from '../route-table/load-route-table.js';
import { findRoute, resolveRoute } from '../route-table/resolve-route.js';
import { loadProviderSpecs } from './load-provider-specs.js';
import { specHost, type ProviderSpec } from './provider-spec.js';

/**
 * The bundled provider rules (specs/providers/*.json): that they load, that every rejection says
 * where its wording comes from, that they cover every route (the staleness canary), and that
 * their request schemas say what the provider really does: strict ones refuse one extra key,
 * lenient ones let it through, and each vendor flag is accepted by its own provider only.
 */
const specs = loadProviderSpecs();
const table = loadRouteTable();
const byId = new Map(specs.map((s) => [s.id, s]));
const spec = (id: string): ProviderSpec => {
  const found = byId.get(id);
  if (!found) throw new Error(`no provider spec ${id}`);
  return found;
};
const targetOf = (s: ProviderSpec) => ({ provider: s.target.provider, host: specHost(s), model: s.target.model });
const accepts = (s: ProviderSpec, body: unknown): boolean => inlineValidator(s.request.schema)(body) === true;

/** A body as the replay engine would shape it, with one extra key on the assistant tool-call turn. */
function bodyWithMessageKey(s: ProviderSpec, key: string, value: unknown): Record<string, unknown> {
  return {
    model: s.target.model,
    messages: [
      { role: 'system', content: 'You are terse.' },
      { role: 'user', content: 'Weather in Lisbon?' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          { id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Lisbon"}' } },
        ],
        [key]: value,
      },
      { role: 'tool', tool_call_id: 'call_1', content: '{"condition":"rain"}' },
    ],
  };
}

/**
 * Providers a public source shows refusing an unknown key. SambaNova and Hunyuan are strict in the route table, but no
 * source shows them closed, so their specs stay open.
 */
const STRICT = ['mistral', 'groq', 'cerebras', 'fireworks', 'openai'];
const LENIENT = [
  'sambanova',
  'hunyuan',
  'deepseek',
  'moonshot',
  'mimo',
  'openrouter',
  'kilo',
  'vercel-ai-gateway',
  'nous-portal',
  'novita',
  'minimax',
  'tencent-tokenhub',
  'zhipu-glm',
  'dashscope',
  'ollama-cloud',
  'ollama-local',
  'llama-cpp-local',
  'vllm-local',
];

describe('bundled provider specs', () => {
  it('includes every OpenAI-chat provider the issue names', () => {
    for (const id of [...STRICT, ...LENIENT]) expect(byId.has(id), id).toBe(true);
  });

  it('compile as JSON Schemas and target the family of the route they land on', () => {
    for (const s of specs) {
      expect(() => inlineValidator(s.request.schema), s.id).not.toThrow();
      expect(resolveRoute(table, targetOf(s)).family, s.id).toBe(s.family);
    }
  });

  it('cite a source for every verbatim rejection and a note for every unknown one', () => {
    for (const s of specs) {
      for (const [id, r] of Object.entries(s.rejections)) {
        if (r.wording === 'verbatim') expect(r.sources.length, `${s.id} ${id} has no source`).toBeGreaterThan(0);
        else expect(r.notes ?? '', `${s.id} ${id} is unknown without a note`).not.toBe('');
      }
    }
  });

  it('back every required echo with a missing-reasoning rejection and a source', () => {
    const required = specs.flatMap((s) => s.echo.filter((e) => e.level === 'required').map((e) => [s, e] as const));
    for (const [s, e] of required) {
      expect(s.rejections[e.rejection ?? ''], `${s.id}: required echo of ${e.field} without a rejection`).toBeDefined();
      expect(e.source, s.id).toMatch(/^https:\/\//);
    }
    // On OpenAI-chat routes only the must-echo providers answer 400 for missing reasoning.
    const chatRequired = required.filter(([s]) => s.family === 'openai-chat');
    expect([...new Set(chatRequired.map(([s]) => s.id))].sort()).toEqual(['deepseek', 'mimo', 'moonshot']);
    for (const [s, e] of chatRequired) expect(s.rejections[e.rejection!]!.kind, s.id).toBe('missing-reasoning');
  });
});

describe('staleness canary: every route has a provider spec', () => {
  it('resolves each route of specs/routes.json from at least one spec target', () => {
    const covered = new Set(specs.map((s) => findRoute(table, targetOf(s)).id));
    const missing = table.routes.map((r) => r.id).filter((id) => !covered.has(id));
    // A new route needs a specs/providers/<id>.json whose target (provider, host of baseUrl, model) resolves to it.
    expect(missing, `routes without a provider spec: ${missing.join(', ')}`).toEqual([]);
  });

  it('lands the named targets on their intended routes', () => {
    const expected: Record<string, string> = {
      deepseek: 'deepseek',
      moonshot: 'kimi',
      mimo: 'mimo',
      fireworks: 'fireworks',
      'zhipu-glm': 'zai-glm',
      dashscope: 'dashscope',
      'ollama-cloud': 'self-hosted',
      'llama-cpp-local': 'local',
      openai: 'default',
      hunyuan: 'hunyuan',
      'tencent-tokenhub': 'tencent-tokenhub',
    };
    for (const [id, route] of Object.entries(expected)) expect(findRoute(table, targetOf(spec(id))).id, id).toBe(route);
  });
});

describe('request schemas', () => {
  it('strict providers refuse reasoning_details on a message, naming the message', () => {
    for (const id of STRICT) {
      const s = spec(id);
      const findings = judgeRequestSchema(
        s,
        bodyWithMessageKey(s, 'reasoning_details', [{ type: 'reasoning.text', text: 'x' }]),
      );
      expect(findings[0]?.rejection, id).toBe(s.request.unknownFieldRejection);
      expect(findings[0]?.params, id).toMatchObject({ index: 2, role: 'assistant', field: 'reasoning_details' });
    }
  });

  it('strict providers refuse reasoning_content, except Fireworks whose closed schema lists it', () => {
    for (const id of STRICT) {
      const s = spec(id);
      expect(accepts(s, bodyWithMessageKey(s, 'reasoning_content', 'Call get_weather.')), id).toBe(id === 'fireworks');
    }
  });

  it('lenient providers ignore keys they do not read', () => {
    for (const id of LENIENT) {
      const s = spec(id);
      expect(accepts(s, bodyWithMessageKey(s, 'some_future_key', 'x')), id).toBe(true);
    }
  });

  it('Mistral closes each role to its own keys: name is refused on a user message', () => {
    const s = spec('mistral');
    const body = { model: s.target.model, messages: [{ role: 'user', content: 'hi', name: 'ann' }] };
    expect(judgeRequestSchema(s, body)[0]?.params).toMatchObject({ index: 0, role: 'user', field: 'name' });
    expect(
      accepts(s, {
        model: s.target.model,
        messages: [{ role: 'tool', content: '{}', tool_call_id: 'c', name: 'get_weather' }],
      }),
    ).toBe(true);
  });

  it('accepts the plain request the route table builds for it, vendor flags included', () => {
    const history: History = {
      messages: [
        { role: 'user', content: 'Weather in Lisbon?' },
        {
          role: 'assistant',
          content: null,
          tool_calls: [
            { id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Lisbon"}' } },
          ],
        },
        { role: 'tool', tool_call_id: 'call_1', content: '{"condition":"rain"}' },
      ],
    };
    const tools = [{ type: 'function', function: { name: 'get_weather', parameters: { type: 'object' } } }];
    for (const s of specs.filter((x) => x.family === 'openai-chat')) {
      const { body } = replayForRoute(history, resolveRoute(table, targetOf(s)), { tools, stream: true });
      const validate = inlineValidator(s.request.schema);
      expect(validate(body), `${s.id}: ${JSON.stringify(validate.errors)}`).toBe(true);
    }
  });

  it('takes each vendor flag on its own provider and refuses it on strict ones', () => {
    const base = (s: ProviderSpec) => ({ model: s.target.model, messages: [{ role: 'user', content: 'hi' }] });
    expect(accepts(spec('moonshot'), { ...base(spec('moonshot')), thinking: { type: 'enabled', keep: 'all' } })).toBe(
      true,
    );
    expect(accepts(spec('moonshot'), { ...base(spec('moonshot')), thinking: { type: 'enabled', keep: 'some' } })).toBe(
      false,
    );
    expect(
      accepts(spec('zhipu-glm'), { ...base(spec('zhipu-glm')), thinking: { type: 'enabled', clear_thinking: false } }),
    ).toBe(true);
    expect(accepts(spec('dashscope'), { ...base(spec('dashscope')), preserve_thinking: true })).toBe(true);
    for (const id of STRICT) {
      const s = spec(id);
      for (const flag of [
        { thinking: { type: 'enabled', keep: 'all' } },
        { preserve_thinking: true },
        { clear_thinking: false },
      ]) {
        expect(accepts(s, { ...base(s), ...flag }), `${id} ${JSON.stringify(flag)}`).toBe(false);
      }
    }
  });
});

describe('rejection bodies as the mock fills them', () => {
  const unfilled = (body: unknown) => JSON.stringify(body).match(/\{(index|field|role|path)\}/g) ?? [];

  it('leave no placeholder behind for a message-level unknown key', () => {
    for (const s of specs) {
      const id = s.request.unknownFieldRejection;
      if (!id) continue;
      const { body } = fillRejection(s.rejections[id]!, {
        index: 2,
        role: 'assistant',
        field: 'reasoning_content',
        path: 'messages.2.reasoning_content',
      });
      expect(unfilled(body), s.id).toEqual([]);
    }
  });

  it('leave no placeholder behind for a top-level unknown key', () => {
    for (const s of specs) {
      const id = s.request.unknownTopLevelRejection;
      if (!id) continue;
      const { body } = fillRejection(s.rejections[id]!, { field: 'thinking', path: 'thinking' });
      expect(unfilled(body), s.id).toEqual([]);
    }
  });

  it('reproduces the quoted provider errors', () => {
    const params = {
      index: 2,
      role: 'assistant',
      field: 'reasoning_content',
      path: 'messages.2.reasoning_content',
      param: 'messages[2].reasoning_content',
    };
    const fill = (id: string) => {
      const s = spec(id);
      return fillRejection(s.rejections[s.request.unknownFieldRejection!]!, params);
    };
    expect(fill('mistral')).toMatchObject({
      status: 422,
      body: {
        detail: [
          {
            type: 'extra_forbidden',
            loc: ['body', 'messages', 2, 'assistant', 'reasoning_content'],
            msg: 'Extra inputs are not permitted',
          },
        ],
      },
    });
    expect(fill('groq').body).toEqual({
      error: {
        message:
          "'messages.2' : for 'role:assistant' the following must be satisfied[('messages.2' : property 'reasoning_content' is unsupported)]",
        type: 'invalid_request_error',
      },
    });
    expect(fill('cerebras').body).toMatchObject({
      message:
        "messages.2.assistant.reasoning_content: property 'messages.2.assistant.reasoning_content' is unsupported",
      code: 'wrong_api_format',
    });
    expect(fill('openai').body).toEqual({
      error: {
        message: "Unknown parameter: 'messages[2].reasoning_content'.",
        type: 'invalid_request_error',
        param: 'messages[2].reasoning_content',
        code: 'unknown_parameter',
      },
    });
    const kimi = spec('moonshot');
    expect(fillRejection(kimi.rejections[kimi.echo[0]!.rejection!]!, { index: 7 }).body).toEqual({
      error: {
        message: 'thinking is enabled but reasoning_content is missing in assistant tool call message at index 7',
        type: 'invalid_request_error',
      },
    });
  });
});

/**
 * Issue 40: the Cerebras mock refused two parameters its reasoning guide documents and the real API takes
 * (https://inference-docs.cerebras.ai/capabilities/reasoning); a key the guide does not name is still refused.
 */
describe('Cerebras takes its documented reasoning parameters', () => {
  const cerebras = specs.find((s) => s.id === 'cerebras')!;
  const body = (extra: Record<string, unknown>) => ({
    model: 'zai-glm-4.7',
    messages: [{ role: 'user', content: 'hi' }],
    ...extra,
  });

  it('accepts reasoning_format (each documented value) and disable_reasoning', () => {
    for (const format of ['parsed', 'raw', 'hidden', 'none'])
      expect(judgeRequestSchema(cerebras, body({ reasoning_format: format })), format).toEqual([]);
    expect(judgeRequestSchema(cerebras, body({ disable_reasoning: true }))).toEqual([]);
  });

  it('refuses a reasoning_format the guide does not list, and keys it does not name', () => {
    expect(judgeRequestSchema(cerebras, body({ reasoning_format: 'text_parsed' }))).not.toEqual([]);
    expect(judgeRequestSchema(cerebras, body({ enable_thinking: false }))).not.toEqual([]);
  });
});
