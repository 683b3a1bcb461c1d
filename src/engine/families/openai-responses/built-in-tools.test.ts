import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { chunksToEvents } from '../../../tools/commands/import/ai-sdk-chunks.js';
import type { RoutePolicy } from '../../../shared/route-table/route-table.js';
import { formatSse } from '../../../shared/sse/parse-sse.js';
import { feedSplit } from '../split-stream.js';
import { fromOpenAIResponsesResponse } from './from-response.js';
import { openAIResponsesStreamCarriers } from './stream-carriers.js';
import { toOpenAIResponsesRequest } from './to-request.js';

/**
 * Built-in tools on the Responses API (web search, code interpreter, file search, image
 * generation, MCP), streamed with their progress events and an output_text annotation, in a dump
 * beside this test written in the documented event shapes.
 */
const at = (ext: string) =>
  readFileSync(new URL(`./__fixtures__/responses-built-in-tools.${ext}`, import.meta.url), 'utf8');
const body = JSON.parse(at('body.json')) as { output: Record<string, unknown>[] };
const sse = formatSse(chunksToEvents(at('chunks.txt'), 'openai-responses'));
const policy = {
  routeId: 'openai-responses',
  family: 'openai-responses',
  tier: 'standard',
  fields: ['reasoning_details'],
  flags: {},
  native: 'openai-responses',
  target: { provider: 'openai-responses', host: 'api.openai.com', model: 'gpt-5' },
} as unknown as RoutePolicy;

describe('Responses built-in tools', () => {
  it('reads the stream (every progress event) to the record its completed body gives, however cut', () => {
    const unstreamed = fromOpenAIResponsesResponse(body, policy);
    fc.assert(
      fc.property(fc.array(fc.nat(), { maxLength: 30 }), (cuts) => {
        const carriers = feedSplit(openAIResponsesStreamCarriers(policy), sse, cuts);
        expect(carriers.end()).toEqual(unstreamed);
        expect(carriers.notes).toEqual([]);
      }),
      { numRuns: 30 },
    );
  });

  it('replays every item to its own route in the order it came, tool items verbatim, annotations kept', () => {
    const message = fromOpenAIResponsesResponse(body, policy).message;
    const input = toOpenAIResponsesRequest({ messages: [{ role: 'user', content: 'q' }, message] }, policy).body
      .input as Record<string, unknown>[];
    const replayed = input.slice(1);
    expect(replayed.map((i) => i.type)).toEqual(body.output.map((i) => i.type));
    expect(replayed.slice(1, 6)).toEqual(body.output.slice(1, 6));
    expect((replayed[6]!.content as Record<string, unknown>[])[0]!.annotations).toEqual(
      (body.output[6]!.content as Record<string, unknown>[])[0]!.annotations,
    );
  });

  it('sends no tool item to a route that does not own the record', () => {
    const message = fromOpenAIResponsesResponse(body, policy).message;
    const other = { ...policy, routeId: 'azure-responses', native: 'azure-responses' } as RoutePolicy;
    const sent = JSON.stringify(
      toOpenAIResponsesRequest({ messages: [{ role: 'user', content: 'q' }, message] }, other).body,
    );
    expect(sent).not.toContain('ws_example_1');
    expect(sent).toContain('Example news: 2.');
  });
});
