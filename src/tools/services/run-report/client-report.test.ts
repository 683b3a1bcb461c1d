import { describe, expect, it } from 'vitest';
import { clientReport } from './client-report.js';
import type { ServeLogEntry } from '../serve/serve-log.js';

const entry = (seq: number, extra: Partial<ServeLogEntry> = {}): ServeLogEntry => ({
  seq,
  time: '2026-12-07T00:00:00.000Z',
  provider: 'anthropic',
  route: 'anthropic',
  tier: 'native',
  family: 'anthropic-messages',
  scenario: null,
  call: seq - 1,
  method: 'POST',
  path: '/anthropic/v1/messages',
  status: 200,
  sentFields: [],
  findings: [],
  client: 'agent',
  ...extra,
});

const column = (entries: ServeLogEntry[]) =>
  clientReport(entries, []).cells.find((c) => c.behaviour === 'compaction-kept')!;

describe('the compaction-kept column of a client report', () => {
  it('is n/a until an item was issued, passes where one came back, fails naming the request that dropped it', () => {
    expect(column([entry(1), entry(2)]).status).toBe('n/a');
    expect(column([entry(1), entry(2, { compactionJudged: true })]).status).toBe('pass');
    const finding = {
      rule: 'compaction-kept',
      rejection: 'judge:compaction-kept',
      params: {},
      detail: 'request #2: the compaction item anthropic issued at request #1 is not in the request, whole',
    };
    const report = clientReport([entry(1), entry(2, { compactionJudged: true, findings: [finding] })], []);
    const cell = (behaviour: string) => report.cells.find((c) => c.behaviour === behaviour)!;
    expect(cell('compaction-kept').status).toBe('fail');
    expect(cell('compaction-kept').detail).toContain('request #2 (call 1');
    // Listed under its own column only, not a second time under provider-accepts.
    expect(cell('provider-accepts').status).toBe('pass');
    expect(report.summary.verdict).toBe('fail');
  });
});
