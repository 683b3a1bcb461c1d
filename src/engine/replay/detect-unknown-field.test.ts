import { describe, expect, it } from 'vitest';
import { carriersNamed, detectUnknownField, errorText, widen } from './detect-unknown-field.js';
import { defaultUnknownFieldPhrasings, loadUnknownFieldPhrasings } from './unknown-field-phrasings.js';
import { InputError } from '../../shared/errors/input-error.js';
import { writeFileSync, mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';

const ALL = ['reasoning_content', 'reasoning', 'reasoning_details'] as const;
const spec = defaultUnknownFieldPhrasings();

describe('the phrasings spec', () => {
  it('loads through the schema and every public phrasing cites an example', () => {
    expect(spec.phrasings.length).toBeGreaterThan(5);
    for (const p of spec.phrasings.filter((x) => x.origin === 'public-example')) {
      expect(p.examples.length).toBeGreaterThan(0);
      for (const e of p.examples) expect(e.source).toMatch(/^https:\/\//);
    }
  });

  it('rejects a phrasings file that breaks the schema, naming the pointer', () => {
    const dir = mkdtempSync(join(tmpdir(), 'rr-phr-'));
    const file = join(dir, 'p.json');
    writeFileSync(
      file,
      JSON.stringify({
        version: 1,
        phrasings: [{ match: 'Unknown Field', origin: 'seed-list', examples: [] }],
        notRejections: [],
      }),
    );
    expect(() => loadUnknownFieldPhrasings(file)).toThrow(InputError);
    expect(() => loadUnknownFieldPhrasings(file)).toThrow(/\/phrasings\/0\/match/);
  });
});

describe('detectUnknownField on the real examples', () => {
  for (const phrasing of spec.phrasings) {
    for (const example of phrasing.examples) {
      it(`${example.provider ?? '?'}: "${example.text.slice(0, 60)}"`, () => {
        expect(errorText(example.text)).toContain(phrasing.match);
        const got = detectUnknownField(example.status ?? 400, example.text, ALL, 'standard');
        if (example.namesCarrier) expect(got).toEqual(widen([example.namesCarrier]));
        else expect(got).toBeNull();
      });
    }
  }
  for (const counter of spec.notRejections) {
    it(`not a rejection (${counter.provider}): "${counter.text.slice(0, 60)}"`, () => {
      expect(detectUnknownField(counter.status ?? 400, counter.text, ALL, 'standard')).toBeNull();
      expect(detectUnknownField(counter.status ?? 400, counter.text, ALL, 'must-echo')).toBeNull();
    });
  }
});

// Inputs below are constructed for the rules (field placement), not quoted provider answers.
describe('detectUnknownField rules', () => {
  const cerebras =
    "messages.2.assistant.reasoning_content: property 'messages.2.assistant.reasoning_content' is unsupported";

  it('widens reasoning_content to all three, reasoning/reasoning_details to those two', () => {
    expect(widen(['reasoning_content'])).toEqual([...ALL]);
    expect(widen(['reasoning'])).toEqual(['reasoning', 'reasoning_details']);
    expect(widen(['reasoning_details'])).toEqual(['reasoning', 'reasoning_details']);
  });

  it('counts only 4xx and status-less errors', () => {
    expect(detectUnknownField(400, cerebras, ALL, 'standard')).toEqual([...ALL]);
    expect(detectUnknownField(422, cerebras, ALL, 'standard')).toEqual([...ALL]);
    expect(detectUnknownField(undefined, cerebras, ALL, 'standard')).toEqual([...ALL]);
    expect(detectUnknownField(null, cerebras, ALL, 'standard')).toEqual([...ALL]);
    expect(detectUnknownField(500, cerebras, ALL, 'standard')).toBeNull();
    expect(detectUnknownField(200, cerebras, ALL, 'standard')).toBeNull();
    expect(detectUnknownField(302, cerebras, ALL, 'standard')).toBeNull();
  });

  it('needs the named field to have been sent (an already-withheld field falls through)', () => {
    expect(detectUnknownField(400, cerebras, ['reasoning', 'reasoning_details'], 'standard')).toBeNull();
    expect(detectUnknownField(400, cerebras, [], 'standard')).toBeNull();
  });

  it('reads reasoning_content / reasoning_details only as whole words', () => {
    expect(carriersNamed(errorText('unknown field reasoning_contents'))).toEqual([]);
    expect(carriersNamed(errorText('unknown field my_reasoning_details'))).toEqual([]);
    expect(carriersNamed(errorText('unknown field `reasoning_details`'))).toEqual(['reasoning_details']);
  });

  it('reads `reasoning` only on a messages path, never the top-level parameter', () => {
    const top = {
      error: { message: "Unknown parameter: 'reasoning'.", param: 'reasoning', code: 'unknown_parameter' },
    };
    expect(detectUnknownField(400, top, ALL, 'standard')).toBeNull();
    expect(detectUnknownField(400, "Unknown parameter: 'messages[2].reasoning'.", ALL, 'standard')).toEqual([
      'reasoning',
      'reasoning_details',
    ]);
    expect(
      detectUnknownField(400, 'body.messages.2.reasoning: Extra inputs are not permitted', ALL, 'standard'),
    ).toEqual(['reasoning', 'reasoning_details']);
    expect(
      detectUnknownField(
        422,
        {
          detail: [
            {
              type: 'extra_forbidden',
              loc: ['body', 'messages', 3, 'assistant', 'reasoning'],
              msg: 'Extra inputs are not permitted',
            },
          ],
        },
        ALL,
        'standard',
      ),
    ).toEqual(['reasoning', 'reasoning_details']);
    expect(
      detectUnknownField(
        400,
        "'messages.4' : for 'role:assistant' the following must be satisfied[('messages.4' : property 'reasoning' is unsupported)]",
        ALL,
        'standard',
      ),
    ).toEqual(['reasoning', 'reasoning_details']);
    expect(detectUnknownField(400, "property 'reasoning' is unsupported", ALL, 'standard')).toBeNull();
  });

  it('sees an upstream rejection wrapped in an aggregator envelope (escaped raw body)', () => {
    const wrapped = {
      error: {
        message: 'Provider returned error',
        code: 400,
        metadata: { raw: JSON.stringify({ message: cerebras }) },
      },
    };
    expect(detectUnknownField(400, wrapped, ALL, 'standard')).toEqual([...ALL]);
  });

  it('never records reasoning_content on a must-echo route (a value complaint there)', () => {
    expect(detectUnknownField(400, cerebras, ['reasoning_content'], 'must-echo')).toBeNull();
    const both =
      "Unknown parameter: 'messages[1].reasoning_content'. Unknown parameter: 'messages[1].reasoning_details'.";
    expect(detectUnknownField(400, both, ALL, 'must-echo')).toEqual(['reasoning', 'reasoning_details']);
  });

  it('needs an unknown-field phrasing: naming a field is not enough', () => {
    expect(detectUnknownField(400, 'reasoning_content too long', ALL, 'standard')).toBeNull();
    expect(detectUnknownField(400, { error: { message: 'Provider returned error' } }, ALL, 'standard')).toBeNull();
  });
});
