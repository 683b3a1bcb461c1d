import { afterEach, describe, expect, it } from 'vitest';
import { startAgent } from './agent-process.js';

const PLANTED = 'planted-Secret-7a6b5c4d3e2f1a0b';

describe('startAgent', () => {
  afterEach(() => {
    delete process.env.PLANTED_API_KEY;
  });

  it('keeps the tail of what the agent printed, with the caller’s credentials redacted', async () => {
    process.env.PLANTED_API_KEY = PLANTED;
    const agent = startAgent(
      [
        process.execPath,
        '-e',
        'console.log("key " + process.env.PLANTED_API_KEY); console.error("done"); process.exit(3)',
      ],
      {},
      30_000,
    );
    const exit = await agent.exited;
    expect(exit.failure).toBe('exited 3');
    expect(exit.output).not.toContain(PLANTED);
    expect(exit.output).toContain('key [redacted-by-recorder:PLANTED_API_KEY]');
    expect(exit.output).toContain('done');
  });
});
