import { describe, expect, it, test } from 'vitest';
import fc from 'fast-check';
import { fromGeminiResponse } from '../../../engine/families/gemini/from-response.js';
import { renderGeminiAnswer } from './render-answer.js';
import type { History } from '../../../shared/history/history.js';
import { specForModel } from '../../../shared/provider-specs/spec-for-model.js';
import { loadProviderSpec } from '../../../shared/provider-specs/load-provider-specs.js';
import { replayForRoute } from '../../../engine/replay/replay-for-route.js';
import { loadRouteTable } from '../../../shared/route-table/load-route-table.js';
import { resolveRoute } from '../../../shared/route-table/resolve-route.js';
import { specsDir } from '../../../shared/project-root.js';
import { fillRejection } from '../../handlers/fill-rejection.js';
import { judgeRequest } from '../../handlers/judge-request.js';

const spec = loadProviderSpec(`${specsDir()}/providers/gemini.json`);
const vertex = loadProviderSpec(`${specsDir()}/providers/vertex-gemini.json`);
const policy = resolveRoute(loadRouteTable(), {
  provider: 'gemini',
  host: 'generativelanguage.googleapis.com',
  model: 'gemini-3-pro-preview',
});
const calls = [
  { id: 'call_a', type: 'function' as const, function: { name: 'get_weather', arguments: '{"city":"Oslo"}' } },
  { id: 'call_b', type: 'function' as const, function: { name: 'get_weather', arguments: '{"city":"Rome"}' } },
];

/** A Gemini 3 tool loop in progress: parallel calls signed by the mock, their results, and the next request. */
function body(
  from = spec,
): Record<string, unknown> & { contents: Array<{ role: string; parts: Array<Record<string, unknown>> }> } {
  const answer = fromGeminiResponse(
    renderGeminiAnswer({ reasoning: 'Two lookups.', tool_calls: calls }, { spec: from, call: 0, scenario: 'judge' })
      .body,
  );
  const history: History = {
    messages: [
      { role: 'user', content: 'Weather in Oslo and Rome?' },
      answer.message,
      { role: 'tool', tool_call_id: 'call_a', content: '{"temp":-3}' },
      { role: 'tool', tool_call_id: 'call_b', content: '{"temp":14}' },
    ],
  };
  return structuredClone(replayForRoute(history, policy).body) as never;
}

const message = (findings: ReturnType<typeof judgeRequest>) => {
  const first = findings[0]!;
  return (fillRejection(spec.rejections[first.rejection]!, first.params).body as { error: { message: string } }).error
    .message;
};

describe('gemini judge', () => {
  it('accepts the signatures it issued, replayed where they came', () => {
    expect(judgeRequest(spec, body())).toEqual([]);
  });

  it("refuses a current-turn function call replayed without its thought_signature, in Google's words", () => {
    const b = body();
    delete b.contents[1]!.parts.find((p) => p.functionCall)!.thoughtSignature;
    const findings = judgeRequest(spec, b);
    expect(findings.map((f) => f.rejection)).toEqual(['missing-thought-signature']);
    expect(message(findings)).toBe(
      'Function call is missing a thought_signature in functionCall parts. This is required for tools to work correctly, and missing thought_signature may lead to degraded model performance. Additional data, function call `default_api:get_weather` , position 2. Please refer to https://ai.google.dev/gemini-api/docs/thought-signatures for more details.',
    );
  });

  it('numbers the content from 1, reads snake_case parts, and does not enforce the signature on Gemini 2.5', () => {
    const b = body();
    const call = b.contents[1]!.parts.find((p) => p.functionCall)!;
    delete call.thoughtSignature;
    expect(judgeRequest(spec, b)[0]?.params).toMatchObject({ index: 1, position: 2 });
    expect(judgeRequest(specForModel(spec, 'gemini-2.5-pro'), b)).toEqual([]);
    const snake = structuredClone(body()) as unknown as { contents: Array<{ parts: Array<Record<string, unknown>> }> };
    for (const part of snake.contents[1]!.parts) {
      if ('functionCall' in part) {
        part.function_call = part.functionCall;
        delete part.functionCall;
      }
      if ('thoughtSignature' in part) {
        part.thought_signature = part.thoughtSignature;
        delete part.thoughtSignature;
      }
    }
    expect(judgeRequest(spec, snake)).toEqual([]);
    for (const part of snake.contents[1]!.parts) delete part.thought_signature;
    expect(judgeRequest(spec, snake).map((f) => f.rejection)).toEqual(['missing-thought-signature']);
    expect(
      judgeRequest(spec, {
        contents: [
          {
            role: 'user',
            parts: [{ text: 'x' }, { executableCode: { language: 'PYTHON', code: '1' } }, { videoMetadata: {} }],
          },
        ],
        generation_config: { thinking_config: { include_thoughts: true, thinking_budget: 64 } },
      }),
    ).toEqual([]);
  });

  it('refuses a signature another endpoint issued, and an empty one', () => {
    expect(judgeRequest(spec, body(vertex)).map((f) => f.rejection)).toContain('corrupted-thought-signature');
    const b = body();
    b.contents[1]!.parts.find((p) => p.functionCall)!.thoughtSignature = '';
    expect(message(judgeRequest(spec, b))).toBe('Corrupted thought signature.');
  });

  test('refuses a signature with any one character changed', () => {
    fc.assert(
      fc.property(fc.nat(), fc.integer({ min: 1, max: 63 }), (at, shift) => {
        const b = body();
        const part = b.contents[1]!.parts.find((p) => p.functionCall)!;
        const sig = String(part.thoughtSignature);
        const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
        const i = at % sig.length;
        const c = sig[i]!;
        part.thoughtSignature =
          sig.slice(0, i) + (c === '=' ? 'A' : alphabet[(alphabet.indexOf(c) + shift) % 64]) + sig.slice(i + 1);
        expect(judgeRequest(spec, b).map((f) => f.rejection)).toEqual(['corrupted-thought-signature']);
      }),
    );
  });

  it('names unknown fields the way Google does', () => {
    const b = body();
    (b.contents[2]!.parts[0]!.functionResponse as Record<string, unknown>).callId = 'x';
    const findings = judgeRequest(spec, b);
    expect(findings[0]!.rejection).toBe('unknown-name-at');
    expect(message(findings)).toBe(
      'Invalid JSON payload received. Unknown name "callId" at \'contents[2].parts[0].function_response\': Cannot find field.',
    );
    expect(message(judgeRequest(spec, { ...body(), reasoning: { effort: 'high' } }))).toBe(
      'Invalid JSON payload received. Unknown name "reasoning": Cannot find field.',
    );
  });

  it('does not judge signatures of turns before the current one as missing', () => {
    const b = body();
    delete b.contents[1]!.parts.find((p) => p.functionCall)!.thoughtSignature;
    b.contents.push(
      { role: 'model', parts: [{ text: 'Oslo is colder.' }] },
      { role: 'user', parts: [{ text: 'Thanks' }] },
    );
    expect(judgeRequest(spec, b)).toEqual([]);
  });
});

describe('thoughtSignature is bytes: another base64 spelling of the same bytes is the same signature', () => {
  const rules = specForModel(spec, 'gemini-3-pro-preview');
  const signed = () => {
    const b = body();
    const part = b.contents.flatMap((c) => c.parts).find((p) => typeof p.thoughtSignature === 'string')!;
    return { b, part, signature: part.thoughtSignature as string };
  };

  it('accepts it URL-safe and unpadded, as google-genai (Python) sends it back', () => {
    const { b, part, signature } = signed();
    expect(signature).toMatch(/[+/=]/);
    part.thoughtSignature = signature.replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
    expect(judgeRequest(rules, b)).toEqual([]);
  });

  it('still refuses other bytes in either spelling', () => {
    const { b, part, signature } = signed();
    const other = `${signature[0] === 'A' ? 'B' : 'A'}${signature.slice(1)}`;
    part.thoughtSignature = other.replace(/\+/g, '-').replace(/\//g, '_');
    expect(judgeRequest(rules, b).map((f) => f.rejection)).toEqual(['corrupted-thought-signature']);
  });
});

/**
 * Issue 40: Gemini counts the functionResponse parts after a model turn against its functionCall parts
 * (google-gemini/gemini-cli#4217, #16415, #23068): "Please ensure that the number of function response parts is equal
 * to the number of function call parts of the function call turn."
 */
describe('function response parts counted against the calls', () => {
  const wording =
    'Please ensure that the number of function response parts is equal to the number of function call parts of the function call turn.';
  const responses = (b: ReturnType<typeof body>) => b.contents[2]!.parts;

  it('accepts two parallel calls (one name) answered by two responses', () => {
    expect(responses(body()).filter((p) => p.functionResponse)).toHaveLength(2);
    expect(judgeRequest(spec, body())).toEqual([]);
  });

  it('refuses one response for two calls, in Google words, even though both share the name answered', () => {
    const b = body();
    b.contents[2]!.parts = responses(b).slice(0, 1);
    const findings = judgeRequest(spec, b);
    expect(findings.map((f) => f.rejection)).toEqual(['function-response-count-mismatch']);
    expect(message(findings)).toBe(wording);
  });

  it('refuses a third response, and a user text in place of the responses', () => {
    const b = body();
    b.contents[2]!.parts.push(structuredClone(responses(b)[0]!));
    expect(judgeRequest(spec, b).map((f) => f.rejection)).toEqual(['function-response-count-mismatch']);
    const c = body();
    c.contents[2] = { role: 'user', parts: [{ text: 'never mind' }] };
    expect(judgeRequest(spec, c).map((f) => f.rejection)).toContain('function-response-count-mismatch');
  });

  it('Vertex refuses it as its 2026 reports word it (gemini-cli#16543, #21830), not the 2024 wording', () => {
    const b = body(vertex);
    b.contents[2]!.parts = responses(b).slice(0, 1);
    const [finding] = judgeRequest(vertex, b);
    expect(finding?.rejection).toBe('function-response-count-mismatch');
    expect(
      (fillRejection(vertex.rejections[finding!.rejection]!, finding!.params).body as { error: { message: string } })
        .error.message,
    ).toBe(
      'Please ensure that the number of function response parts is equal to the number of function call parts of the function call turn.',
    );
  });

  it('does not judge a model turn that ends the contents', () => {
    const b = body();
    b.contents.splice(2);
    expect(judgeRequest(spec, b).map((f) => f.rejection)).not.toContain('function-response-count-mismatch');
  });
});

/**
 * Issue 40: the pinned protos lag the API. A request the real API answered 200 used the File Search tool by its store
 * names and asked for server-side tool invocations; both are overlaid from the SDK's types (specs/definitions.json).
 */
describe('members newer than the pinned protos', () => {
  const ask = { role: 'user', parts: [{ text: 'What do my files say?' }] };

  it('takes fileSearch.file_search_store_names and tool_config.includeServerSideToolInvocations, in both spellings', () => {
    const camel = {
      contents: [ask],
      tools: [{ fileSearch: { fileSearchStoreNames: ['fileSearchStores/notes-1'], topK: 5 } }],
      toolConfig: { includeServerSideToolInvocations: true },
    };
    const snake = {
      contents: [ask],
      tools: [{ file_search: { file_search_store_names: ['fileSearchStores/notes-1'], metadata_filter: 'x' } }],
      tool_config: { include_server_side_tool_invocations: true },
    };
    expect(judgeRequest(spec, camel)).toEqual([]);
    expect(judgeRequest(spec, snake)).toEqual([]);
  });

  it('still refuses a member no source names, and a store name that is not a list', () => {
    expect(
      judgeRequest(spec, { contents: [ask], tools: [{ fileSearch: { fileSearchStores: ['x'] } }] }).map(
        (f) => f.rejection,
      ),
    ).toEqual(['unknown-name-at']);
    expect(judgeRequest(spec, { contents: [ask], tools: [{ fileSearch: { fileSearchStoreNames: 'x' } }] })).not.toEqual(
      [],
    );
  });
});
