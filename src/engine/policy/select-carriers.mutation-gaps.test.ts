import { describe, expect, it } from 'vitest';
import type { Message, ReasoningDetail, StandardCarrierField } from '../../shared/history/history.js';
import type { RoutePolicy, Tier } from '../../shared/route-table/route-table.js';
import {
  MUST_ECHO_PLACEHOLDER,
  hasReadableReasoning,
  isToolCallTurn,
  readableDetailText,
  selectCarriers,
} from './select-carriers.js';

/**
 * selectCarriers decides, per message and route, which reasoning travels. The property tests of
 * replayForRoute check it through the whole engine on the bundled table; Stryker showed that left
 * its branches loose (aliases, the omit set, the pad, the native record). These cases pin the rules
 * themselves on hand-made policies, so they hold whatever the table says.
 */

const policy = (tier: Tier, fields: StandardCarrierField[], extra: Partial<RoutePolicy> = {}): RoutePolicy => ({
  routeId: 'r',
  label: 'r',
  family: 'openai-chat',
  tier,
  fields,
  flags: {},
  target: { provider: 'p', host: 'h.example', model: 'm' },
  ...extra,
});

const ALL: StandardCarrierField[] = ['reasoning_content', 'reasoning', 'reasoning_details'];
const toolCall = { id: 'c1', type: 'function' as const, function: { name: 'f', arguments: '{}' } };
const encrypted: ReasoningDetail = { type: 'reasoning.encrypted', data: 'ZW5j' };
const assistant = (fields: Partial<Message> = {}): Message => ({ role: 'assistant', content: 'hi', ...fields });

describe('selectCarriers', () => {
  it('sends nothing for a message that is not the assistant’s, whatever it holds', () => {
    const user: Message = {
      role: 'user',
      content: 'q',
      reasoning_content: 'r',
      reasoning: 'r',
      reasoning_details: [encrypted],
    };
    expect(selectCarriers(user, policy('standard', ALL))).toStrictEqual({});
    expect(selectCarriers({ ...user, role: 'tool', tool_calls: [toolCall] }, policy('must-echo', ALL))).toStrictEqual(
      {},
    );
  });

  it('sends nothing to a strict route, even when it lists fields', () => {
    expect(
      selectCarriers(
        assistant({ reasoning_content: 'r', reasoning: 'r', reasoning_details: [encrypted], tool_calls: [toolCall] }),
        policy('strict', ALL),
      ),
    ).toStrictEqual({});
  });

  it('sends only the fields the route reads', () => {
    const m = assistant({ reasoning_content: 'rc', reasoning: 'rs', reasoning_details: [encrypted] });
    expect(selectCarriers(m, policy('standard', ['reasoning_content']))).toStrictEqual({ reasoning_content: 'rc' });
    expect(selectCarriers(m, policy('standard', ['reasoning']))).toStrictEqual({ reasoning: 'rs' });
    expect(selectCarriers(m, policy('standard', ['reasoning_details']))).toStrictEqual({
      reasoning_details: [encrypted],
    });
    expect(selectCarriers(m, policy('standard', []))).toStrictEqual({});
  });

  it('fills a blank readable carrier from its alias, and sends neither when both are blank', () => {
    expect(
      selectCarriers(
        assistant({ reasoning_content: '  ', reasoning: 'from reasoning' }),
        policy('standard', ['reasoning_content']),
      ),
    ).toStrictEqual({ reasoning_content: 'from reasoning' });
    expect(
      selectCarriers(assistant({ reasoning: '\n', reasoning_content: 'from rc' }), policy('standard', ['reasoning'])),
    ).toStrictEqual({ reasoning: 'from rc' });
    expect(
      selectCarriers(assistant({ reasoning_content: 'from rc' }), policy('standard', ['reasoning'])),
    ).toStrictEqual({ reasoning: 'from rc' });
    expect(
      selectCarriers(assistant({ reasoning: 'from reasoning' }), policy('standard', ['reasoning_content'])),
    ).toStrictEqual({ reasoning_content: 'from reasoning' });
    const blank = selectCarriers(
      assistant({ reasoning_content: ' ', reasoning: '' }),
      policy('standard', ['reasoning_content', 'reasoning']),
    );
    expect(blank).toStrictEqual({});
    expect('reasoning_content' in blank || 'reasoning' in blank).toBe(false);
  });

  it('keeps each readable carrier’s own text when both are set', () => {
    expect(
      selectCarriers(
        assistant({ reasoning_content: 'rc', reasoning: 'rs' }),
        policy('standard', ['reasoning_content', 'reasoning']),
      ),
    ).toStrictEqual({ reasoning_content: 'rc', reasoning: 'rs' });
  });

  it('hands over the same reasoning_details array (signed items only work verbatim), never an empty one', () => {
    const details: ReasoningDetail[] = [{ type: 'thinking', thinking: 't', signature: 'sig' }, encrypted];
    expect(selectCarriers(assistant({ reasoning_details: details }), policy('standard', ALL)).reasoning_details).toBe(
      details,
    );
    expect('reasoning_details' in selectCarriers(assistant({ reasoning_details: [] }), policy('standard', ALL))).toBe(
      false,
    );
  });

  it('drops the fields a provider refused at run time, except reasoning_content on a must-echo route', () => {
    const m = assistant({ reasoning_content: 'rc', reasoning: 'rs', reasoning_details: [encrypted] });
    expect(selectCarriers(m, policy('standard', ALL), new Set(['reasoning_content']))).toStrictEqual({
      reasoning: 'rs',
      reasoning_details: [encrypted],
    });
    expect(selectCarriers(m, policy('standard', ALL), new Set(['reasoning', 'reasoning_details']))).toStrictEqual({
      reasoning_content: 'rc',
    });
    expect(selectCarriers(m, policy('must-echo', ALL), new Set(['reasoning_content', 'reasoning']))).toStrictEqual({
      reasoning_content: 'rc',
      reasoning_details: [encrypted],
    });
  });

  describe('on a must-echo route', () => {
    const mustEcho = policy('must-echo', ['reasoning_content']);

    it('echoes the readable text of typed items on a tool-call turn that has no reasoning_content', () => {
      const details: ReasoningDetail[] = [
        { type: 'reasoning.text', text: 'one' },
        encrypted,
        { type: 'thinking', thinking: 'two' },
        { type: 'reasoning.summary', summary: 'three' },
      ];
      expect(selectCarriers(assistant({ tool_calls: [toolCall], reasoning_details: details }), mustEcho)).toStrictEqual(
        { reasoning_content: 'one\ntwo\nthree' },
      );
    });

    it('pads a tool-call turn whose reasoning is unreadable or missing, and says it padded', () => {
      expect(
        selectCarriers(assistant({ tool_calls: [toolCall], reasoning_details: [encrypted] }), mustEcho),
      ).toStrictEqual({ reasoning_content: MUST_ECHO_PLACEHOLDER, padded: true });
      expect(selectCarriers(assistant({ tool_calls: [toolCall] }), mustEcho)).toStrictEqual({
        reasoning_content: MUST_ECHO_PLACEHOLDER,
        padded: true,
      });
      expect(MUST_ECHO_PLACEHOLDER.trim()).toBe('');
      expect(MUST_ECHO_PLACEHOLDER).not.toBe('');
    });

    it('does not pad a turn that already carries reasoning_content', () => {
      expect(selectCarriers(assistant({ tool_calls: [toolCall], reasoning_content: 'why' }), mustEcho)).toStrictEqual({
        reasoning_content: 'why',
      });
    });

    it('neither pads nor echoes on a turn without tool calls', () => {
      expect(
        selectCarriers(assistant({ reasoning_details: [{ type: 'reasoning.text', text: 'one' }] }), mustEcho),
      ).toStrictEqual({});
      expect(selectCarriers(assistant({ tool_calls: [] }), mustEcho)).toStrictEqual({});
    });

    it('does not pad on a standard route', () => {
      expect(
        selectCarriers(assistant({ tool_calls: [toolCall] }), policy('standard', ['reasoning_content'])),
      ).toStrictEqual({});
    });
  });

  it('sends the native record only to the route that owns it', () => {
    const m = assistant({ native: { route: 'gemini', fields: { thoughtSignature: 'sig' } } });
    expect(selectCarriers(m, policy('standard', [], { native: 'gemini' }))).toStrictEqual({
      native: { thoughtSignature: 'sig' },
    });
    expect(selectCarriers(m, policy('standard', [], { native: 'copilot' }))).toStrictEqual({});
    expect(selectCarriers(m, policy('standard', []))).toStrictEqual({});
    expect(selectCarriers(assistant(), policy('standard', [], { native: 'gemini' }))).toStrictEqual({});
  });
});

describe('readableDetailText', () => {
  it('joins the readable items in order with newlines and skips blank and opaque ones', () => {
    expect(
      readableDetailText([
        { type: 'reasoning.summary', summary: 's' },
        { type: 'reasoning.text', text: ' ' },
        { type: 'redacted_thinking', data: 'x' },
        { type: 'reasoning.text', text: 't' },
      ]),
    ).toBe('s\nt');
  });

  it('has no text for missing, empty or opaque-only items', () => {
    expect(readableDetailText(undefined)).toBeUndefined();
    expect(readableDetailText([])).toBeUndefined();
    expect(readableDetailText([encrypted, { type: 'thinking', thinking: '' }])).toBeUndefined();
  });
});

describe('hasReadableReasoning', () => {
  it('finds readable reasoning in any of the three places', () => {
    expect(hasReadableReasoning(assistant({ reasoning_content: 'r' }))).toBe(true);
    expect(hasReadableReasoning(assistant({ reasoning: 'r' }))).toBe(true);
    expect(hasReadableReasoning(assistant({ reasoning_details: [{ type: 'thinking', thinking: 'r' }] }))).toBe(true);
  });

  it('finds none in blanks or encrypted items', () => {
    expect(
      hasReadableReasoning(assistant({ reasoning_content: ' ', reasoning: '', reasoning_details: [encrypted] })),
    ).toBe(false);
    expect(hasReadableReasoning(assistant())).toBe(false);
  });
});

describe('isToolCallTurn', () => {
  it('is an assistant turn with at least one tool call', () => {
    expect(isToolCallTurn(assistant({ tool_calls: [toolCall] }))).toBe(true);
    expect(isToolCallTurn(assistant({ tool_calls: [] }))).toBe(false);
    expect(isToolCallTurn(assistant())).toBe(false);
    expect(isToolCallTurn({ role: 'user', content: 'x', tool_calls: [toolCall] })).toBe(false);
  });
});
