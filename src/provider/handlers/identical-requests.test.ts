import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { IdenticalRequests } from './identical-requests.js';

const bytes = (text: string) => new TextEncoder().encode(text);

describe('the kept verdicts of identical requests', () => {
  test.prop([
    fc.array(fc.record({ list: fc.nat(2), call: fc.nat(3), body: fc.string({ maxLength: 6 }) }), { maxLength: 40 }),
  ])('answer a request only with what was kept for the same list, call and bytes', (requests) => {
    const lists = [[], [], []];
    const kept = new IdenticalRequests<string>(8, 1024, 4);
    const named = (r: { list: number; call: number; body: string }) => `${r.list}|${r.call}|${r.body}`;
    for (const r of requests) {
      const body = bytes(r.body);
      // Half the requests come with the body text made by the caller, as serve hands it.
      const text = r.call % 2 ? Buffer.from(body).toString('latin1') : undefined;
      const key = kept.keyOf(lists[r.list]!, r.call, body, text)!;
      const got = kept.get(key);
      if (got !== undefined) expect(got).toBe(named(r));
      else kept.set(key, named(r));
    }
  });

  it('keeps no body over its size bound, and at most its bound of lists and calls per body', () => {
    const kept = new IdenticalRequests<number>(8, 4, 2);
    expect(kept.keyOf([], 0, bytes('12345'))).toBeUndefined();
    const list: never[] = [];
    const keys = [0, 1, 2].map((call) => kept.keyOf(list, call, bytes('{}'))!);
    keys.forEach((key, call) => kept.set(key, call));
    expect(keys.map((key) => kept.get(key))).toEqual([undefined, 1, 2]);
  });
});
