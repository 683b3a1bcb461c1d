import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../../test/helpers/run-cli-sync.test-helper.js';

describe('a history the route family cannot express', () => {
  it('build-request names the file and pointer, exit 2, no stack trace', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'rr-shape-')), 'history.json');
    writeFileSync(
      file,
      JSON.stringify({
        messages: [
          { role: 'user', content: 'x' },
          {
            role: 'assistant',
            content: null,
            tool_calls: [{ id: 'c', type: 'function', function: { name: 'f', arguments: 'not json' } }],
          },
        ],
      }),
    );
    for (const [provider, host, model] of [
      ['anthropic', 'api.anthropic.com', 'claude-sonnet-4-5'],
      ['bedrock', 'bedrock-runtime.us-east-1.amazonaws.com', 'us.anthropic.claude-sonnet-4-5-v1:0'],
    ] as const) {
      const result = runCli([
        'build-request',
        '--provider',
        provider,
        '--host',
        host,
        '--model',
        model,
        '--history',
        file,
      ]);
      expect(result.code).toBe(2);
      expect(result.stderr).toContain(
        `${file} at /messages/1/tool_calls/0/function/arguments: tool call arguments are not valid JSON`,
      );
      expect(result.stderr).not.toMatch(/\n\s+at /);
    }
  });
});
