import { describe, expect, it } from 'vitest';
import { loadProviderSpecs } from '../../shared/provider-specs/load-provider-specs.js';
import type { MessageRule } from '../../shared/provider-specs/provider-spec.js';
import { specForModel } from '../../shared/provider-specs/spec-for-model.js';
import { judgeRequest } from '../handlers/judge-request.js';
import { uniformFindings } from './uniform-values.js';

const rule: MessageRule = { rejection: 'r', list: 'tools', uniform: { path: 'function.strict' } };
const tool = (strict?: boolean) => ({
  type: 'function',
  function: { name: 'f', parameters: { type: 'object' }, ...(strict === undefined ? {} : { strict }) },
});
const judge = (...tools: unknown[]) => uniformFindings(rule.uniform!, rule, tools, 'tools');

describe('one value across a list', () => {
  it('refuses mixed values, naming the first item that differs', () => {
    expect(judge(tool(true), tool(true), tool(false))).toMatchObject([
      { params: { index: 2, path: 'tools.2.function.strict', field: 'strict' } },
    ]);
  });

  it('takes one value everywhere, and does not count items without it', () => {
    expect(judge(tool(true), tool(true))).toEqual([]);
    expect(judge(tool(false), tool(), tool(false))).toEqual([]);
    expect(judge()).toEqual([]);
  });

  it('Cerebras answers 422', () => {
    const spec = specForModel(
      loadProviderSpecs().find((s) => s.id === 'cerebras')!,
      'zai-glm-4.6',
    );
    const body = {
      model: 'zai-glm-4.6',
      messages: [{ role: 'user', content: 'hi' }],
      tools: [tool(true), tool(false)],
    };
    const [first] = judgeRequest(spec, body);
    expect(spec.rejections[first!.rejection]).toMatchObject({ status: 422 });
  });
});
