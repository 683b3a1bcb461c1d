import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { expect, test } from 'vitest';
import { turnSeed } from './follow-answer.js';

/** The seed a turn's draws start from, worked out afresh: the first four bytes of the input's SHA-256. */
const fresh = (seed: number, call: number, tool: string) =>
  createHash('sha256').update(`${seed}\u0000${call}\u0000${tool}`).digest().readUInt32BE(0);

test('a kept turn seed is the one its seed, call and tool give afresh, whatever was asked before', () =>
  fc.assert(
    fc.property(
      fc.array(
        fc.tuple(fc.integer({ min: 0, max: 3 }), fc.nat(4), fc.constantFrom('', 'lookup_order', 'format', 'a')),
        {
          minLength: 1,
          maxLength: 40,
        },
      ),
      (asks) => {
        for (const [seed, call, tool] of asks) expect(turnSeed(seed, call, tool)).toBe(fresh(seed, call, tool));
      },
    ),
  ));
