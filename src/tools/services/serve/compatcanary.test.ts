import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadMatrixInputs } from '../matrix/run-matrix.js';
import { startServe, type RunningServe } from './start-serve.js';

/**
 * Another project's conformance scanner for OpenAI-style APIs, CompatCanary (npm compatcanary, pinned in
 * devDependencies), run unchanged against every OpenAI-compatible mock over real HTTP: its chat probes against each
 * Chat Completions mock, its Responses probes against each Responses mock, and model discovery against both.
 */
interface ProbeResult {
  id: string;
  status: 'pass' | 'warn' | 'fail';
  summary: string;
}
interface Probe {
  id: string;
}
interface CompatCanary {
  scanEndpoint(
    options: { baseUrl: string; model: string; timeoutMs?: number },
    probes?: Probe[],
  ): Promise<{ results: ProbeResult[] }>;
}

/** The package's entry and its probe list (the probe list is not in its exports map: read beside the entry). */
async function loadCompatCanary(): Promise<{ scanner: CompatCanary; probes: Probe[] }> {
  const entry = createRequire(import.meta.url).resolve('compatcanary');
  const scanner = (await import(pathToFileURL(entry).href)) as CompatCanary;
  const { probes } = (await import(pathToFileURL(join(dirname(entry), 'probes.js')).href)) as { probes: Probe[] };
  return { scanner, probes };
}

/**
 * Probes a provider refuses in reality, so its mock must too: each names the spec's sourced rejection it answers
 * with. DeepSeek has no json_schema mode; LM Studio takes tool_choice only as a string.
 */
const REFUSED: Record<string, { probe: string; rejection: string }> = {
  deepseek: { probe: 'chat.structured_output', rejection: 'response-format-json-schema-unavailable' },
  'lmstudio-local': { probe: 'chat.tool_call', rejection: 'tool-choice-object' },
};

const loaded = loadMatrixInputs({});
const mocks = loaded.specs.filter((s) => s.family === 'openai-chat' || s.family === 'openai-responses');
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
    const responses = spec.family === 'openai-responses';
    const probes = canary.probes.filter((p) => !p.id.startsWith(responses ? 'chat.' : 'responses.'));
    const { results } = await canary.scanner.scanEndpoint(
      { baseUrl: `${serve.url}/${id}`, model: spec.target.model, timeoutMs: 20_000 },
      probes,
    );
    expect(results.length).toBe(probes.length);
    for (const result of results) {
      const refused = REFUSED[id];
      if (refused?.probe === result.id) {
        const rejection = spec.rejections[refused.rejection];
        expect(rejection, `${id}: ${refused.rejection}`).toBeDefined();
        expect(result.status).toBe('fail');
        expect(result.summary).toContain(`HTTP ${rejection!.status}`);
      } else if (result.id === 'models.list') {
        // Served once the model catalogue's GET /models lands (issue 38 item 2): 404 until then, a warning.
        expect(result.status, `${id} ${result.id}: ${result.summary}`).not.toBe('fail');
      } else expect(result.status, `${id} ${result.id}: ${result.summary}`).toBe('pass');
    }
  });
});
