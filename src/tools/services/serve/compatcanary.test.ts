import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadMatrixInputs } from '../matrix/run-matrix.js';
import { startServe, type RunningServe } from './start-serve.js';
import { compatCanaryMocks, loadCompatCanary, scanMock } from '../suites/compatcanary-figures.js';

/**
 * Another project's conformance scanner for OpenAI-style APIs, CompatCanary (npm compatcanary, pinned in
 * devDependencies), run unchanged against every OpenAI-compatible mock over real HTTP: its chat probes against each
 * Chat Completions mock, its Responses probes against each Responses mock, and model discovery against both.
 */

/**
 * Probes a provider refuses in reality, so its mock must too: each names the spec's sourced rejection it answers
 * with. DeepSeek has no json_schema mode; LM Studio takes tool_choice only as a string; DeepSeek V4 and Kimi K2.6 think
 * by default and refuse a forced tool while thinking (the probe forces one on the spec's target model).
 */
const REFUSED: Record<string, Record<string, string>> = {
  deepseek: {
    'chat.structured_output': 'response-format-json-schema-unavailable',
    'chat.tool_call': 'tool-choice-in-thinking-mode',
  },
  'lmstudio-local': { 'chat.tool_call': 'tool-choice-object' },
  moonshot: { 'chat.tool_call': 'tool-choice-incompatible-with-thinking' },
};

const loaded = loadMatrixInputs({});
const mocks = compatCanaryMocks(loaded.specs);
let serve: RunningServe;
let canary: Awaited<ReturnType<typeof loadCompatCanary>>;
beforeAll(async () => {
  canary = await loadCompatCanary();
  serve = await startServe({
    port: 0,
    specs: loaded.specs,
    fixtures: loaded.fixtures,
    table: loaded.table,
    log: () => {},
  });
});
afterAll(() => serve?.close());

describe('CompatCanary against every OpenAI-compatible mock', () => {
  it.each(mocks.map((s) => [s.id, s] as const))('%s', async (id, spec) => {
    const { probes, results } = await scanMock(canary, serve.url, spec);
    expect(results.length).toBe(probes.length);
    for (const result of results) {
      const refused = REFUSED[id]?.[result.id];
      if (refused) {
        const rejection = spec.rejections[refused];
        expect(rejection, `${id}: ${refused}`).toBeDefined();
        expect(result.status).toBe('fail');
        expect(result.summary).toContain(`HTTP ${rejection!.status}`);
      } else if (result.id === 'models.list') {
        // Served once the model catalogue's GET /models lands (issue 38 item 2): 404 until then, a warning.
        expect(result.status, `${id} ${result.id}: ${result.summary}`).not.toBe('fail');
      } else expect(result.status, `${id} ${result.id}: ${result.summary}`).toBe('pass');
    }
  });
});
