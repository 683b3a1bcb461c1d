import { afterEach, describe, expect, it, vi } from 'vitest';
import type * as FindingsRecord from '../../../shared/findings/findings-record.js';

// A mock whose findings header is damaged on its way to the judge: the encoder is wrapped, the
// decoder (the one the judge uses) is the real one.
const damage = vi.hoisted(() => ({ apply: (header: string) => header }));
vi.mock('../../../shared/findings/findings-record.js', async (importOriginal) => {
  const real = await importOriginal<typeof FindingsRecord>();
  return {
    ...real,
    findingsHeader: (findings: Parameters<typeof real.findingsHeader>[0]) => {
      const [[name, value]] = Object.entries(real.findingsHeader(findings)) as [[string, string]];
      return { [name]: damage.apply(value) };
    },
  };
});

const { main } = await import('../main.js');

/** Runs the CLI in this process (so the damaged encoder is the one the mocks use), capturing what it prints. */
async function cli(args: string[]): Promise<{ code: number; stderr: string; stdout: string }> {
  let stderr = '';
  let stdout = '';
  const err = vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => ((stderr += String(chunk)), true));
  const out = vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => ((stdout += String(chunk)), true));
  try {
    return { code: await main(args), stderr, stdout };
  } finally {
    err.mockRestore();
    out.mockRestore();
  }
}

afterEach(() => {
  damage.apply = (header) => header;
});

describe('check stops with a harness error when a mock finding cannot be read', () => {
  it('a truncated findings header: exit 2, one line naming the provider, call, attempt and scenario', async () => {
    damage.apply = (header) => header.slice(0, Math.floor(header.length / 2));
    const r = await cli(['check', '--provider', 'deepseek', '--quiet']);
    expect(r.code).toBe(2);
    expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(
      /^reasoning-replay: harness error: DeepSeek .*'s answer to call \d+ \(attempt 1\) of scenario [\w-]+: its findings record cannot be read: it ends before the record does \(truncated at \d+ characters/,
    );
    expect(r.stdout).not.toMatch(/scenario runs: /);
  });

  it('a corrupted findings header (another version): exit 2, one line', async () => {
    damage.apply = (header) => header.replace('"version":1', '"version":7');
    const r = await cli(['check', '--provider', 'deepseek', '--quiet']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/harness error: .*it is version 7; this build reads version 1; nothing was judged\n$/);
  });
});
