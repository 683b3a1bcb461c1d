import type { Message, ToolCall } from '../history/history.js';
import type { FamilyId } from '../wire/families.js';

/** What the scripted model says at one call; synthesized fixtures render it in each provider's shape. */
export interface ScriptedAnswer {
  content?: string | null;
  reasoning?: string;
  redacted?: boolean;
  tool_calls?: ToolCall[];
}

export type ScenarioStep = { append: Message } | { call: { via?: string; answer: ScriptedAnswer } };

export interface Scenario {
  id: string;
  title: string;
  description?: string;
  families?: FamilyId[];
  providers?: string[];
  tools?: unknown[];
  steps: ScenarioStep[];
}
