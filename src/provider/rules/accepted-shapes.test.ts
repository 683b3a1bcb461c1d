import { describe, expect, it, test } from 'vitest';
import fc from 'fast-check';
import { loadProviderSpecs } from '../../shared/provider-specs/load-provider-specs.js';
import type { ProviderSpec } from '../../shared/provider-specs/provider-spec.js';
import { judgeRequest } from '../handlers/judge-request.js';
import { readAsProvider } from './accepted-shapes.js';

const responses = loadProviderSpecs().find((s) => s.id === 'openai-responses')!;
const asking = (part: Record<string, unknown>) => ({
  model: 'gpt-5',
  input: [{ role: 'user', content: [{ type: 'input_text', text: 'What is in this image?' }, part] }],
});
const image = { type: 'input_image', image_url: 'https://example.com/cat.png' };

describe('an input_image without detail takes the API default, auto', () => {
  it('is accepted by the Responses mock, as by the API (openai-python#2786, openai-node#1575)', () => {
    expect(judgeRequest(responses, asking(image))).toEqual([]);
  });

  it('is read as detail auto; a detail the client gave is kept, and a wrong one still refused', () => {
    const read = readAsProvider(responses, asking(image)) as { input: Array<{ content: unknown[] }> };
    expect(read.input[0]!.content[1]).toEqual({ ...image, detail: 'auto' });
    const low = readAsProvider(responses, asking({ ...image, detail: 'low' })) as typeof read;
    expect(low.input[0]!.content[1]).toEqual({ ...image, detail: 'low' });
    expect(judgeRequest(responses, asking({ ...image, detail: 'sharpest' })).length).toBeGreaterThan(0);
  });

  test('a content part of another type is left as sent (no detail added to it)', () => {
    fc.assert(
      fc.property(fc.constantFrom('input_text', 'input_file', 'output_text'), fc.string(), (type, text) => {
        const part = { type, text };
        const read = readAsProvider(responses, asking(part)) as { input: Array<{ content: unknown[] }> };
        expect(read.input[0]!.content[1]).toBe(part);
      }),
    );
  });
});

describe('when: an accepted shape for objects whose members hold given values', () => {
  const spec = (when: Record<string, string>): ProviderSpec =>
    ({
      ...responses,
      request: {
        ...responses.request,
        accepts: [
          { path: 'parts.*', ifType: 'object', when, readAs: { defaults: { x: 1 } }, sources: ['https://x.test'] },
        ],
      },
    }) as ProviderSpec;

  it('fills defaults only where every named member matches', () => {
    const body = {
      parts: [
        { kind: 'a', tag: 't' },
        { kind: 'b', tag: 't' },
        { kind: 'a', tag: 'u' },
      ],
    };
    expect(readAsProvider(spec({ kind: 'a', tag: 't' }), body)).toEqual({
      parts: [
        { kind: 'a', tag: 't', x: 1 },
        { kind: 'b', tag: 't' },
        { kind: 'a', tag: 'u' },
      ],
    });
  });
});
