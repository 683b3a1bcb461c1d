import fc from 'fast-check';
import { describe, expect, it, test } from 'vitest';
import { IdenticalRequests } from './identical-requests.js';

const bytes = (text: string) => new TextEncoder().encode(text);

describe('the kept verdicts of identical requests', () => {
  test('answer a request only with what was kept for the same list, call and bytes', () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ list: fc.nat(2), call: fc.nat(3), body: fc.string({ maxLength: 6 }) }), { maxLength: 40 }),
        (requests) => {
          const lists = [[], [], []];
          const kept = new IdenticalRequests<string>(8, 1024, 4);
          const named = (r: { list: number; call: number; body: string }) => `${r.list}|${r.call}|${r.body}`;
          const keys = new Map<string, ReturnType<typeof kept.keyOf>>();
          for (const r of requests) {
            const body = bytes(r.body);
            // Half the requests come with the body text made by the caller, as serve hands it.
            const text = r.call % 2 ? Buffer.from(body).toString('latin1') : undefined;
            const key = kept.keyOf(lists[r.list]!, r.call, body, text)!;
            keys.set(named(r), key);
            const got = kept.get(key);
            if (got !== undefined) expect(got).toBe(named(r));
            else kept.set(key, named(r));
          }
          // Never more kept, across all bodies, than the bound.
          expect([...keys.values()].filter((key) => kept.get(key!) !== undefined).length).toBeLessThanOrEqual(8);
        },
      ),
    );
  });

  it('keeps no body over its size bound, and at most its bound of lists and calls per body', () => {
    const kept = new IdenticalRequests<number>(8, 4, 2);
    expect(kept.keyOf([], 0, bytes('12345'))).toBeUndefined();
    const list: never[] = [];
    const keys = [0, 1, 2].map((call) => kept.keyOf(list, call, bytes('{}'))!);
    keys.forEach((key, call) => kept.set(key, call));
    expect(keys.map((key) => kept.get(key))).toEqual([undefined, 1, 2]);

    // At the bound across bodies, the oldest body goes with all it kept.
    const few = new IdenticalRequests<string>(3, 64, 4);
    const at = (body: string, call: number) => few.keyOf(list, call, bytes(body))!;
    few.set(at('a', 0), 'a0');
    few.set(at('a', 1), 'a1');
    few.set(at('b', 0), 'b0');
    few.set(at('c', 0), 'c0');
    expect([at('a', 0), at('a', 1), at('b', 0), at('c', 0)].map((key) => few.get(key))).toEqual([
      undefined,
      undefined,
      'b0',
      'c0',
    ]);
  });
});
