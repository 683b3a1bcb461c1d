import { describe, expect, it } from 'vitest';
import { scenarioAppliesTo, takesNoTools, type ScenarioTarget } from './applicability.js';
import type { Scenario } from './scenario.js';

const scenario = (tools?: unknown[]): Scenario => ({ id: 's', title: 's', steps: [], ...(tools ? { tools } : {}) });
const r1: ScenarioTarget = {
  id: 'bedrock-deepseek-r1',
  family: 'bedrock-converse',
  target: { model: 'us.deepseek.r1-v1:0' },
  models: { refuses: [{ match: 'deepseek\\.r1', tools: true }] },
};

describe('scenario applicability', () => {
  it('a scenario that declares tools does not apply to a model that takes none', () => {
    expect(takesNoTools(r1)).toBe(true);
    expect(scenarioAppliesTo(scenario([{ name: 'f' }]), r1)).toBe(false);
    expect(scenarioAppliesTo(scenario(), r1)).toBe(true);
    expect(scenarioAppliesTo(scenario([]), r1)).toBe(true);
  });

  it('only a refusal marked as one of tools, of the target model, counts', () => {
    const other = { ...r1, target: { model: 'us.deepseek.v3-v1:0' } };
    const unmarked = { ...r1, models: { refuses: [{ match: 'deepseek\\.r1' }] } };
    for (const target of [other, unmarked, { id: 'x', family: 'bedrock-converse' } as ScenarioTarget]) {
      expect(takesNoTools(target)).toBe(false);
      expect(scenarioAppliesTo(scenario([{ name: 'f' }]), target)).toBe(true);
    }
  });

  it('families and providers still narrow it', () => {
    expect(scenarioAppliesTo({ ...scenario(), families: ['gemini'] }, r1)).toBe(false);
    expect(scenarioAppliesTo({ ...scenario(), providers: ['bedrock-claude'] }, r1)).toBe(false);
  });
});
