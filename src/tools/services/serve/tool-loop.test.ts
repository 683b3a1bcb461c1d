import { Ajv } from 'ajv';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadMatrixInputs } from '../matrix/run-matrix.js';
import { familyFor } from '../../../engine/families/registry.js';
import type { Message } from '../../../shared/history/history.js';
import { policyFor } from '../../../shared/route-table/policy-for.js';
import { replayForRoute } from '../../../engine/replay/replay-for-route.js';
import { startServe, type RunningServe } from './start-serve.js';
import type { ServeLogEntry } from './serve-log.js';
import { decodeEventStream, isAwsEventStream } from '../recorder/bedrock-event-stream.js';
import { formatSse } from '../../../shared/sse/parse-sse.js';

/**
 * A client with its own tools (none called get_weather, the fixtures' tool) runs a two-round tool
 * loop against every provider mock over HTTP, unstreamed and streamed: each answer must call one of
 * the offered tools with arguments its schema accepts, and the loop must end in words, with no
 * finding on any request. The client here is the replay engine, used only as a well-behaved client.
 */
const TOOLS = [
  {
    type: 'function',
    function: {
      name: 'lookup_order',
      description: 'Find an order',
      parameters: {
        type: 'object',
        properties: { order_id: { type: 'string', pattern: '^ORD-[0-9]{4}$' }, include_items: { type: 'boolean' } },
        required: ['order_id'],
        additionalProperties: false,
      },
    },
  },
  {
    type: 'function',
    function: {
      name: 'refund',
      description: 'Refund an amount',
      parameters: {
        type: 'object',
        properties: {
          amount_cents: { type: 'integer', minimum: 1, maximum: 100000 },
          // Typed: Gemini's definition requires a type on every schema (google.ai.generativelanguage.v1beta.Schema).
          reason: { type: 'string', enum: ['damaged', 'late', 'other'] },
        },
        required: ['amount_cents', 'reason'],
        additionalProperties: false,
      },
    },
  },
];
const schemas = new Map(TOOLS.map((t) => [t.function.name, new Ajv().compile(t.function.parameters)]));

const loaded = loadMatrixInputs({});
const log: ServeLogEntry[] = [];
let serve: RunningServe;
beforeAll(async () => {
  serve = await startServe({
    port: 0,
    specs: loaded.specs,
    fixtures: loaded.fixtures,
    table: loaded.table,
    log: (e) => log.push(e),
    seed: 7,
  });
});
afterAll(() => serve.close());

async function send(specId: string, history: Message[], stream: boolean): Promise<Message> {
  const spec = loaded.specs.find((s) => s.id === specId)!;
  const policy = policyFor(loaded.table, spec);
  const request = replayForRoute({ messages: history }, policy, { tools: TOOLS, stream });
  const path = request.path.replace(/^\/v1\/projects\/[^/]+\/locations\/[^/]+\/publishers\/[^/]+/, '');
  const response = await fetch(`${serve.url}/${spec.id}${path}`, {
    method: 'POST',
    headers: { ...request.headers, 'content-type': 'application/json', 'x-reasoning-replay-client': 'tool-loop-test' },
    body: JSON.stringify(request.body),
  });
  const bytes = new Uint8Array(await response.arrayBuffer());
  // Bedrock streams binary event-stream frames on the wire (decision 0040); the engine reads them as SSE, as the
  // recorder decodes them.
  const text = isAwsEventStream(response.headers.get('content-type'))
    ? formatSse(decodeEventStream(bytes))
    : new TextDecoder().decode(bytes);
  expect(response.status, `${spec.id}: ${text.slice(0, 300)}`).toBe(200);
  const family = familyFor(policy.family);
  if (stream) {
    const carriers = family.streamCarriers!(policy);
    carriers.feed(text);
    return carriers.end().message;
  }
  return family.fromResponse(JSON.parse(text), policy).message;
}

describe('serve follows the client: its own tools, on every provider mock', () => {
  for (const stream of [false, true]) {
    it(`completes two tool rounds on all ${loaded.specs.length} providers (${stream ? 'streamed' : 'unstreamed'})`, async () => {
      for (const spec of loaded.specs) {
        const history: Message[] = [];
        for (const question of ['Where is order 1234?', 'Refund it please.']) {
          history.push({ role: 'user', content: question });
          const call = await send(spec.id, history, stream);
          history.push(call);
          expect(call.tool_calls?.length, `${spec.id} should call a tool`).toBe(1);
          const tc = call.tool_calls![0]!;
          const validate = schemas.get(tc.function.name);
          expect(validate, `${spec.id} called ${tc.function.name}, which the client never offered`).toBeDefined();
          expect(validate!(JSON.parse(tc.function.arguments)), `${spec.id} ${tc.function.arguments}`).toBe(true);
          history.push({ role: 'tool', tool_call_id: tc.id, name: tc.function.name, content: '{"ok":true}' });
          const answer = await send(spec.id, history, stream);
          expect(answer.tool_calls ?? [], spec.id).toEqual([]);
          expect(typeof answer.content === 'string' && answer.content.length > 0, spec.id).toBe(true);
          history.push(answer);
        }
      }
      const mine = log.filter((e) => e.client === 'tool-loop-test');
      expect(mine.filter((e) => e.findings.length > 0 || e.status !== 200)).toEqual([]);
      expect(new Set(mine.map((e) => e.provider)).size).toBe(loaded.specs.length);
    });
  }
});
