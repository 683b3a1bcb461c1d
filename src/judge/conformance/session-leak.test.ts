import { describe, expect, it } from 'vitest';
import { sessionLeak } from './run-scenario.js';

const body = (fields: Record<string, unknown>) =>
  JSON.stringify({ model: 'm', messages: [{ role: 'assistant', content: 'a', ...fields }] });

describe('sessionLeak: a new session of the same target must open as the first one did', () => {
  const first = [body({ reasoning: 'r', reasoning_details: [{ type: 'reasoning.text', text: 'r' }] }), body({})];

  it('finds nothing when the second session repeats the first up to the call that learned', () => {
    expect(sessionLeak(first, [...first], 1)).toBeUndefined();
    // After the learning call the sessions may part (the first one now withholds): not judged.
    expect(sessionLeak(first, [first[0]!, body({ x: 1 })], 0)).toBeUndefined();
  });

  it('names the call and the carriers a leaked verdict dropped', () => {
    expect(sessionLeak(first, [body({ reasoning: 'r' }), first[1]!], 1)).toEqual({
      call: 0,
      detail: "a different first request than the first session's (without reasoning_details)",
    });
    expect(sessionLeak(first, [first[0]!], 1)).toEqual({
      call: 1,
      detail: 'no request at all (the first session sent one)',
    });
  });
});
