import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { SessionStore } from '../../../engine/session/session-store.js';
import { UnknownFieldVerdicts } from '../../../engine/replay/unknown-field-verdicts.js';
import { sampleHistoryWithEveryCarrier } from '../../../engine/session/sample-history.test-helper.js';
import { runCliInProcess } from '../../../../test/helpers/run-cli-in-process.test-helper.js';

const dir = mkdtempSync(join(tmpdir(), 'rr-replay-cli-'));
const db = join(dir, 'state.db');
const historyFile = join(dir, 'history.json');

beforeAll(() => {
  writeFileSync(historyFile, JSON.stringify(sampleHistoryWithEveryCarrier()));
  const store = SessionStore.open(db);
  store.importHistory(sampleHistoryWithEveryCarrier());
  const verdicts = new UnknownFieldVerdicts();
  // --route openrouter stands for the OpenRouter provider spec's own target.
  verdicts.record({ provider: 'openrouter', host: 'openrouter.ai', model: 'anthropic/claude-sonnet-4.5' }, [
    'reasoning',
    'reasoning_details',
  ]);
  store.saveVerdicts(1, verdicts);
  store.close();
});

// The CLI's entry point in this process (main(), as bin/ calls it): the body printed and the exit code are what is
// tested.
const replay = (...args: string[]) => runCliInProcess(['replay', '--session', '1', '--db', db, ...args]);

describe('reasoning-replay replay --session', () => {
  it('prints what build-request prints for the same history on the same target', async () => {
    for (const [provider, host, model] of [
      ['deepseek', 'api.deepseek.com', 'deepseek-v4-flash'],
      ['novita', 'api.novita.ai', 'm'],
    ] as const) {
      const fromDb = await replay('--provider', provider, '--host', host, '--model', model);
      const fromFile = await runCliInProcess([
        'build-request',
        '--history',
        historyFile,
        '--provider',
        provider,
        '--host',
        host,
        '--model',
        model,
      ]);
      expect(fromDb.code).toBe(0);
      expect(fromDb.stdout).toBe(fromFile.stdout);
    }
  });

  it("withholds the fields the session's verdicts recorded for that target", async () => {
    const r = await replay('--route', 'openrouter', '--envelope');
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.target).toEqual({ provider: 'openrouter', host: 'openrouter.ai', model: 'anthropic/claude-sonnet-4.5' });
    expect(out.omitted).toEqual(['reasoning', 'reasoning_details']);
    expect(JSON.stringify(out.body)).not.toMatch(/"reasoning"|reasoning_details/);
    expect(out.body.messages[2].reasoning_content).toBeDefined();
    // The same route for another model has no verdict: everything travels.
    const other = JSON.parse((await replay('--route', 'openrouter', '--model', 'other', '--envelope')).stdout);
    expect(other.omitted).toEqual([]);
    expect(other.body.messages[2].reasoning_details).toHaveLength(2);
  });

  it('exits 2 on an unknown route or a missing target', async () => {
    expect((await replay('--route', 'nope')).stderr).toMatch(/no route "nope"/);
    expect((await replay()).code).toBe(2);
    expect((await runCliInProcess(['replay', '--session', '7', '--db', db, '--route', 'groq'])).stderr).toMatch(
      /no session 7/,
    );
  });
});
