import { describe, expect, it } from 'vitest';
import type { RouteTable } from '../../../shared/route-table/route-table.js';
import { describeRouteTableDiff } from './describe-route-table-diff.js';

const table = (models?: string[]): RouteTable => ({
  version: 1,
  routes: [
    {
      id: 'responses',
      label: 'Responses',
      match: { providers: ['openai-responses'] },
      family: 'openai-responses',
      tier: 'standard',
      fields: ['reasoning_details'],
      ...(models ? { withoutReasoning: { models, sources: ['https://example.test'] } } : {}),
    },
    { id: 'default', label: 'Default', match: { default: true }, family: 'openai-chat', tier: 'standard', fields: [] },
  ],
});

describe('describeRouteTableDiff: which models are asked for no reasoning', () => {
  it('says a withoutReasoning change in words, as a behavioural change the gate runs', () => {
    expect(describeRouteTableDiff(table(['gpt-4', 'gpt-5-chat']), table(['gpt-4']))).toEqual([
      {
        route: 'responses',
        kind: 'policy',
        pointer: '/routes/0/withoutReasoning',
        behavioural: true,
        text: 'route responses asks no reasoning of models "gpt-4" (was "gpt-4", "gpt-5-chat")',
      },
    ]);
    expect(describeRouteTableDiff(table(['gpt-4']), table()).map((c) => [c.pointer, c.text])).toEqual([
      ['/routes/0', 'route responses asks no reasoning of models none (was "gpt-4")'],
    ]);
  });

  it('says nothing when only its sources or notes change', () => {
    const noted = table(['gpt-4']);
    noted.routes[0]!.withoutReasoning!.notes = 'why';
    expect(describeRouteTableDiff(table(['gpt-4']), noted)).toEqual([]);
  });
});
