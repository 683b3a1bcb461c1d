import { describe, expect, it } from 'vitest';
import { CompactionLedger, compactionBlobs } from './compaction-kept.js';

const claude = { content: [{ type: 'compaction', content: 'Summary.', encrypted_content: 'blob-1' }] };
const responses = { output: [{ id: 'cmp_1', type: 'compaction', encrypted_content: 'blob-2' }] };

describe('compaction-kept (the judge’s own reading of server compaction)', () => {
  it('finds compaction items in bodies and in streams (compaction_delta pieces, output_item.done)', () => {
    expect(compactionBlobs(claude)).toEqual(['blob-1']);
    expect(compactionBlobs(responses)).toEqual(['blob-2']);
    const sse = [
      {
        type: 'content_block_delta',
        index: 0,
        delta: { type: 'compaction_delta', content: 'S', encrypted_content: 'blo' },
      },
      {
        type: 'content_block_delta',
        index: 0,
        delta: { type: 'compaction_delta', content: '.', encrypted_content: 'b-1' },
      },
      { type: 'response.output_item.done', item: responses.output[0] },
    ]
      .map((e) => `event: ${e.type}\ndata: ${JSON.stringify(e)}\n\n`)
      .join('');
    expect(compactionBlobs(sse).sort()).toEqual(['blob-1', 'blob-2']);
  });

  it('the newest item a route issued must come back to it, whole; a foreign one must not arrive', () => {
    const ledger = new CompactionLedger();
    expect(ledger.applies).toBe(false);
    ledger.observe(0, 'anthropic', 'anthropic', claude);
    expect(ledger.applies).toBe(true);
    const kept = { messages: [{ role: 'assistant', content: claude.content }] };
    expect(ledger.judge(1, 'anthropic', 'anthropic', kept).map((f) => f.status)).toEqual(['pass']);
    const dropped = { messages: [{ role: 'assistant', content: [{ type: 'text', text: 'hi' }] }] };
    expect(ledger.judge(1, 'anthropic', 'anthropic', dropped)[0]!.detail).toContain('is not in the request');
    const edited = {
      messages: [{ role: 'assistant', content: [{ ...claude.content[0], encrypted_content: 'blob-1x' }] }],
    };
    expect(ledger.judge(1, 'anthropic', 'anthropic', edited)[0]!.detail).toContain('is not in the request');
    expect(ledger.judge(2, 'vertex-anthropic', 'vertex-anthropic', kept)[0]!.detail).toContain('cannot read it');
  });
});
