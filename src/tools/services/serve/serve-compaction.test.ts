import { describe, expect, it } from 'vitest';
import type { SseEvent } from '../../../shared/sse/sse-event.js';
import { ServeCompaction } from './serve-compaction.js';
import type { ServeLogEntry } from './serve-log.js';

let seq = 0;
const entry = (status = 200): ServeLogEntry => ({
  seq: ++seq,
  time: '2026-12-07T00:00:00.000Z',
  provider: 'anthropic',
  route: 'anthropic',
  tier: 'native',
  family: 'anthropic-messages',
  scenario: null,
  call: 0,
  method: 'POST',
  path: '/anthropic/v1/messages',
  status,
  sentFields: [],
  findings: [],
  client: 'agent',
  runId: 'run-1',
});

const block = { type: 'compaction', content: 'Summary.', encrypted_content: 'blob-1' };
const opening = { role: 'user', content: 'Where is order ORD-1234?' };
const answered = { content: [block, { type: 'text', text: 'Shipped.' }] };
const later = (...assistant: unknown[]) => ({
  messages: [opening, { role: 'assistant', content: assistant }, { role: 'user', content: 'And ORD-5678?' }],
});
const json = (body: unknown) => ({ kind: 'json' as const, bytes: JSON.stringify(body) });
const rules = (e: ServeLogEntry) => e.findings.map((f) => f.rule);

describe('compaction-kept over serve traffic', () => {
  it('a later request of the conversation must carry the issued item whole: dropped or edited, it is named', () => {
    const judge = new ServeCompaction();
    const first = entry();
    judge.judgeEntry(first, { messages: [opening] }, json(answered));
    expect(first.compactionJudged).toBeUndefined();

    const kept = entry();
    judge.judgeEntry(kept, later(block, answered.content[1]), undefined);
    expect([kept.compactionJudged, rules(kept)]).toEqual([true, []]);

    const dropped = entry();
    judge.judgeEntry(dropped, later(answered.content[1]), undefined);
    expect(rules(dropped)).toEqual(['compaction-kept']);
    expect(dropped.findings[0]!.detail).toContain(`issued at request #${first.seq} is not in the request`);

    const edited = entry();
    judge.judgeEntry(edited, later({ ...block, encrypted_content: 'blob-2' }), undefined);
    expect(rules(edited)).toEqual(['compaction-kept']);
  });

  it('reads the item out of a stream’s compaction_delta pieces', () => {
    const judge = new ServeCompaction();
    const events: SseEvent[] = [
      { event: 'message_start', data: '{"type":"message_start"}' },
      {
        event: 'content_block_delta',
        data: JSON.stringify({
          type: 'content_block_delta',
          index: 0,
          delta: { type: 'compaction_delta', encrypted_content: 'blob-1' },
        }),
      },
    ];
    judge.judgeEntry(entry(), { messages: [opening] }, { kind: 'events', events });
    const dropped = entry();
    judge.judgeEntry(dropped, later({ type: 'text', text: 'Shipped.' }), undefined);
    expect(rules(dropped)).toEqual(['compaction-kept']);
  });

  it('judges no other conversation, client or provider, nothing a refused answer held, nor a stored conversation', () => {
    const judge = new ServeCompaction();
    judge.judgeEntry(entry(400), { messages: [opening] }, json(answered));
    const afterRefusal = entry();
    judge.judgeEntry(afterRefusal, later(), undefined);
    expect(afterRefusal.compactionJudged).toBeUndefined();

    judge.judgeEntry(entry(), { messages: [opening] }, json(answered));
    const other = entry();
    judge.judgeEntry(other, { messages: [{ role: 'user', content: 'Another task' }] }, undefined);
    const otherClient = { ...entry(), client: 'another agent' };
    judge.judgeEntry(otherClient, later(), undefined);
    const stored = entry();
    judge.judgeEntry(stored, { ...later(), previous_response_id: 'resp_1' }, undefined);
    for (const e of [other, otherClient, stored]) expect([e.compactionJudged, rules(e)]).toEqual([undefined, []]);
  });
});
