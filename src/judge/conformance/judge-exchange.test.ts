import { describe, expect, it } from 'vitest';
import { FINDINGS_HEADER } from '../../shared/findings/finding.js';
import { FindingsRecordError } from '../../shared/errors/findings-record-error.js';
import { encodeFindings } from '../../shared/findings/findings-record.js';
import type { History } from '../../shared/history/history.js';
import { loadProviderSpecs } from '../../shared/provider-specs/load-provider-specs.js';
import { loadRouteTable } from '../../shared/route-table/load-route-table.js';
import { policyFor } from '../../shared/route-table/policy-for.js';
import { judgeExchange } from './judge-exchange.js';

const table = loadRouteTable();
const spec = loadProviderSpecs().find((s) => s.id === 'deepseek')!;
const policy = policyFor(table, spec);
const history: History = { messages: [{ role: 'user', content: 'q' }] };

/** One call whose single attempt the mock answered 400 with this findings header. */
function judgeAnswer(header: string | undefined) {
  return judgeExchange({
    call: 1,
    history,
    historyBefore: JSON.stringify(history),
    policy,
    spec,
    defaultRouteId: 'default',
    scenario: 'tool-call-with-reasoning',
    turn: {
      withheld: [],
      attempts: [
        {
          attempt: 1,
          request: {
            family: 'openai-chat',
            method: 'POST',
            path: '/chat/completions',
            headers: {},
            body: { model: 'm', messages: [] },
          },
          response: {
            status: 400,
            headers: header === undefined ? {} : { [FINDINGS_HEADER]: header },
            body: { error: { message: 'no' } },
          },
        },
      ],
    },
  });
}

const MUST_ECHO = { rule: 'must-echo', rejection: 'reasoning-content-not-passed-back', params: { index: 1 } };

describe('judgeExchange reads the mock findings record once, and loudly', () => {
  it('files a readable finding under its behaviour', () => {
    const judged = judgeAnswer(encodeFindings([MUST_ECHO]));
    expect(judged.findings.filter((f) => f.behaviour === 'must-echo' && f.status === 'fail')).toHaveLength(1);
    expect(judged.exchanges[0]!.violations).toEqual(['must-echo']);
  });

  it('stops on a corrupted or truncated record, naming the answer, call, attempt and scenario', () => {
    const whole = encodeFindings([MUST_ECHO]);
    for (const header of [whole.slice(0, whole.length - 3), whole.replace('"findings"', '"findings":{'), '[]']) {
      expect(() => judgeAnswer(header)).toThrow(FindingsRecordError);
      expect(() => judgeAnswer(header)).toThrow(
        /^harness error: DeepSeek .*'s answer to call 1 \(attempt 1\) of scenario tool-call-with-reasoning: its findings record cannot be read: /,
      );
    }
  });
});
