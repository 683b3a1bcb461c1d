import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from '../../../../test/helpers/run-cli.test-helper.js';
import {
  startFakeProvider,
  type FakeProvider,
  type FakeTier,
} from '../../services/recorder/fake-provider.test-helper.js';

let server: FakeProvider | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const KEY = 'sk-probe-cli-0123456789abcdefghijklmnop';

async function probe(tier: FakeTier, provider: string, extra: string[] = []) {
  server = await startFakeProvider({ tier });
  return runCli(
    [
      'probe',
      '--provider',
      provider,
      '--base-url',
      server.baseUrl,
      '--model',
      'fake-model',
      '--api-key-env',
      'PROBE_KEY',
      ...extra,
    ],
    { PROBE_KEY: KEY },
  );
}

describe('reasoning-replay probe (built CLI against a loopback server)', () => {
  it('strict server, strict row: exit 0, the table agrees', async () => {
    const r = await probe('strict', 'mistral');
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('classification: strict');
    expect(r.stdout).toContain('refused as unknown field: ');
    expect(r.stdout).toContain('diff against route mistral: none, the table agrees');
    expect(server!.requests.every((q) => q.headers.authorization === `Bearer ${KEY}`)).toBe(true);
  });

  it('must-echo server behind a standard route: exit 1 with a must-echo row and the diff', async () => {
    const r = await probe('must-echo', 'acme', ['--json']);
    expect(r.code).toBe(1);
    const out = JSON.parse(r.stdout);
    expect(out.classification.tier).toBe('must-echo');
    expect(out.suggested.row).toMatchObject({
      id: 'acme',
      match: { providers: ['acme'], hosts: ['127.0.0.1'] },
      tier: 'must-echo',
      fields: ['reasoning_content'],
    });
    expect(out.diff).toContain('tier: standard -> must-echo');
    expect(out.outcomes.find((o: { variant: string }) => o.variant === 'none').wording).toContain(
      'must be passed back to the API',
    );
  });

  it('standard server: the deepseek spec is used (family, key variable) and its must-echo row is flagged stale', async () => {
    server = await startFakeProvider({ tier: 'standard' });
    const r = await runCli(
      ['probe', '--provider', 'deepseek', '--base-url', server.baseUrl, '--model', 'deepseek-v4-flash', '--json'],
      { DEEPSEEK_API_KEY: KEY },
    );
    expect(r.code).toBe(1);
    const out = JSON.parse(r.stdout);
    expect(out.classification.tier).toBe('standard');
    expect(out.suggested.row).toMatchObject({ id: 'deepseek', tier: 'standard', fields: ['reasoning_content'] });
    expect(out.diff).toEqual(['tier: must-echo -> standard']);
    expect(server.requests[0]!.headers.authorization).toBe(`Bearer ${KEY}`);
  });

  it('bad input exits 2 with one line; an unreachable endpoint exits 1', async () => {
    const bad = await runCli(['probe', '--provider', 'acme', '--base-url', 'not a url', '--model', 'm']);
    expect(bad.code).toBe(2);
    expect(bad.stderr.trim().split('\n')).toHaveLength(1);
    expect(bad.stderr).toContain('--base-url');
    const down = await runCli(['probe', '--provider', 'acme', '--base-url', 'http://127.0.0.1:9/v1', '--model', 'm']);
    expect(down.code).toBe(1);
    expect(down.stderr).toContain('could not reach http://127.0.0.1:9/v1');
  });
});
