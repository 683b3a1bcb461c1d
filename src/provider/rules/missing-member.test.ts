import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { loadProviderSpecs } from '../../shared/provider-specs/load-provider-specs.js';
import type { MessageRule } from '../../shared/provider-specs/provider-spec.js';
import { specForModel } from '../../shared/provider-specs/spec-for-model.js';
import { judgeRequest } from '../handlers/judge-request.js';
import { lacksFindings } from './missing-member.js';

const rule: MessageRule = {
  rejection: 'r',
  list: 'tools',
  lacks: { path: 'function.parameters', member: 'type', name: 'function.name' },
};
const tool = (name: string, parameters?: unknown) => ({
  type: 'function',
  function: { name, ...(parameters === undefined ? {} : { parameters }) },
});
const judge = (...tools: unknown[]) => lacksFindings(rule.lacks!, rule, tools, 'tools');

describe('an object that lacks a member', () => {
  it('refuses parameters with no type, naming the function', () => {
    expect(judge(tool('a', { type: 'object' }), tool('b', {}), tool('c', { type: null }))).toMatchObject([
      { params: { index: 1, path: 'tools.1.function.parameters', field: 'type', name: 'b' } },
      { params: { index: 2, path: 'tools.2.function.parameters', name: 'c' } },
    ]);
  });

  it('does not judge an item without the object, nor a value that is not an object', () => {
    expect(judge(tool('a'), tool('b', null), tool('c', 'x'))).toEqual([]);
  });

  it('finds nothing whenever every object has the member', () => {
    fc.assert(
      fc.property(fc.array(fc.dictionary(fc.string(), fc.jsonValue())), (extras) => {
        const tools = extras.map((extra, i) => tool(`f${i}`, { ...extra, type: 'object' }));
        expect(judge(...tools)).toEqual([]);
      }),
    );
  });

  it('DeepSeek refuses parameters {} with its own wording and takes the typed schema', () => {
    const spec = specForModel(
      loadProviderSpecs().find((s) => s.id === 'deepseek')!,
      'deepseek-v4-flash',
    );
    const body = (parameters: unknown) => ({
      model: 'deepseek-v4-flash',
      messages: [{ role: 'user', content: 'hi' }],
      tools: [tool('get_shell_config', parameters)],
    });
    const [first] = judgeRequest(spec, body({}));
    expect(first?.rejection).toBe('function-parameters-without-type');
    expect(first?.params).toMatchObject({ name: 'get_shell_config' });
    expect(judgeRequest(spec, body({ type: 'object', properties: {} }))).toEqual([]);
  });
});
