import type { History } from '../../shared/history/history.js';
import { anthropicMessagesFormat } from './anthropic-messages.js';
import { geminiContentsFormat } from './gemini-contents.js';
import type { HistoryFormat, HistoryFormatId } from './history-format.js';
import { openaiChatFormat } from './openai-chat.js';

/** The canonical form needs no conversion: the history schema checks it as it is. */
const canonicalFormat: HistoryFormat = {
  id: 'canonical',
  shape:
    '{"messages": [{role, content, tool_calls?, tool_call_id?, reasoning_content?, reasoning?, reasoning_details?, native?}]} (specs/schema/history.schema.json)',
  toCanonical: (value) => ({ history: value as History, notes: [] }),
  fromCanonical: (history) => history,
};

export const HISTORY_FORMATS: Readonly<Record<HistoryFormatId, HistoryFormat>> = {
  canonical: canonicalFormat,
  'openai-chat': openaiChatFormat,
  'anthropic-messages': anthropicMessagesFormat,
  'gemini-contents': geminiContentsFormat,
};
