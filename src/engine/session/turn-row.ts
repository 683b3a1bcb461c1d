import { DamagedRowError, type RowPlace } from '../../shared/errors/damaged-row-error.js';
import { InputError } from '../../shared/errors/input-error.js';
import { assertValid } from '../../shared/validation/validate.js';
import type {
  Content,
  Message,
  NativeCarrierRecord,
  ProducedBy,
  ReasoningDetail,
  Role,
  ToolCall,
} from '../../shared/history/history.js';

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
  produced_by: string | null;
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
    produced_by: jsonOrNull(message.produced_by),
  };
}

function parseColumn(row: TurnRow, column: keyof TurnRow, place: RowPlace): unknown {
  const text = row[column];
  if (typeof text !== 'string')
    throw new DamagedRowError(
      place,
      column,
      `the ${column} column holds ${text === null ? 'NULL' : typeof text}, not JSON text`,
    );
  try {
    return JSON.parse(text);
  } catch {
    throw new DamagedRowError(
      place,
      column,
      `the ${column} column is not JSON (${JSON.stringify(text.slice(0, 40))}${text.length > 40 ? '…' : ''})`,
    );
  }
}

/**
 * Row -> message, keys in the canonical order of history.ts. With `place`, the row is checked on
 * the way: every column must be JSON and the message must meet specs/schema/history.schema.json
 * (so `tool_calls = 42` is refused naming the session and turn, never replayed as is).
 */
export function rowToMessage(row: TurnRow, place?: RowPlace): Message {
  if (!place) return rowToMessageUnchecked(row);
  const message: Record<string, unknown> = { role: row.role, content: parseColumn(row, 'content', place) };
  for (const column of [
    'name',
    'tool_calls',
    'tool_call_id',
    'reasoning_content',
    'reasoning',
    'reasoning_details',
    'native',
    'produced_by',
  ] as const) {
    if (row[column] !== null) message[column] = parseColumn(row, column, place);
  }
  try {
    return assertValid<Message>(message, 'history.schema.json#/definitions/message', place.file);
  } catch (err) {
    if (err instanceof InputError) {
      const column = err.pointer.split('/')[1] || 'row';
      throw new DamagedRowError(
        place,
        column,
        `the stored message is not a valid message at ${err.pointer || '/'}: ${err.problem}`,
      );
    }
    throw err;
  }
}

function rowToMessageUnchecked(row: TurnRow): Message {
  const message: Message = { role: row.role, content: JSON.parse(row.content) as Content };
  if (row.name !== null) message.name = JSON.parse(row.name) as string;
  if (row.tool_calls !== null) message.tool_calls = JSON.parse(row.tool_calls) as ToolCall[];
  if (row.tool_call_id !== null) message.tool_call_id = JSON.parse(row.tool_call_id) as string;
  if (row.reasoning_content !== null) message.reasoning_content = JSON.parse(row.reasoning_content) as string;
  if (row.reasoning !== null) message.reasoning = JSON.parse(row.reasoning) as string;
  if (row.reasoning_details !== null)
    message.reasoning_details = JSON.parse(row.reasoning_details) as ReasoningDetail[];
  if (row.native !== null) message.native = JSON.parse(row.native) as NativeCarrierRecord;
  if (row.produced_by !== null) message.produced_by = JSON.parse(row.produced_by) as ProducedBy;
  return message;
}
