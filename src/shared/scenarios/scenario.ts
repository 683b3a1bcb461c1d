import type { Message, ToolCall } from '../history/history.js';
import type { FamilyId } from '../wire/families.js';

/** What the scripted model says at one call; synthesized fixtures render it in each provider's shape. */
export interface ScriptedAnswer {
  content?: string | null;
  reasoning?: string;
  redacted?: boolean;
  tool_calls?: ToolCall[];
  /**
   * The provider compacted the conversation on its side before this answer (it passed the compaction trigger the
   * request set, or the lower one the scenario stands for): the summary it wrote. Rendered where the provider writes
   * one: Anthropic's `compaction` block first in the content, a Responses `compaction` output item first in the output.
   */
  compaction?: string;
}

/** Provider id, base-URL host and model id of a target, as an agent's configuration names it. */
export interface TargetNames {
  provider?: string;
  host?: string;
  model?: string;
}

/** The target the engine is told for one call, and the one whose route it must resolve like. */
export interface PresentedTarget extends TargetNames {
  like?: TargetNames;
}

/** An answer the run gives in place of the provider's for one attempt (a fault). */
export type ScriptedFault =
  | { rejection: { provider: string; id: string; params?: Record<string, string | number> }; notes?: string }
  | { status: number; body: unknown; wording: 'unknown'; sources: string[]; notes?: string };

export interface ScenarioCall {
  via?: string;
  as?: PresentedTarget;
  faults?: ScriptedFault[];
  answer: ScriptedAnswer;
}

export type ScenarioStep = { append: Message } | { call: ScenarioCall };

export interface Scenario {
  id: string;
  title: string;
  description?: string;
  families?: FamilyId[];
  providers?: string[];
  tools?: unknown[];
  /** Every answer is asked for streamed (and cut into many pieces by the run). */
  stream?: boolean;
  steps: ScenarioStep[];
}
