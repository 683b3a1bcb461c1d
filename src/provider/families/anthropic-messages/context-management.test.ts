import { describe, expect, it } from 'vitest';
import { loadProviderSpec, defaultProvidersDir } from '../../../shared/provider-specs/load-provider-specs.js';
import { judgeRequest } from '../../handlers/judge-request.js';

/**
 * The 2026 context-management surface of Claude's Messages API, as requests name it: thinking bound
 * to its conversation (thinking-binding-controls-2026-08-01) and server compaction (compact_20260112).
 */
describe.each(['anthropic', 'vertex-anthropic', 'foundry-anthropic'])('%s: context management is accepted', (id) => {
  const spec = loadProviderSpec(`${defaultProvidersDir()}/${id}.json`);
  const base = {
    max_tokens: 2048,
    // Vertex names the model in the URL and the API version in the body.
    ...(id === 'vertex-anthropic' ? { anthropic_version: 'vertex-2023-10-16' } : { model: spec.target.model }),
    messages: [{ role: 'user', content: 'hi' }],
  };

  it.each(['error', 'drop_block'])('thinking.block_binding.prefix_mismatch_behavior "%s"', (behavior) => {
    const body = { ...base, thinking: { type: 'adaptive', block_binding: { prefix_mismatch_behavior: behavior } } };
    expect(judgeRequest(spec, body)).toEqual([]);
  });

  it('an unknown behaviour or member under block_binding is still refused', () => {
    for (const binding of [{ prefix_mismatch_behavior: 'ignore' }, { prefix_mismatch_behavior: 'error', x: 1 }]) {
      const body = { ...base, thinking: { type: 'adaptive', block_binding: binding } };
      expect(judgeRequest(spec, body).length).toBeGreaterThan(0);
    }
  });

  it('a compact_20260112 edit with a trigger and pause_after_compaction', () => {
    const body = {
      ...base,
      context_management: {
        edits: [
          { type: 'compact_20260112', trigger: { type: 'input_tokens', value: 50000 }, pause_after_compaction: true },
        ],
      },
    };
    expect(judgeRequest(spec, body)).toEqual([]);
  });
});
