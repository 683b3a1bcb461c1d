import { describe, expect, it } from 'vitest';
import { loadRouteTable } from './load-route-table.js';
import { resolveRoute } from './resolve-route.js';

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
    for (const host of ['localhost:11434', '127.0.0.1:8080', '[::1]:8000', '192.168.1.20', 'gpu-box.local']) {
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
    expect(route('moonshot', 'api.moonshot.ai', 'kimi-k2.6').flags).toEqual({ thinking: { type: 'enabled', keep: 'all' } });
    expect(route('zai', 'api.z.ai', 'glm-5.1').flags).toEqual({ thinking: { type: 'enabled', clear_thinking: false } });
    expect(route('dashscope', 'dashscope.aliyuncs.com', 'qwen3.6-plus').flags).toEqual({ preserve_thinking: true });
    expect(route('dashscope', 'dashscope.aliyuncs.com', 'qwen-max').flags).toEqual({});
    expect(route('deepseek', 'api.deepseek.com', 'deepseek-v4-flash').flags).toEqual({});
  });
});
