import { describe, expect, it } from 'vitest';
import type { History } from '../../shared/history/history.js';
import type { ProviderSpec } from '../../shared/provider-specs/provider-spec.js';
import { loadRouteTable } from '../../shared/route-table/load-route-table.js';
import { resolveRoute } from '../../shared/route-table/resolve-route.js';
import { checkSignaturesVerbatim } from './cell-checks.js';

const policy = resolveRoute(loadRouteTable(), {
  provider: 'anthropic',
  host: 'api.anthropic.com',
  model: 'claude-fable-5-2',
});
const spec = { id: 'anthropic', label: 'Anthropic' } as ProviderSpec;
const history: History = {
  messages: [
    { role: 'user', content: 'Bergen?' },
    {
      role: 'assistant',
      content: 'Rainy.',
      reasoning_details: [{ type: 'thinking', thinking: 'wet city', signature: 'sig-written-by-5-1' }],
    },
    { role: 'user', content: 'Oslo?' },
  ],
};
// The request to claude-fable-5-2 without the 5.1 block: what an engine that respects the model binding sends.
const body = {
  model: 'claude-fable-5-2',
  messages: [
    { role: 'user', content: [{ type: 'text', text: 'Bergen?' }] },
    { role: 'assistant', content: [{ type: 'text', text: 'Rainy.' }] },
    { role: 'user', content: [{ type: 'text', text: 'Oslo?' }] },
  ],
};

describe('signatures-verbatim and thinking bound to another model', () => {
  it('a block left out for lack of a reason is reasoning lost', () => {
    const problems = checkSignaturesVerbatim({ call: 1, history, body, policy, spec });
    expect(problems.map((p) => p.behaviour)).toEqual(['signatures-verbatim']);
  });

  it('a block a binding model wrote for another model may be left out', () => {
    expect(checkSignaturesVerbatim({ call: 1, history, body, policy, spec, boundElsewhere: new Set([1]) })).toEqual([]);
  });
});
