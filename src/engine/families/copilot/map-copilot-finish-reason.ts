import { mapOpenAIChatFinishReason } from '../openai-chat/map-openai-chat-finish-reason.js';

/** Copilot speaks chat completions, finish reasons included. */
export function mapCopilotFinishReason(reason: unknown): string | null {
  return mapOpenAIChatFinishReason(reason);
}
