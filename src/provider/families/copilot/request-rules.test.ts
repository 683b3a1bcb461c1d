import { describe, expect, it, test } from 'vitest';
import fc from 'fast-check';
import { fromCopilotResponse } from '../../../engine/families/copilot/from-response.js';
import { renderCopilotAnswer } from './render-answer.js';
import type { History } from '../../../shared/history/history.js';
import { loadProviderSpec } from '../../../shared/provider-specs/load-provider-specs.js';
import { specsDir } from '../../../shared/project-root.js';
import { replayForRoute } from '../../../engine/replay/replay-for-route.js';
import { loadRouteTable } from '../../../shared/route-table/load-route-table.js';
import { resolveRoute } from '../../../shared/route-table/resolve-route.js';
import { fillRejection } from '../../handlers/fill-rejection.js';
import { judgeRequest } from '../../handlers/judge-request.js';

const spec = loadProviderSpec(`${specsDir()}/providers/copilot.json`);
const policy = resolveRoute(loadRouteTable(), {
  provider: 'copilot',
  host: 'api.githubcopilot.com',
  model: spec.target.model,
});

function body(): { model: string; messages: Array<Record<string, unknown>> } {
  const answer = fromCopilotResponse(
    renderCopilotAnswer(
      {
        reasoning: 'List first.',
        tool_calls: [{ id: 'call_ls', type: 'function', function: { name: 'ls', arguments: '{}' } }],
      },
      { spec, call: 0, scenario: 'judge' },
    ).body,
  );
  const history: History = {
    messages: [
      { role: 'user', content: 'What is here?' },
      answer.message,
      { role: 'tool', tool_call_id: 'call_ls', content: 'a.txt' },
    ],
  };
  return structuredClone(replayForRoute(history, policy).body) as never;
}

describe('copilot judge', () => {
  it('accepts the opaque and signature it issued on the tool-call message', () => {
    const b = body();
    expect(b.messages[1]).toHaveProperty('reasoning_opaque');
    expect(b.messages[1]).toHaveProperty('reasoning_text', 'List first.');
    expect(judgeRequest(spec, b)).toEqual([]);
  });

  it('answers "invalid request body" when the current tool-call message lost its opaque', () => {
    const b = body();
    delete b.messages[1]!.reasoning_opaque;
    const findings = judgeRequest(spec, b);
    expect(findings.map((f) => f.rejection)).toEqual(['missing-opaque']);
    expect(fillRejection(spec.rejections['missing-opaque']!, findings[0]!.params)).toEqual({
      status: 400,
      headers: {},
      body: { error: { message: 'invalid request body', code: 'invalid_request_body' } },
    });
  });

  test('refuses an opaque with any one character changed', () => {
    fc.assert(
      fc.property(fc.nat(), fc.integer({ min: 1, max: 63 }), (at, shift) => {
        const b = body();
        const blob = String(b.messages[1]!.reasoning_opaque);
        const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
        const i = at % blob.length;
        const c = blob[i]!;
        b.messages[1]!.reasoning_opaque =
          blob.slice(0, i) + (c === '=' ? 'A' : alphabet[(alphabet.indexOf(c) + shift) % 64]) + blob.slice(i + 1);
        expect(judgeRequest(spec, b).map((f) => f.rejection)).toEqual(['invalid-opaque']);
      }),
    );
  });

  it('refuses a modified opaque or thought_signature', () => {
    const b = body();
    b.messages[1]!.reasoning_opaque = `A${String(b.messages[1]!.reasoning_opaque).slice(1)}`;
    expect(judgeRequest(spec, b).map((f) => f.rejection)).toEqual(['invalid-opaque']);
    const c = body();
    const fn = (c.messages[1]!.tool_calls as Array<{ function: Record<string, unknown> }>)[0]!.function;
    fn.thought_signature = String(fn.thought_signature).replace(/.$/, (ch) => (ch === 'A' ? 'B' : 'A'));
    expect(judgeRequest(spec, c).map((f) => f.rejection)).toEqual(['invalid-opaque']);
  });

  it('does not require an opaque for models Copilot serves without one, nor on earlier turns', () => {
    const b = body();
    delete b.messages[1]!.reasoning_opaque;
    expect(judgeRequest(spec, { ...b, model: 'gpt-5' })).toEqual([]);
    expect(
      judgeRequest(spec, {
        ...b,
        messages: [...b.messages, { role: 'assistant', content: 'ok' }, { role: 'user', content: 'next' }],
      }),
    ).toEqual([]);
  });
});

describe('copilot judge, superseded opaque', () => {
  it('refuses the first of several opaques an answer streamed (only the latest is valid)', () => {
    const rendered = renderCopilotAnswer(
      {
        reasoning: 'Two steps.',
        tool_calls: [
          { id: 'c1', type: 'function', function: { name: 'ls', arguments: '{}' } },
          { id: 'c2', type: 'function', function: { name: 'cat', arguments: '{}' } },
        ],
      },
      { spec, call: 0, scenario: 'superseded' },
    );
    const opaques = rendered.stream.flatMap((e) => {
      const delta = (
        JSON.parse(e.data === '[DONE]' ? '{}' : e.data) as {
          choices?: Array<{ delta?: { reasoning_opaque?: string } }>;
        }
      ).choices?.[0]?.delta;
      return delta?.reasoning_opaque ? [delta.reasoning_opaque] : [];
    });
    expect(opaques).toHaveLength(2);
    const history: History = {
      messages: [
        { role: 'user', content: 'go' },
        {
          role: 'assistant',
          content: null,
          tool_calls: [{ id: 'c1', type: 'function', function: { name: 'ls', arguments: '{}' } }],
        },
        { role: 'tool', tool_call_id: 'c1', content: 'x' },
      ],
    };
    const b = structuredClone(replayForRoute(history, policy).body) as { messages: Array<Record<string, unknown>> };
    b.messages[1]!.reasoning_opaque = opaques[0];
    expect(judgeRequest(spec, b).map((f) => f.rejection)).toEqual(['invalid-opaque']);
    b.messages[1]!.reasoning_opaque = opaques[1];
    expect(judgeRequest(spec, b)).toEqual([]);
  });
});
