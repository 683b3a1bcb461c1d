import { mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { loadProviderSpecs } from '../../../shared/provider-specs/load-provider-specs.js';
import { realWorldAgreement } from '../../services/real-world-cases/agreement.js';
import { loadRealWorldCases } from '../../services/real-world-cases/real-world-case.js';
import { startFakeLiveProvider } from '../../commands/verify/fake-live-provider.test-helper.js';
import { newKey } from '../../commands/verify/verify-run.test-helper.js';
import { main } from '../main.js';

afterEach(() => vi.restoreAllMocks());

/** Runs the CLI in-process with extra environment variables, capturing what it prints. */
async function cli(
  argv: string[],
  env: Record<string, string> = {},
): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  vi.spyOn(process.stdout, 'write').mockImplementation((c: string | Uint8Array) => ((out += String(c)), true));
  vi.spyOn(process.stderr, 'write').mockImplementation((c: string | Uint8Array) => ((err += String(c)), true));
  const saved = Object.fromEntries(Object.keys(env).map((k) => [k, process.env[k]]));
  Object.assign(process.env, env);
  try {
    return { code: await main(argv), out, err };
  } finally {
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
    vi.restoreAllMocks();
  }
}

const publicHosts = new Set(loadProviderSpecs().map((s) => new URL(s.endpoint.baseUrl).host));

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => (statSync(join(dir, f)).isDirectory() ? files(join(dir, f)) : [join(dir, f)]));
}

describe('reasoning-replay verify', () => {
  it('sends nothing without --live (it costs money), and refuses bad caps and base URLs (exit 2)', async () => {
    expect(await cli(['verify'])).toMatchObject({ code: 2, err: expect.stringMatching(/needs --live.*--dry-run/) });
    expect((await cli(['verify', '--dry-run', '--max-requests', '0'])).code).toBe(2);
    expect(await cli(['verify', '--dry-run', '--base-url', 'nosuch=http://127.0.0.1:9'])).toMatchObject({
      code: 2,
      err: expect.stringMatching(/"nosuch" is not a provider spec id/),
    });
  });

  it('a dry run over the whole corpus prints every request, the total count and cost, and only public endpoints', async () => {
    // Variables some SDKs read for a base URL: none of them moves verify (only --base-url does).
    const { code, out } = await cli(['verify', '--dry-run'], {
      DEEPSEEK_BASE_URL: 'http://127.0.0.1:9',
      OPENAI_BASE_URL: 'http://127.0.0.1:9/v1',
      ANTHROPIC_BASE_URL: 'http://127.0.0.1:9',
    });
    expect(code).toBe(0);
    const requests = out.split('\n').filter((l) => /^ {4}\S+.* POST /.test(l));
    const total =
      /^total: (\d+) request\(s\) over (\d+) item\(s\) and (\d+) provider\(s\), estimated cost \$([\d.]+)/m.exec(out);
    expect(total, out.slice(-600)).not.toBeNull();
    expect(Number(total![1])).toBe(requests.length);
    expect(Number(total![4])).toBeGreaterThan(0);
    for (const line of requests) {
      const url = new URL(/POST (\S+)/.exec(line)![1]!);
      expect(url.protocol).toBe('https:');
      expect(publicHosts).toContain(url.host);
    }
    expect(out).toMatch(/^with --max-requests 50 and --max-cost 1, a live run would/m);
  });

  it('a dry run of named cases prints each body it would send, setup calls first', async () => {
    const signed = loadRealWorldCases().find(
      (c) => c.case.provider === 'anthropic' && JSON.stringify(c.case.request.body).includes('$mockSignature'),
    )!;
    const { code, out } = await cli(['verify', '--dry-run', '--case', signed.case.id]);
    expect(code).toBe(0);
    expect(out).toMatch(new RegExp(`case ${signed.case.id}: 2 request\\(s\\) \\(1 setup\\)`));
    const setupAt = out.indexOf('setup 1  POST https://api.anthropic.com/v1/messages');
    const requestAt = out.indexOf('request  POST https://api.anthropic.com/v1/messages');
    expect(setupAt).toBeGreaterThan(0);
    expect(requestAt).toBeGreaterThan(setupAt);
    // The setup call asks for the signed turn; the request still shows where its live blob goes.
    expect(out.slice(setupAt, requestAt)).not.toContain('$mockSignature');
    expect(out.slice(requestAt)).toContain('"$mockSignature"');
  });

  it('--dry-run --json holds every planned body and the same totals', async () => {
    const { code, out } = await cli(['verify', '--dry-run', '--json', '--provider', 'deepseek']);
    expect(code).toBe(0);
    const plan = JSON.parse(out) as {
      summary: { requests: number };
      items: Array<{ skip?: string; requests: Array<{ body: unknown }> }>;
    };
    const planned = plan.items.filter((i) => !i.skip);
    expect(plan.summary.requests).toBe(planned.reduce((n, i) => n + i.requests.length, 0));
    expect(planned.every((i) => i.requests.every((r) => typeof r.body === 'object'))).toBe(true);
  });

  it('--live at a --base-url fake: finds the drift, writes the case, exits 1, and prints and stores no spelling of the key', async () => {
    const key = newKey();
    const fake = await startFakeLiveProvider('lenient', { plant: key });
    // A DeepSeek case the mock refuses, as the real provider did: the lenient fake accepts it.
    const deepseek = loadRealWorldCases().filter((c) => c.case.provider === 'deepseek');
    const agreement = await realWorldAgreement({ cases: deepseek });
    const id = agreement.results.find((r) => r.agrees && !r.accepted)!.id;
    const refused = deepseek.find((c) => c.case.id === id)!;
    const out = mkdtempSync(join(tmpdir(), 'rr-verify-cli-'));
    try {
      const run = await cli(
        [
          'verify',
          '--live',
          '--provider',
          'deepseek',
          '--case',
          refused.case.id,
          '--base-url',
          `deepseek=${fake.url}`,
          '--out',
          out,
        ],
        { DEEPSEEK_API_KEY: key },
      );
      expect(run.code, run.err).toBe(1);
      expect(run.out).toMatch(new RegExp(`✗ mock too strict +deepseek case ${refused.case.id}`));
      expect(fake.requests).toHaveLength(1);
      const written = files(out);
      expect(written.map((f) => f.slice(out.length + 1)).sort()).toEqual([
        'drift.json',
        'drift.junit.xml',
        'drift.md',
        expect.stringMatching(new RegExp(`^real-world/${refused.case.id}-live-\\d{8}\\.json$`)),
      ]);
      const texts = [run.out, run.err, ...written.map((f) => readFileSync(f, 'utf8'))];
      for (const spelling of [key, Buffer.from(key).toString('base64').slice(4, 28), key.slice(8, 30)])
        for (const t of texts) expect(t).not.toContain(spelling);
    } finally {
      await fake.close();
    }
  });
});
