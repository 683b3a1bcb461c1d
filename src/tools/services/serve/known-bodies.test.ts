import fc from 'fast-check';
import { describe, expect, it, test } from 'vitest';
import { wireCarrierKeys } from '../../../judge/conformance/wire-carriers.js';
import { KnownBodies } from './known-bodies.js';
import { assistantTurns } from '../../../provider/handlers/answer-http-request.js';
import { MAX_BODY_DEPTH } from './request-limits.js';
import { sendsBackReasoning } from './sends-back-reasoning.js';

const bytes = (value: unknown) => Buffer.from(JSON.stringify(value));

/** What the facts of a body must be, worked out afresh with no memo at all. */
const fresh = (value: unknown) => ({
  json: value,
  depthRefusal: undefined,
  assistantTurns: assistantTurns(value),
  sentFields: wireCarrierKeys(value),
  replays: sendsBackReasoning(value),
});

/** A chat body whose messages may carry reasoning, so the carriers, turns and replay flag vary. */
const chatBody = fc.record({
  model: fc.constantFrom('deepseek-v4-flash', 'deepseek-reasoner'),
  messages: fc.array(
    fc.oneof(
      fc.record({ role: fc.constant('user'), content: fc.string({ maxLength: 20 }) }),
      fc.record(
        {
          role: fc.constant('assistant'),
          content: fc.option(fc.string({ maxLength: 20 })),
          reasoning_content: fc.string({ maxLength: 20 }),
        },
        { requiredKeys: ['role', 'content'] },
      ),
    ),
    { maxLength: 6 },
  ),
});

describe('the facts serve keeps per request body', () => {
  test('are, for every body read again in any order, the facts a fresh read gives', () => {
    fc.assert(
      fc.property(
        fc.array(chatBody, { minLength: 1, maxLength: 8 }),
        fc.array(fc.nat(), { maxLength: 24 }),
        (bodies, order) => {
          const known = new KnownBodies(4);
          for (const i of [...bodies.keys(), ...order]) {
            const value = bodies[i % bodies.length]!;
            const { text, ...facts } = known.read(bytes(value));
            expect(facts).toEqual(fresh(value));
            expect(text).toBe(bytes(value).toString('latin1'));
          }
        },
      ),
    );
  });

  it('tells apart bodies one byte apart', () => {
    const known = new KnownBodies();
    const replayed = { messages: [{ role: 'assistant', content: 'a', reasoning_content: 'r' }] };
    const plain = { messages: [{ role: 'assistant', content: 'a', reasoning_contenT: 'r' }] };
    expect(known.read(bytes(replayed)).sentFields).toEqual(['reasoning_content']);
    expect(known.read(bytes(plain)).sentFields).toEqual([]);
    expect(known.read(bytes(replayed)).replays).toBe(true);
    expect(known.read(bytes(plain)).replays).toBe(false);
  });

  it('tells a body apart from the one read last even when the caller wrote the new one into the same buffer', () => {
    const known = new KnownBodies();
    const replayed = { messages: [{ role: 'assistant', content: 'a', reasoning_content: 'r' }] };
    const plain = { messages: [{ role: 'assistant', content: 'a', reasoning_contenT: 'r' }] };
    const buffer = bytes(replayed);
    for (let i = 0; i < 3; i++) expect(known.read(buffer).replays).toBe(true);
    bytes(plain).copy(buffer);
    expect(known.read(buffer)).toMatchObject(fresh(plain));
  });

  it('keeps a body from its second sight on, frozen, so no request can change what a later one reads', () => {
    const known = new KnownBodies();
    const body = bytes({ messages: [{ role: 'user', content: 'hi' }] });
    const once = known.read(body).json;
    // Seen once: read afresh, not kept, so not frozen (a loop's growing history is sent once).
    expect(Object.isFrozen(once)).toBe(false);
    const kept = known.read(Buffer.from(body)).json as { messages: Array<{ content: string }> };
    expect(kept).not.toBe(once);
    expect(known.read(Buffer.from(body)).json).toBe(kept);
    expect(() => {
      kept.messages[0]!.content = 'changed';
    }).toThrow(TypeError);
    expect(() => kept.messages.push({ content: 'more' })).toThrow(TypeError);
    expect(kept.messages).toEqual([{ role: 'user', content: 'hi' }]);
  });

  it('keeps no body over its size bound, and drops the oldest past its count', () => {
    const big = bytes({ messages: [{ role: 'user', content: 'x'.repeat(100) }] });
    const small = new KnownBodies(2, 64);
    const reads = [small.read(big), small.read(big), small.read(big)];
    expect(reads[0]!.text).toBeUndefined();
    expect(reads[2]!.json).not.toBe(reads[1]!.json);
    expect(Object.isFrozen(reads[2]!.json)).toBe(false);

    const [a, b, c] = [1, 2, 3].map((n) => bytes({ n }));
    small.read(a!);
    const keptA = small.read(a!).json;
    small.read(b!);
    expect(small.read(a!).json).toBe(keptA);
    small.read(c!); // drops the oldest noted, a (being read again does not renew it)
    small.read(a!);
    expect(small.read(a!).json).not.toBe(keptA);
  });

  it('refuses a body nested past the bound without reading it further, and says so again when it comes back', () => {
    const deep = Buffer.from('['.repeat(MAX_BODY_DEPTH + 2) + ']'.repeat(MAX_BODY_DEPTH + 2));
    const known = new KnownBodies();
    for (let i = 0; i < 2; i++) {
      const facts = known.read(deep);
      expect(facts.depthRefusal?.status).toBe(400);
      expect(facts.json).toBeUndefined();
      expect(facts.sentFields).toEqual([]);
    }
  });

  it('reads a body that is not JSON as no JSON', () => {
    const facts = new KnownBodies().read(Buffer.from('not json'));
    expect(facts.json).toBeUndefined();
    expect(facts.assistantTurns).toBe(0);
  });
});
