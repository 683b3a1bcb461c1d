import type { Message, ReasoningDetail } from '../../shared/history/history.js';
import { MUST_ECHO_PLACEHOLDER } from '../policy/select-carriers.js';
import type { ResumedSession } from './session-store.js';

/** What one stored turn holds, for `sessions show`: the carrier kinds and their sizes, never their text. */
export interface TurnDescription {
  turn: number;
  role: string;
  carriers: string[];
  toolCalls: number;
}

function describeText(name: string, value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  if (value === MUST_ECHO_PLACEHOLDER) return `${name}=" " (pad)`;
  if (value === '') return `${name}="" (empty)`;
  return `${name}(${[...value].length} chars)`;
}

function describeDetail(detail: ReasoningDetail): string {
  const signed =
    ('signature' in detail && typeof detail.signature === 'string' && detail.signature !== '') ||
    detail.type === 'reasoning.encrypted' ||
    detail.type === 'redacted_thinking';
  return signed ? `${detail.type} (signed/encrypted)` : detail.type;
}

export function describeTurn(message: Message, turn: number): TurnDescription {
  const carriers = [
    describeText('reasoning_content', message.reasoning_content),
    describeText('reasoning', message.reasoning),
  ].filter((c): c is string => c !== undefined);
  if (message.reasoning_details !== undefined)
    carriers.push(`reasoning_details[${message.reasoning_details.map(describeDetail).join(', ')}]`);
  if (message.native !== undefined)
    carriers.push(`native:${message.native.route}{${Object.keys(message.native.fields).join(', ')}}`);
  return { turn, role: message.role, carriers, toolCalls: message.tool_calls?.length ?? 0 };
}

export function describeSession(resumed: ResumedSession) {
  return {
    session: resumed.session,
    turns: resumed.history.messages.map((m, i) => describeTurn(m, i + 1)),
    unknownFieldVerdicts: resumed.verdicts
      .entries()
      .map(([provider, host, model, fields]) => ({ provider, host, model, fields })),
  };
}
