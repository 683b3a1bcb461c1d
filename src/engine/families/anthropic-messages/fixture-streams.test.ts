import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkFixture } from '../../../provider/fixtures/fixture-store.js';
import { fixturesDir } from '../../../shared/project-root.js';
import { bedrockConverseFamily } from '../bedrock-converse/index.js';
import type { Family } from '../family.js';
import { readStreamEvents } from '../stream-carriers.js';
import { anthropicMessagesFamily } from './index.js';
import { AnthropicStreamAccumulator } from './stream-carriers.js';
import { BedrockStreamAccumulator } from '../bedrock-converse/stream-carriers.js';

const families: Record<
  string,
  { family: Family; accumulator: (model: string) => AnthropicStreamAccumulator | BedrockStreamAccumulator }
> = {
  'anthropic-messages': { family: anthropicMessagesFamily, accumulator: () => new AnthropicStreamAccumulator() },
  'bedrock-converse': {
    family: bedrockConverseFamily,
    accumulator: (model) => new BedrockStreamAccumulator(model.includes('claude')),
  },
};

const cases = readdirSync(fixturesDir(), { recursive: true, withFileTypes: true })
  .filter((e) => e.isFile() && e.name.endsWith('.json'))
  .map((e) => join(e.parentPath, e.name))
  .map((file) => ({ file, fixture: checkFixture(JSON.parse(readFileSync(file, 'utf8')), file) }))
  .filter(({ fixture }) => fixture.family in families)
  .flatMap(({ file, fixture }) =>
    fixture.exchanges.map((exchange, call) => ({
      name: `${fixture.provider}/${fixture.scenario} call ${call}`,
      file,
      fixture,
      exchange,
    })),
  );

/** The gate reads either shape of the same answer; they must be the same carriers, byte for byte. */
describe('Claude-family fixtures: stream == unstreamed', () => {
  it('has fixtures of both families', () => {
    expect(new Set(cases.map((c) => c.fixture.family))).toEqual(new Set(Object.keys(families)));
  });

  it.each(cases.map((c) => [c.name, c] as const))('%s', (_name, { fixture, exchange }) => {
    const { family, accumulator } = families[fixture.family]!;
    expect(exchange.response.body).toBeDefined();
    expect(exchange.response.stream).toBeDefined();
    const unstreamed = family.fromResponse(exchange.response.body);
    expect(readStreamEvents(accumulator(fixture.model), exchange.response.stream!.events)).toEqual(unstreamed);
  });
});
