import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadRouteTable } from '../../shared/route-table/load-route-table.js';
import { resolveRoute } from '../../shared/route-table/resolve-route.js';
import { aProviderThatReads, wireCarrierFields } from '../../../test/helpers/fake-transport.test-helper.js';
import { sendSessionTurn } from './send-session-turn.js';
import { SessionStore } from './session-store.js';
import { sampleHistoryWithEveryCarrier } from './sample-history.test-helper.js';

let dir: string;
beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'rr-turn-'))));
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const table = loadRouteTable();
const openrouter = resolveRoute(table, { provider: 'openrouter', host: 'openrouter.ai', model: 'x/model' });

describe('sendSessionTurn', () => {
  it('learns a refusal once, stores it with the answer, and a resumed session does not ask again', async () => {
    const file = join(dir, 'state.db');
    const store = SessionStore.open(file);
    const id = store.importHistory(sampleHistoryWithEveryCarrier());
    const provider = aProviderThatReads(['reasoning_content']);

    const first = await sendSessionTurn({ store, sessionId: id, policy: openrouter, transport: provider.transport });
    expect(first.attempts).toHaveLength(2);
    expect(first.recorded).toEqual(['reasoning', 'reasoning_details']);
    expect(first.appended).toEqual({ exchange: 4, firstSeq: 11, lastSeq: 11 });
    store.close();

    const again = SessionStore.open(file);
    expect(again.resume(id).history.messages.at(-1)).toMatchObject({ role: 'assistant', content: 'ok' });
    const second = await sendSessionTurn({
      store: again,
      sessionId: id,
      policy: openrouter,
      transport: provider.transport,
    });
    expect(second.attempts).toHaveLength(1);
    expect(wireCarrierFields(provider.requests.at(-1)!)).toEqual(['reasoning_content']);
    again.close();
  });

  it('keeps the verdict even when the retry is refused too, and appends nothing', async () => {
    const store = SessionStore.open(join(dir, 'state.db'));
    const id = store.importHistory(sampleHistoryWithEveryCarrier());
    const provider = aProviderThatReads(['reasoning_details']);
    const result = await sendSessionTurn({ store, sessionId: id, policy: openrouter, transport: provider.transport });
    // reasoning_content was named first: all three withheld, so the retry carries none and passes.
    expect(result.recorded).toEqual(['reasoning_content', 'reasoning', 'reasoning_details']);
    expect(result.response.status).toBe(200);

    // Another model: the first answer refuses messages[2].reasoning, the retry meets an unrelated 400.
    const other = resolveRoute(table, { provider: 'openrouter', host: 'openrouter.ai', model: 'y/model' });
    const answers = [
      {
        status: 400,
        headers: {},
        body: { error: { message: "Unknown parameter: 'messages[2].reasoning'.", code: 'unknown_parameter' } },
      },
      { status: 400, headers: {}, body: { error: { message: 'Provider returned error', code: 400 } } },
    ];
    const refusedTwice = await sendSessionTurn({
      store,
      sessionId: id,
      policy: other,
      transport: async () => answers.shift()!,
    });
    expect(refusedTwice.retryRejected).toBe(true);
    expect(refusedTwice.appended).toBeUndefined();
    expect([...store.resume(id).verdicts.fieldsFor(other.target)]).toEqual(['reasoning', 'reasoning_details']);
    expect(store.get(id).turnCount).toBe(11);
    store.close();
  });
});
