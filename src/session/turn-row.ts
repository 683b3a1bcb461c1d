import type { Content, Message, NativeCarrierRecord, ReasoningDetail, Role, ToolCall } from '../model/history.js';

/** One row of the turns table (see migrations.ts). NULL = the message had no such key. */
export interface TurnRow {
  role: Role;
  content: string;
  name: string | null;
  tool_calls: string | null;
  tool_call_id: string | null;
  reasoning_content: string | null;
  reasoning: string | null;
  reasoning_details: string | null;
  native: string | null;
}

const json = (value: unknown) => JSON.stringify(value);

const jsonOrNull = (value: unknown) => (value === undefined ? null : json(value));

/**
 * Message -> row. Every value column holds JSON text, NULL only for an absent key: so `" "` (the
 * pad, stored `'" "'`), `""` and absent stay three different things; a parse gives back the same
 * keys in the same order, which signed items need; and a string that is not well-formed UTF-16 (a
 * lone surrogate from a stream cut between the halves of a pair) survives, where SQLite TEXT would
 * silently turn it into U+FFFD (found by the property test).
 */
export function messageToRow(message: Message): TurnRow {
  return {
    role: message.role,
    content: json(message.content),
    name: jsonOrNull(message.name),
    tool_calls: jsonOrNull(message.tool_calls),
    tool_call_id: jsonOrNull(message.tool_call_id),
    reasoning_content: jsonOrNull(message.reasoning_content),
    reasoning: jsonOrNull(message.reasoning),
    reasoning_details: jsonOrNull(message.reasoning_details),
    native: jsonOrNull(message.native),
  };
}

/** Row -> message, keys in the canonical order of history.ts. */
export function rowToMessage(row: TurnRow): Message {
  const message: Message = { role: row.role, content: JSON.parse(row.content) as Content };
  if (row.name !== null) message.name = JSON.parse(row.name) as string;
  if (row.tool_calls !== null) message.tool_calls = JSON.parse(row.tool_calls) as ToolCall[];
  if (row.tool_call_id !== null) message.tool_call_id = JSON.parse(row.tool_call_id) as string;
  if (row.reasoning_content !== null) message.reasoning_content = JSON.parse(row.reasoning_content) as string;
  if (row.reasoning !== null) message.reasoning = JSON.parse(row.reasoning) as string;
  if (row.reasoning_details !== null) message.reasoning_details = JSON.parse(row.reasoning_details) as ReasoningDetail[];
  if (row.native !== null) message.native = JSON.parse(row.native) as NativeCarrierRecord;
  return message;
}
