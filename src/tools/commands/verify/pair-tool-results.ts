import { isPlainObject } from '../../../shared/objects/deep-merge.js';
import type { FamilyId } from '../../../shared/wire/families.js';

type Obj = Record<string, unknown>;
const objects = (v: unknown): Obj[] => (Array.isArray(v) ? v.filter(isPlainObject) : []);

/** Each result's id, where it names none of the call ids before it, becomes the call id at its position. */
function repair(ids: readonly string[], results: Obj[], key: string): void {
  results.forEach((r, k) => {
    if (typeof r[key] === 'string' && !ids.includes(r[key]) && ids[k] !== undefined) r[key] = ids[k];
  });
}

/**
 * A scenario's tool results are scripted, and name the tool-call ids of its scripted answers
 * (`toolu_stock_1`); a live model issues ids of its own. Played live, each tool result that names
 * no call of the turn before it is paired, by position, with that turn's calls, so the live
 * provider and the mock both see a well-formed tool loop instead of an orphan result. Results that
 * already name a call are left alone, and nothing else of the body changes.
 */
export function pairToolResults(family: FamilyId, body: Record<string, unknown>): Record<string, unknown> {
  const out = structuredClone(body);
  if (family === 'openai-responses') {
    let calls: string[] = [];
    let results: Obj[] = [];
    const flush = () => {
      repair(calls, results, 'call_id');
      calls = [];
      results = [];
    };
    for (const item of objects(out.input)) {
      if (item.type === 'function_call') {
        if (results.length > 0) flush();
        if (typeof item.call_id === 'string') calls.push(item.call_id);
      } else if (item.type === 'function_call_output') results.push(item);
      else if (item.type !== 'reasoning' && results.length > 0) flush();
    }
    flush();
    return out;
  }
  const list = family === 'gemini' ? objects(out.contents) : objects(out.messages);
  list.forEach((message, i) => {
    const next = list[i + 1];
    switch (family) {
      case 'openai-chat':
      case 'copilot': {
        if (message.role !== 'assistant') return;
        const ids = objects(message.tool_calls).flatMap((c) => (typeof c.id === 'string' ? [c.id] : []));
        const results: Obj[] = [];
        for (const m of list.slice(i + 1)) {
          if (m.role !== 'tool') break;
          results.push(m);
        }
        repair(ids, results, 'tool_call_id');
        return;
      }
      case 'anthropic-messages': {
        if (message.role !== 'assistant' || next?.role !== 'user') return;
        const ids = objects(message.content).flatMap((b) =>
          b.type === 'tool_use' && typeof b.id === 'string' ? [b.id] : [],
        );
        repair(
          ids,
          objects(next.content).filter((b) => b.type === 'tool_result'),
          'tool_use_id',
        );
        return;
      }
      case 'bedrock-converse': {
        if (message.role !== 'assistant' || next?.role !== 'user') return;
        const uses = objects(message.content).flatMap((b) => (isPlainObject(b.toolUse) ? [b.toolUse] : []));
        const ids = uses.flatMap((u) => (typeof u.toolUseId === 'string' ? [u.toolUseId] : []));
        const results = objects(next.content).flatMap((b) => (isPlainObject(b.toolResult) ? [b.toolResult] : []));
        repair(ids, results, 'toolUseId');
        return;
      }
      case 'gemini': {
        if (message.role !== 'model' || next?.role !== 'user') return;
        const calls = objects(message.parts).flatMap((p) => (isPlainObject(p.functionCall) ? [p.functionCall] : []));
        const responses = objects(next.parts).flatMap((p) =>
          isPlainObject(p.functionResponse) ? [p.functionResponse] : [],
        );
        repair(
          calls.flatMap((c) => (typeof c.name === 'string' ? [c.name] : [])),
          responses,
          'name',
        );
        if (calls.some((c) => typeof c.id === 'string'))
          repair(
            calls.flatMap((c) => (typeof c.id === 'string' ? [c.id] : [])),
            responses,
            'id',
          );
        return;
      }
    }
  });
  return out;
}
