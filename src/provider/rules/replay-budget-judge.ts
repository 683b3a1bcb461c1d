import type { ProviderSpec } from '../../shared/provider-specs/provider-spec.js';
import { isPlainObject } from '../../shared/objects/deep-merge.js';
import type { Finding } from '../../shared/findings/finding.js';

/** Absent, null, "" or []: a message that replays nothing in the field. */
const carries = (value: unknown) =>
  !(value === undefined || value === null || value === '' || (Array.isArray(value) && value.length === 0));

/**
 * A gateway that takes replayed reasoning for a while and refuses the whole request once the conversation carries
 * more than its budget (spec `replayBudget`): Nous Portal's upstream routes 400 a session whose assistant turns
 * replay `reasoning_details` past about ten of them (NousResearch/hermes-agent#118182). The budget's real unit is not
 * public, so the spec counts assistant messages carrying the field, and the finding names the first one over it.
 */
export function judgeReplayBudget(spec: ProviderSpec, body: unknown): Finding[] {
  const budget = spec.replayBudget;
  if (!budget || !isPlainObject(body) || !Array.isArray(body.messages)) return [];
  const carrying = body.messages.flatMap((m: unknown, index: number) =>
    isPlainObject(m) && m.role === 'assistant' && carries(m[budget.field]) ? [index] : [],
  );
  const over = carrying[budget.maxMessages];
  if (over === undefined) return [];
  return [
    {
      rule: 'provider-accepts',
      rejection: budget.rejection,
      params: { index: over, field: budget.field, path: `messages.${over}.${budget.field}` },
      detail: `${carrying.length} assistant messages replay ${budget.field}; the provider takes at most ${budget.maxMessages}`,
    },
  ];
}
