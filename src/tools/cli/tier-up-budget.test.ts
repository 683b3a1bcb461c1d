import { describe, expect, it } from 'vitest';
import { wantsRaisedTierUpBudget } from './tier-up-budget.js';

describe('which CLI runs raise V8 tier-up budget', () => {
  it('short commands do; serve, long-running, keeps V8 own budget', () => {
    expect(wantsRaisedTierUpBudget(['check', '--quiet'], {})).toBe(true);
    expect(wantsRaisedTierUpBudget(['run', '--', 'node', 'agent.js'], {})).toBe(true);
    expect(wantsRaisedTierUpBudget([], {})).toBe(true);
    expect(wantsRaisedTierUpBudget(['serve', '--port', '0'], {})).toBe(false);
    expect(wantsRaisedTierUpBudget(['--no-color', 'serve'], {})).toBe(false);
  });

  it('REASONING_REPLAY_V8_DEFAULTS=1 keeps V8 own budget everywhere', () => {
    expect(wantsRaisedTierUpBudget(['check'], { REASONING_REPLAY_V8_DEFAULTS: '1' })).toBe(false);
  });
});
