import type { Carriers } from '../history/carriers.js';
import type { Message } from '../../shared/history/history.js';

/** What a family made of one provider answer: the assistant message to append to history. */
export interface ParsedAnswer {
  message: Message;
  carriers: Carriers;
  finishReason: string | null;
  /**
   * Well-formed parts of the answer that were skipped rather than kept (each says what and why).
   * Only present when something was skipped; never a reason to fail the read.
   */
  notes?: string[];
  /**
   * Where in the request the provider reports it dropped earlier thinking blocks (Anthropic `input_transformations`,
   * thinking_dropped, `messages.N.content.M`): the history they came from must lose them. Only present when some were.
   */
  droppedThinking?: string[];
}
