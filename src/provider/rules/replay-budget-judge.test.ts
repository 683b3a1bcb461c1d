import { describe, expect, it, test } from 'vitest';
import fc from 'fast-check';
import { defaultProvidersDir, loadProviderSpec } from '../../shared/provider-specs/load-provider-specs.js';
import { judgeRequest } from '../handlers/judge-request.js';
import { fillRejection } from '../handlers/fill-rejection.js';
import { judgeReplayBudget } from './replay-budget-judge.js';

const nous = loadProviderSpec(`${defaultProvidersDir()}/nous-portal.json`);
const budget = nous.replayBudget!;
const detail = [{ type: 'reasoning.text', text: 'Look it up.', format: 'unknown', index: 0 }];

/** A session of `turns` assistant turns; `carrying(i)` says whether turn i replays its reasoning_details. */
function session(turns: number, carrying: (i: number) => boolean) {
  const messages: Array<Record<string, unknown>> = [{ role: 'user', content: 'Start.' }];
  for (let i = 0; i < turns; i++) {
    messages.push({ role: 'assistant', content: `Step ${i}.`, ...(carrying(i) ? { reasoning_details: detail } : {}) });
    messages.push({ role: 'user', content: 'Go on.' });
  }
  return { model: nous.target.model, messages };
}

describe('Nous Portal: a budget on replayed reasoning_details (hermes-agent#118182)', () => {
  it('takes the budget, and refuses the first assistant message over it with the Portal wording', () => {
    expect(
      judgeRequest(
        nous,
        session(budget.maxMessages, () => true),
      ),
    ).toEqual([]);
    const over = session(budget.maxMessages + 1, () => true);
    const findings = judgeRequest(nous, over);
    expect(findings.map((f) => f.rejection)).toEqual(['replayed-reasoning-over-budget']);
    // Message 0 is the user's; assistant turn i sits at 2i + 1.
    expect(findings[0]!.params.index).toBe(2 * budget.maxMessages + 1);
    const { status, body } = fillRejection(nous.rejections[findings[0]!.rejection]!, findings[0]!.params);
    expect(status).toBe(400);
    expect(JSON.stringify(body)).toContain('Additional info: Provider returned error');
  });

  it('counts only assistant messages that carry the field', () => {
    // Twice the budget of turns, every other one without reasoning_details (or with an empty list): within budget.
    const s = session(budget.maxMessages * 2, (i) => i % 2 === 0);
    s.messages.forEach((m, i) => {
      if (m.role === 'assistant' && !m.reasoning_details && i % 4 === 3) m.reasoning_details = [];
    });
    expect(judgeReplayBudget(nous, s)).toEqual([]);
  });

  it('judges nothing for a spec without a budget', () => {
    const { replayBudget: _ignored, ...plain } = nous;
    expect(
      judgeReplayBudget(
        plain,
        session(budget.maxMessages + 5, () => true),
      ),
    ).toEqual([]);
  });

  // Three in four turns replay their reasoning, over sessions up to three budgets long: both sides of the budget.
  test('refuses exactly when more than the budget carry it, naming the first one over', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.integer({ min: 0, max: 3 }).map((n) => n > 0),
          { minLength: budget.maxMessages, maxLength: 3 * budget.maxMessages, size: 'max' },
        ),
        (flags) => {
          const s = session(flags.length, (i) => flags[i]!);
          const carriers = flags.flatMap((on, i) => (on ? [2 * i + 1] : []));
          const findings = judgeReplayBudget(nous, s);
          if (carriers.length <= budget.maxMessages) expect(findings).toEqual([]);
          else expect(findings.map((f) => f.params.index)).toEqual([carriers[budget.maxMessages]]);
        },
      ),
    );
  });
});
