import { describe, expect, it, test } from 'vitest';
import fc from 'fast-check';
import { loadRouteTable } from './load-route-table.js';
import { findRoute, resolveRoute, routeMatches } from './resolve-route.js';
import { sampleTargetForRoute } from './sample-target.js';

const table = loadRouteTable();
const route = (provider: string, host: string, model = 'some-model') => resolveRoute(table, { provider, host, model });

describe('resolveRoute on the bundled table', () => {
  it('gives aggregators all three carriers', () => {
    for (const [provider, host] of [
      ['openrouter', 'openrouter.ai'],
      ['kilocode', 'api.kilo.ai'],
      ['ai-gateway', 'ai-gateway.vercel.sh'],
      ['nous', 'inference-api.nousresearch.com'],
    ] as const) {
      expect(route(provider, host).fields, provider).toEqual(['reasoning_content', 'reasoning', 'reasoning_details']);
    }
  });

  it('gives Novita, MiniMax and Tencent reasoning_content + reasoning_details', () => {
    expect(route('novita', 'api.novita.ai').fields).toEqual(['reasoning_content', 'reasoning_details']);
    expect(route('minimax', 'api.minimax.io').fields).toEqual(['reasoning_content', 'reasoning_details']);
    expect(route('x', 'tokenhub.tencentmaas.com').fields).toEqual(['reasoning_content', 'reasoning_details']);
  });

  it('matches strict hosts first, whatever the provider id says', () => {
    const policy = route('custom', 'api.groq.com');
    expect(policy.routeId).toBe('groq');
    expect(policy.tier).toBe('strict');
    expect(policy.fields).toEqual([]);
    expect(route('x', 'hunyuan.cloud.tencent.com').tier).toBe('strict');
  });

  it('does not match a look-alike host', () => {
    expect(route('x', 'nousresearch.com.evil.io').routeId).toBe('default');
    expect(route('x', 'notmistral.ai').routeId).toBe('default');
    expect(route('x', 'eu.api.mistral.ai').routeId).toBe('mistral');
  });

  it('sends local servers reasoning_content + reasoning', () => {
    for (const host of [
      'localhost:11434',
      '127.0.0.1:8080',
      '[::1]:8000',
      '192.168.1.20',
      'gpu-box.local',
      '100.88.1.2',
      'fd7a:115c:a1e0::1',
      'host.docker.internal:11434',
      'ollama:11434',
      '169.254.10.1',
    ]) {
      expect(route('x', host).routeId, host).toBe('local');
    }
    expect(route('x', '172.32.0.1').routeId).toBe('default');
  });

  it('gives everything else reasoning_content only, as the seed tests (zai, api.openai.com)', () => {
    expect(route('openai', 'api.openai.com', 'gpt-5').fields).toEqual(['reasoning_content']);
    expect(route('zai', 'api.z.ai', 'glm-5.1').fields).toEqual(['reasoning_content']);
  });

  it('puts DeepSeek, Kimi and MiMo in the must-echo tier', () => {
    expect(route('deepseek', 'api.deepseek.com').tier).toBe('must-echo');
    expect(route('x', 'api.moonshot.cn').tier).toBe('must-echo');
    expect(route('xiaomi', 'api.xiaomimimo.com').tier).toBe('must-echo');
  });

  it('attaches vendor flags to their own route and model only', () => {
    expect(route('moonshot', 'api.moonshot.ai', 'kimi-k2.6').flags).toEqual({
      thinking: { type: 'enabled', keep: 'all' },
    });
    expect(route('zai', 'api.z.ai', 'glm-5.1').flags).toEqual({ thinking: { type: 'enabled', clear_thinking: false } });
    expect(route('dashscope', 'dashscope.aliyuncs.com', 'qwen3.6-plus').flags).toEqual({ preserve_thinking: true });
    expect(route('dashscope', 'dashscope.aliyuncs.com', 'qwen-max').flags).toEqual({});
    expect(route('deepseek', 'api.deepseek.com', 'deepseek-v4-flash').flags).toEqual({});
    expect(route('openrouter', 'openrouter.ai', 'moonshotai/kimi-k2.6').flags).toEqual({});
  });
});

/** The version rules (issue 14, item 4), checked on the bundled table at their boundaries. */
describe('vendor flags by model version', () => {
  const has = (policyFlags: Record<string, unknown>, path: string[]) =>
    path.reduce<unknown>((v, k) => (v as Record<string, unknown> | undefined)?.[k], policyFlags) !== undefined;
  it('DashScope preserve_thinking from qwen3.6 and kimi-k2.6 on, qwen3.8 included', () => {
    for (const model of [
      'qwen3.6-plus',
      'qwen3.7-max',
      'qwen3.8-max-preview',
      'qwen3.10-plus',
      'qwen4-plus',
      'kimi-k2.6',
      'kimi-k2.7',
    ])
      expect(route('dashscope', 'dashscope.aliyuncs.com', model).flags.preserve_thinking, model).toBe(true);
    for (const model of [
      'qwen3.5-plus',
      'qwen3-max',
      'qwen-plus',
      'qwen2.5-72b-instruct',
      'kimi-k2.5',
      'Moonshot-Kimi-K2-Instruct',
    ])
      expect(route('dashscope', 'dashscope.aliyuncs.com', model).flags.preserve_thinking, model).toBeUndefined();
  });

  it('Kimi keep:"all" only on k2.6 and later (k2.5 and k2-thinking have no such parameter)', () => {
    for (const model of ['kimi-k2.6', 'kimi-k2.7-code', 'kimi-k2.7-code-highspeed'])
      expect(has(route('moonshot', 'api.moonshot.ai', model).flags, ['thinking', 'keep']), model).toBe(true);
    for (const model of ['kimi-k2.5', 'kimi-k2-thinking', 'kimi-k2-0905-preview', 'moonshot-v1-8k'])
      expect(has(route('moonshot', 'api.moonshot.ai', model).flags, ['thinking', 'keep']), model).toBe(false);
  });

  it('GLM thinking from 4.5, preserved thinking (clear_thinking false) from 4.7; DashScope glm-5 on', () => {
    expect(route('zai', 'api.z.ai', 'glm-4.7').flags).toEqual({ thinking: { type: 'enabled', clear_thinking: false } });
    expect(route('zai', 'api.z.ai', 'glm-4.6').flags).toEqual({ thinking: { type: 'enabled' } });
    expect(route('zai', 'api.z.ai', 'glm-4.5-air').flags).toEqual({ thinking: { type: 'enabled' } });
    expect(route('zai', 'api.z.ai', 'glm-4-32b-0414-128k').flags).toEqual({});
    expect(route('dashscope', 'dashscope.aliyuncs.com', 'glm-5.1').flags).toEqual({ clear_thinking: false });
    expect(route('dashscope', 'dashscope.aliyuncs.com', 'glm-4.7').flags).toEqual({});
  });
});

describe('regional Vertex endpoints', () => {
  // https://cloud.google.com/vertex-ai/docs/generative-ai/learn/locations (and `global`, served by the bare host)
  const regions = [
    'us-central1',
    'us-east5',
    'europe-west4',
    'europe-southwest1',
    'asia-northeast1',
    'australia-southeast1',
    'me-central2',
    'northamerica-northeast1',
    'southamerica-east1',
  ];
  const hosts = ['aiplatform.googleapis.com', ...regions.map((r) => `${r}-aiplatform.googleapis.com`)];
  it('sends Gemini to vertex-gemini and Claude to vertex-anthropic on every regional and the global host', () => {
    for (const host of hosts) {
      expect(route('custom', host, 'gemini-3-pro-preview').routeId, host).toBe('vertex-gemini');
      expect(route('x', `https://${host}/v1/projects/p/locations/l`, 'gemini-2.5-flash').routeId, host).toBe(
        'vertex-gemini',
      );
      expect(route('x', host, 'claude-sonnet-4-5@20250929').routeId, host).toBe('vertex-anthropic');
    }
  });

  it('gives a regional Gemini its own native key, as the global one', () => {
    expect(route('x', 'europe-west4-aiplatform.googleapis.com', 'gemini-3-pro-preview').native).toBe(
      route('x', 'aiplatform.googleapis.com', 'gemini-3-pro-preview').native,
    );
  });
});

describe("upstream-model rules (from the table's own data)", () => {
  const rules = table.upstreamModels ?? [];
  it('has rules to check', () => expect(rules.length).toBeGreaterThan(0));

  it('raises each listed route to must-echo for every example model, and names the rule', () => {
    for (const rule of rules) {
      for (const on of rule.on) {
        const definition = table.routes.find((r) => r.id === on.route)!;
        for (const model of rule.examples) {
          const target = { ...sampleTargetForRoute(definition), model };
          const policy = resolveRoute(table, target);
          expect(policy.routeId, `${rule.id} ${JSON.stringify(target)}`).toBe(on.route);
          expect(policy.tier, `${rule.id} on ${on.route} with ${model}`).toBe('must-echo');
          expect(policy.upstreamRule).toBe(rule.id);
        }
      }
    }
  });

  it('leaves every route the rule does not list at its own tier', () => {
    for (const rule of rules) {
      const listed = new Set(rule.on.map((o) => o.route));
      for (const definition of table.routes.filter((r) => !listed.has(r.id))) {
        for (const model of rule.examples) {
          const target = { ...sampleTargetForRoute(definition), model };
          const policy = resolveRoute(table, target);
          if (policy.routeId !== definition.id) continue; // a model filter sends this model elsewhere
          expect(policy.tier, `${rule.id} must not raise ${definition.id}`).toBe(definition.tier);
          expect(policy.upstreamRule).toBeUndefined();
        }
      }
    }
  });

  it('never raises a strict route, whatever the model', () => {
    for (const rule of rules)
      for (const model of rule.examples) expect(route('custom', 'api.groq.com', model).tier).toBe('strict');
  });
});

describe('findRoute remembers what it found', () => {
  const hosts = table.routes.flatMap((r) => r.match.hosts ?? []).concat(['localhost:8000', 'example.com']);
  const providers = table.routes.flatMap((r) => r.match.providers ?? []).concat(['custom']);
  const models = ['gpt-5', 'claude-sonnet-4-5', 'deepseek-reasoner', 'gemini-2.5-pro', 'kimi-k2', 'some-model'];

  test('answers each target, asked once or again, with the first route whose match holds', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...providers),
        fc.constantFrom(...hosts),
        fc.constantFrom(...models),
        (provider, host, model) => {
          const target = { provider, host, model };
          const first = table.routes.find((r) => routeMatches(r, target));
          expect(findRoute(table, target)).toBe(first);
          expect(findRoute(table, { ...target })).toBe(first);
        },
      ),
    );
  });

  it('looks a table with other routes up afresh', () => {
    const target = { provider: 'groq', host: 'api.groq.com', model: 'some-model' };
    expect(findRoute(table, target).id).toBe('groq');
    const defaultOnly = { ...table, routes: table.routes.filter((r) => r.match.default) };
    expect(findRoute(defaultOnly, target)).toBe(defaultOnly.routes[0]);
  });
});
