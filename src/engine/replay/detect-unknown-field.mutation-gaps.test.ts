import { describe, expect, it } from 'vitest';
import {
  carriersNamed,
  detectUnknownField,
  errorText,
  hasUnknownFieldPhrasing,
  widen,
} from './detect-unknown-field.js';
import type { UnknownFieldPhrasings } from './unknown-field-phrasings.js';

/**
 * The fallback's reading of a provider error, driven with hand-written bodies (constructed for the
 * rules, not quoted provider answers) and a hand-made phrasings list: which bodies count, at which
 * status, and which carrier a body names, whatever the bundled phrasings file holds.
 */

const ALL = ['reasoning_content', 'reasoning', 'reasoning_details'] as const;
const own: UnknownFieldPhrasings = {
  version: 1,
  phrasings: [{ match: 'field not welcome', origin: 'seed-list', examples: [] }],
  notRejections: [],
};

describe('errorText', () => {
  it('reads strings, JSON bodies and nothing alike, lowercased and without JSON escapes', () => {
    expect(errorText(undefined)).toBe('');
    expect(errorText(null)).toBe('');
    expect(errorText('Unknown Field')).toBe('unknown field');
    expect(errorText({ Message: 'X' })).toBe('{"message":"x"}');
    expect(errorText({ raw: JSON.stringify({ m: JSON.stringify({ f: 'Y' }) }) })).toBe('{"raw":"{"m":"{"f":"y"}"}"}');
    expect(errorText('a\\\\\\b')).toBe('ab');
  });

  it('falls back to the text of a body JSON cannot write', () => {
    const circular: Record<string, unknown> = { name: 'X' };
    circular.self = circular;
    expect(errorText(circular)).toBe('[object object]');
  });
});

describe('hasUnknownFieldPhrasing', () => {
  it('matches the phrasings it is given, in any case', () => {
    expect(hasUnknownFieldPhrasing('The FIELD NOT WELCOME here', own)).toBe(true);
    expect(hasUnknownFieldPhrasing('unknown field', own)).toBe(false);
    expect(hasUnknownFieldPhrasing('Unknown Field "x"')).toBe(true);
  });
});

describe('carriersNamed: where `reasoning` sits on a messages path', () => {
  const names = (text: string) => carriersNamed(errorText(text));

  it('reads dotted, bracketed and quoted message paths, also deeper inside a message', () => {
    for (const text of [
      "unknown parameter: 'messages[2].reasoning'",
      'messages.2.reasoning: extra inputs are not permitted',
      "messages[2]['reasoning'] is unsupported",
      'messages[2]["reasoning"] is unsupported',
      'messages[0].content[1].reasoning: unknown field',
      'messages.10.assistant.reasoning: unknown field',
      "unknown parameter: 'messages[12].reasoning'",
      "unknown parameter: 'messages[12]['reasoning']'",
    ]) {
      expect(names(text), text).toStrictEqual(['reasoning']);
    }
  });

  it('reads pydantic loc arrays, with or without the role, and with or without spaces', () => {
    expect(names('{"loc":["body","messages",3,"assistant","reasoning"]}')).toStrictEqual(['reasoning']);
    expect(names('{"loc":["body","messages",3,"reasoning"]}')).toStrictEqual(['reasoning']);
    expect(names('["messages", 3, "reasoning"]')).toStrictEqual(['reasoning']);
    expect(names('["messages", 3, "tool_use", "reasoning"]')).toStrictEqual(['reasoning']);
    expect(names('["messages", 3, "role2", "reasoning"]')).toStrictEqual([]);
    expect(names('["messages", "x", "reasoning"]')).toStrictEqual([]);
  });

  it("reads Groq's and Google's forms", () => {
    expect(names("'messages.4' : property 'reasoning' is unsupported")).toStrictEqual(['reasoning']);
    expect(names("messages[4]: 'reasoning' is unsupported")).toStrictEqual(['reasoning']);
    expect(names('messages.4:"reasoning" is unsupported')).toStrictEqual(['reasoning']);
    expect(names('Unknown name "reasoning" at \'messages[1]\': Cannot find field.')).toStrictEqual(['reasoning']);
    expect(names("unknown name 'reasoning' at  'request.messages[1]'")).toStrictEqual(['reasoning']);
  });

  it('never reads a longer name, the top-level parameter, or reasoning off a messages path', () => {
    for (const text of [
      "unknown parameter: 'messages[2].reasoning_text'",
      "unknown parameter: 'messages[2].reasoning2'",
      "unknown parameter: 'messages[2].myreasoning'",
      "unknown parameter: 'reasoning'",
      "unknown parameter: 'tools[2].reasoning'",
      "unknown parameter: 'messages.reasoning'",
      '["tools", 3, "reasoning"]',
      "'tools.4' : property 'reasoning' is unsupported",
      'unknown name "reasoning" at \'generation_config\'',
      'unknown name "reasoning_x" at \'messages[1]\'',
    ]) {
      expect(names(text), text).toStrictEqual([]);
    }
  });

  it('lists what it names in the carriers’ own order, whatever the text’s order', () => {
    expect(
      names("unknown field reasoning_details, unknown field 'messages[1].reasoning', unknown field reasoning_content"),
    ).toStrictEqual([...ALL]);
  });
});

describe('widen', () => {
  it('widens nothing to nothing, and each name to its family', () => {
    expect(widen([])).toStrictEqual([]);
    expect(widen(['reasoning_details', 'reasoning'])).toStrictEqual(['reasoning', 'reasoning_details']);
    expect(widen(['reasoning', 'reasoning_content'])).toStrictEqual([...ALL]);
  });
});

describe('detectUnknownField', () => {
  const body = "Unknown field 'messages[1].reasoning_details'";

  it('counts a status-less answer (0) and every 4xx, and nothing around them', () => {
    expect(detectUnknownField(0, body, ALL, 'standard')).toStrictEqual(['reasoning', 'reasoning_details']);
    expect(detectUnknownField(400, body, ALL, 'standard')).toStrictEqual(['reasoning', 'reasoning_details']);
    expect(detectUnknownField(499, body, ALL, 'standard')).toStrictEqual(['reasoning', 'reasoning_details']);
    expect(detectUnknownField(399, body, ALL, 'standard')).toBeNull();
    expect(detectUnknownField(500, body, ALL, 'standard')).toBeNull();
  });

  it('reads the phrasings it is given instead of the bundled ones', () => {
    const text = 'messages[1].reasoning_details: field not welcome';
    expect(detectUnknownField(400, text, ALL, 'standard')).toBeNull();
    expect(detectUnknownField(400, text, ALL, 'standard', own)).toStrictEqual(['reasoning', 'reasoning_details']);
    expect(detectUnknownField(400, body, ALL, 'standard', own)).toBeNull();
  });

  it('widens only from a field that was sent, and keeps reasoning_content out on a must-echo route only', () => {
    const both = "Unknown field 'messages[1].reasoning_content', unknown field 'messages[1].reasoning'";
    expect(detectUnknownField(400, both, ['reasoning'], 'standard')).toStrictEqual(['reasoning', 'reasoning_details']);
    expect(detectUnknownField(400, both, ['reasoning_content'], 'strict')).toStrictEqual([...ALL]);
    expect(detectUnknownField(400, both, ALL, 'must-echo')).toStrictEqual(['reasoning', 'reasoning_details']);
    expect(detectUnknownField(400, both, ['reasoning_details'], 'standard')).toBeNull();
  });
});
