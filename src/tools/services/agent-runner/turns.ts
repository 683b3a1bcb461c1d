import type { Scenario } from '../../../shared/scenarios/scenario.js';

/**
 * The user turns a waiting agent is given, in order: a scenario's user messages, or (following
 * the client) two requests that make any tool-using agent run a tool round each.
 */
export const FOLLOW_TURNS = [
  'Use one of your tools to help with my task, then tell me what you found.',
  'Thanks. Do that once more with another tool call.',
];

export function userTurns(scenario: Scenario | undefined): string[] {
  if (!scenario) return FOLLOW_TURNS;
  return scenario.steps.flatMap((step) => {
    if (!('append' in step) || step.append.role !== 'user') return [];
    const content = step.append.content as unknown;
    if (typeof content === 'string') return [content];
    if (Array.isArray(content))
      return [
        content
          .map((p) => (typeof p === 'object' && p !== null && 'text' in p ? String((p as { text: unknown }).text) : ''))
          .join(''),
      ];
    return [];
  });
}
