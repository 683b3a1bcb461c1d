import { describe, expect, it } from 'vitest';
import type { ProviderSpec } from '../../../shared/provider-specs/provider-spec.js';
import { mockEncryptedContent, mockPairedItemId, organizationOf } from '../../signing/openai-issued-items.js';
import { encryptedContentFinding, judgeOpenAIResponses } from './request-rules.js';

/**
 * The Responses judge driven directly with a hand-made spec (its id picks the organization, its
 * rejections pick the rules): the family test reaches it only through one replayed tool loop on
 * the bundled spec. These cases pin what a client is told (which rejection, which input index,
 * item id and blob) and which items count as the output a reasoning item produced.
 */

const ALL = [
  'item-not-found',
  'encrypted-content-not-verified',
  'encrypted-content-other-organization',
  'reasoning-without-following',
  'function-call-without-reasoning',
  'message-without-reasoning',
  'encrypted-content-unsupported-model',
];
const LEGACY = ['encrypted-content-not-verified-legacy', 'encrypted-content-other-organization-legacy'];
const spec = (rejections = ALL, id = 'openai-responses'): ProviderSpec =>
  ({
    id,
    rejections: Object.fromEntries(rejections.map((r) => [r, { status: 400, sources: [] }])),
  }) as unknown as ProviderSpec;
const without = (...names: string[]) => spec(ALL.filter((r) => !names.includes(r)));

const RS = 'rs_0a1b2c';
const OWN = mockEncryptedContent(RS, 'gaps', organizationOf('openai-responses'));
const FOREIGN = mockEncryptedContent(RS, 'gaps', organizationOf('openrouter'));
const FC = mockPairedItemId('function_call', RS, 0);
const MSG = mockPairedItemId('message', RS, 1);
const reasoning = (extra: Record<string, unknown> = {}) => ({
  type: 'reasoning',
  id: RS,
  summary: [],
  encrypted_content: OWN,
  ...extra,
});
const fc = (id = FC) => ({ type: 'function_call', id, call_id: 'call_1', name: 'ls', arguments: '{}' });
const user = { role: 'user', content: 'q' };
const judged = (input: unknown[], s = spec(), extra: Record<string, unknown> = {}) =>
  judgeOpenAIResponses(s, { store: false, input, ...extra });
const rejections = (input: unknown[], s = spec(), extra: Record<string, unknown> = {}) =>
  judged(input, s, extra).map((f) => f.rejection);

describe('judgeOpenAIResponses: the body as a whole', () => {
  it('judges nothing without an input list', () => {
    expect(judgeOpenAIResponses(spec(), null)).toStrictEqual([]);
    expect(judgeOpenAIResponses(spec(), { input: 'hello', include: ['reasoning.encrypted_content'] })).toStrictEqual(
      [],
    );
  });

  it('refuses include of encrypted reasoning only where the spec defines it, and only for that include', () => {
    expect(judged([user], spec(), { include: ['reasoning.encrypted_content'] })).toStrictEqual([
      {
        rule: 'provider-accepts',
        rejection: 'encrypted-content-unsupported-model',
        params: { path: 'include', field: 'include' },
        detail: 'include asks a model that does not reason for reasoning.encrypted_content',
      },
    ]);
    expect(judged([user], spec(), { include: ['message.output_text.logprobs'] })).toStrictEqual([]);
    expect(judged([user], spec(), { include: 'reasoning.encrypted_content' })).toStrictEqual([]);
    expect(
      judged([user], without('encrypted-content-unsupported-model'), { include: ['reasoning.encrypted_content'] }),
    ).toStrictEqual([]);
  });
});

describe('judgeOpenAIResponses: a reasoning item replayed without stored state', () => {
  it('answers item-not-found for absent, null or empty encrypted content when store is false', () => {
    for (const content of [undefined, null, '']) {
      expect(judged([user, reasoning({ encrypted_content: content }), fc()])).toStrictEqual([
        {
          rule: 'signatures-verbatim',
          rejection: 'item-not-found',
          params: { index: 1, path: RS, field: 'encrypted_content' },
          detail: `reasoning item ${RS} at input 1 has no encrypted_content and store is false`,
        },
      ]);
    }
    expect(judged([user, reasoning({ encrypted_content: null }), fc()], without('item-not-found'))).toStrictEqual([]);
  });

  it('names an id-less reasoning item (or one whose id is no string) with an empty path', () => {
    for (const id of [undefined, 7]) {
      expect(judged([user, reasoning({ id, encrypted_content: undefined }), fc()])[0]).toStrictEqual({
        rule: 'signatures-verbatim',
        rejection: 'item-not-found',
        params: { index: 1, path: '', field: 'encrypted_content' },
        detail: 'reasoning item  at input 1 has no encrypted_content and store is false',
      });
    }
    // An id-less item's blob is judged as an id-less one: the older wording names the blob.
    expect(
      judgeOpenAIResponses(spec([...ALL, ...LEGACY]), {
        input: [user, reasoning({ id: 7, encrypted_content: 'forged-content-blob' }), fc()],
      })[0]?.rejection,
    ).toBe('encrypted-content-not-verified-legacy');
  });

  it('names the input index of a refused blob', () => {
    expect(judged([user, user, reasoning({ encrypted_content: 'forged-content-blob' }), fc()])[0]).toMatchObject({
      params: { index: 2, path: RS },
      detail: `encrypted_content of ${RS} at input.2 is not what the server issued for that item`,
    });
  });

  it('lets a reasoning item without content through when the server stores items (store not false)', () => {
    expect(judged([user, reasoning({ encrypted_content: undefined }), fc()], spec(), { store: true })).toStrictEqual(
      [],
    );
    expect(judgeOpenAIResponses(spec(), { input: [user, reasoning({ encrypted_content: null }), fc()] })).toStrictEqual(
      [],
    );
  });

  it('verifies content that is there even when store is true, and an empty one when store is not false', () => {
    expect(rejections([user, reasoning({ encrypted_content: 'forged' }), fc()], spec(), { store: true })).toStrictEqual(
      ['encrypted-content-not-verified'],
    );
    expect(rejections([user, reasoning({ encrypted_content: '' }), fc()], spec(), { store: true })).toStrictEqual([
      'encrypted-content-not-verified',
    ]);
  });
});

describe('encryptedContentFinding', () => {
  const at = { index: 3, path: 'input.3' };

  it('passes content issued for this item under this organization', () => {
    expect(encryptedContentFinding(spec(), RS, OWN, at)).toBeUndefined();
    expect(encryptedContentFinding(spec(ALL, 'openrouter'), RS, FOREIGN, at)).toBeUndefined();
  });

  it('names the item, the field and the blob abbreviated as OpenAI does', () => {
    expect(encryptedContentFinding(spec(), RS, 'forged-content-blob', at)).toStrictEqual({
      rule: 'signatures-verbatim',
      rejection: 'encrypted-content-not-verified',
      params: { index: 3, path: RS, field: 'encrypted_content', item: 'forg...blob' },
      detail: `encrypted_content of ${RS} at input.3 is not what the server issued for that item`,
    });
    // A blob of 12 characters or fewer is shown whole; a non-string as its text.
    expect(encryptedContentFinding(spec(), RS, 'abcdefghijkl', at)?.params.item).toBe('abcdefghijkl');
    expect(encryptedContentFinding(spec(), RS, 'abcdefghijklm', at)?.params.item).toBe('abcd...jklm');
    expect(encryptedContentFinding(spec(), RS, 42, at)?.params.item).toBe('42');
  });

  it('tells content issued under another organization apart, naming both, and says nothing where the spec has no wording', () => {
    expect(encryptedContentFinding(spec(), RS, FOREIGN, at)).toStrictEqual({
      rule: 'signatures-verbatim',
      rejection: 'encrypted-content-other-organization',
      params: { index: 3, path: RS, field: 'encrypted_content', item: `${FOREIGN.slice(0, 4)}...${FOREIGN.slice(-4)}` },
      detail: `encrypted_content of ${RS} at input.3 was issued for org-mock-openrouter, not for org-mock-openai-responses`,
    });
    expect(encryptedContentFinding(without('encrypted-content-other-organization'), RS, FOREIGN, at)).toBeUndefined();
    expect(encryptedContentFinding(without('encrypted-content-not-verified'), RS, 'forged', at)).toBeUndefined();
  });

  it('uses the older wording only for an id-less item, and only where the spec has it', () => {
    const both = spec([...ALL, ...LEGACY]);
    const idless = mockEncryptedContent('', 'gaps', organizationOf('openrouter'));
    expect(encryptedContentFinding(both, '', 'forged', at)).toMatchObject({
      rejection: 'encrypted-content-not-verified-legacy',
      detail: 'encrypted_content of an id-less reasoning item at input.3 is not what the server issued for that item',
    });
    expect(encryptedContentFinding(both, '', idless, at)).toMatchObject({
      rejection: 'encrypted-content-other-organization-legacy',
      detail: expect.stringMatching(/^encrypted_content of an id-less reasoning item at input\.3 was issued for/),
    });
    expect(encryptedContentFinding(both, RS, 'forged', at)?.rejection).toBe('encrypted-content-not-verified');
    expect(encryptedContentFinding(both, RS, FOREIGN, at)?.rejection).toBe('encrypted-content-other-organization');
    // Only the not-verified legacy wording defined: an id-less foreign blob keeps the current organization wording.
    expect(encryptedContentFinding(spec([...ALL, LEGACY[0]!]), '', idless, at)?.rejection).toBe(
      'encrypted-content-other-organization',
    );
    expect(encryptedContentFinding(spec([...ALL, LEGACY[1]!]), '', 'forged', at)?.rejection).toBe(
      'encrypted-content-not-verified',
    );
  });

  it("judges with the rejections it is given (a gateway passing its upstream's)", () => {
    const upstream = {
      'encrypted-content-not-verified': { status: 400, sources: [] },
    } as unknown as ProviderSpec['rejections'];
    expect(encryptedContentFinding(spec([]), RS, 'forged', at, upstream)?.rejection).toBe(
      'encrypted-content-not-verified',
    );
    expect(encryptedContentFinding(spec(), RS, 'forged', at, {})).toBeUndefined();
  });
});

describe('judgeOpenAIResponses: what a reasoning item must be followed by', () => {
  it('counts the items a response produces after its reasoning as its output', () => {
    const outputs = [
      { type: 'message', role: 'assistant', content: [] },
      {
        type: 'reasoning',
        id: 'rs_ff',
        encrypted_content: mockEncryptedContent('rs_ff', 'gaps', organizationOf('openai-responses')),
      },
      // A call the response produced carries its id: an id-less one cannot be paired (decision 0093).
      { type: 'function_call', id: 'fc_1', call_id: 'c', name: 'ls', arguments: '{}' },
      { type: 'web_search_call', id: 'ws_1' },
      { type: 'custom_tool_call', id: 'ctc_1', call_id: 'c', name: 'x', input: '' },
      { type: 'mcp_list_tools', id: 'mcpl_1' },
      { role: 'assistant', content: 'text' },
      { type: 'message', content: [] },
    ];
    for (const next of outputs)
      expect(
        judged([user, reasoning(), next], spec(), { store: true }).filter((f) => f.params.index === 1),
        JSON.stringify(next),
      ).toStrictEqual([]);
  });

  it('refuses a reasoning item followed by input, a tool output, or nothing, naming it', () => {
    for (const next of [
      [user],
      [{ type: 'function_call_output', call_id: 'c', output: 'x' }],
      [{ type: 'custom_tool_call_output', call_id: 'c', output: 'x' }],
      ['text'],
      [{ type: 7 }],
      [],
    ]) {
      expect(
        judged([user, reasoning(), ...next]).filter((f) => f.rejection === 'reasoning-without-following'),
        JSON.stringify(next),
      ).toStrictEqual([
        {
          rule: 'provider-accepts',
          rejection: 'reasoning-without-following',
          params: { index: 1, path: RS },
          detail: `reasoning item ${RS} at input 1 is not followed by the item it produced`,
        },
      ]);
    }
    expect(judged([user, reasoning()], without('reasoning-without-following'))).toStrictEqual([]);
  });
});

describe('judgeOpenAIResponses: output items replayed with their reasoning item', () => {
  it('names a function call or message replayed without the reasoning item it came with', () => {
    expect(judged([user, fc(), { type: 'function_call_output', call_id: 'call_1', output: 'x' }])).toStrictEqual([
      {
        rule: 'provider-accepts',
        rejection: 'function-call-without-reasoning',
        params: { index: 1, path: FC, field: RS },
        detail: `function_call ${FC} at input 1 arrived without its reasoning item ${RS}`,
      },
    ]);
    expect(judged([user, { type: 'message', id: MSG, role: 'assistant', content: [] }, user])).toStrictEqual([
      {
        rule: 'provider-accepts',
        rejection: 'message-without-reasoning',
        params: { index: 1, path: MSG, field: RS },
        detail: `message ${MSG} at input 1 arrived without its reasoning item ${RS}`,
      },
    ]);
  });

  it('wants the reasoning item before the output item, not after it', () => {
    expect(rejections([user, fc(), reasoning(), { type: 'message', role: 'assistant', content: [] }])).toStrictEqual([
      'function-call-without-reasoning',
    ]);
    expect(rejections([user, reasoning(), fc()])).toStrictEqual([]);
  });

  it('takes an item_reference by id as the reasoning item, but not an id-less one', () => {
    expect(rejections([user, { type: 'item_reference', id: RS }, fc()], spec(), { store: true })).toStrictEqual([]);
    expect(rejections([user, { type: 'item_reference' }, fc()], spec(), { store: true })).toStrictEqual([
      'function-call-without-reasoning',
    ]);
  });

  it('pairs an id-less reasoning item with nothing, and pairs only ids the mock issued', () => {
    expect(
      rejections([user, reasoning({ id: undefined, encrypted_content: undefined }), fc()], spec(), { store: true }),
    ).toStrictEqual(['function-call-without-reasoning']);
    expect(rejections([user, fc('fc_0123'), { type: 'message', id: 7, role: 'assistant' }])).toStrictEqual([]);
    expect(rejections([user, fc()], without('function-call-without-reasoning'))).toStrictEqual([]);
    expect(rejections([user, { type: 'message', id: MSG }], without('message-without-reasoning'))).toStrictEqual([]);
  });

  it('reads each item in order, skipping what is not an object', () => {
    expect(judged([null, 'text', user, fc()]).map((f) => f.params.index)).toStrictEqual([3]);
  });
});
