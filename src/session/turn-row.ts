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
const orNull = <T>(value: T | undefined): T | null => (value === undefined ? null : value);

/**
 * Message -> row. Text carriers are stored as they are (so `" "` stays a pad and `""` stays empty,
 * apart from an absent key = NULL); structured carriers as JSON text, whose parse gives back the same
 * keys in the same order, which is what signed items need.
 */
export function messageToRow(message: Message): TurnRow {
  return {
    role: message.role,
    content: json(message.content),
    name: orNull(message.name),
    tool_calls: message.tool_calls === undefined ? null : json(message.tool_calls),
    tool_call_id: orNull(message.tool_call_id),
    reasoning_content: orNull(message.reasoning_content),
    reasoning: orNull(message.reasoning),
    reasoning_details: message.reasoning_details === undefined ? null : json(message.reasoning_details),
    native: message.native === undefined ? null : json(message.native),
  };
}

/** Row -> message, keys in the canonical order of history.ts. */
export function rowToMessage(row: TurnRow): Message {
  const message: Message = { role: row.role, content: JSON.parse(row.content) as Content };
  if (row.name !== null) message.name = row.name;
  if (row.tool_calls !== null) message.tool_calls = JSON.parse(row.tool_calls) as ToolCall[];
  if (row.tool_call_id !== null) message.tool_call_id = row.tool_call_id;
  if (row.reasoning_content !== null) message.reasoning_content = row.reasoning_content;
  if (row.reasoning !== null) message.reasoning = row.reasoning;
  if (row.reasoning_details !== null) message.reasoning_details = JSON.parse(row.reasoning_details) as ReasoningDetail[];
  if (row.native !== null) message.native = JSON.parse(row.native) as NativeCarrierRecord;
  return message;
}
