import Database from 'better-sqlite3';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sampleHistoryWithEveryCarrier } from '../../../engine/session/sample-history.test-helper.js';
import { runCli } from '../../../../test/helpers/run-cli-sync.test-helper.js';
import { runCliInProcess } from '../../../../test/helpers/run-cli-in-process.test-helper.js';

const dir = mkdtempSync(join(tmpdir(), 'rr-sessions-cli-'));
const db = join(dir, 'state.db');
const historyFile = join(dir, 'history.json');
writeFileSync(historyFile, JSON.stringify(sampleHistoryWithEveryCarrier()));
// The CLI's entry point in this process (main(), as bin/ calls it): what is tested is the command's output, exit code
// and the state.db it leaves. The lock test below runs the built CLI as a process of its own: the lock is another
// process's.
const cli = (...args: string[]) => runCliInProcess([...args, '--db', db]);

describe('reasoning-replay sessions (against a real state.db)', () => {
  it('imports, lists, shows carriers per turn, branches and compacts', async () => {
    const imported = await cli('sessions', 'import', historyFile, '--title', 'weather');
    expect(imported.stderr).toBe('');
    expect(imported.code).toBe(0);
    expect(imported.stdout).toMatch(/^session 1: 10 turns imported/);

    const shown = await cli('sessions', 'show', '1');
    expect(shown.code).toBe(0);
    expect(shown.stdout).toMatch(
      /3 {2}assistant reasoning_content\(\d+ chars\) {2}reasoning\(\d+ chars\) {2}reasoning_details\[reasoning\.text \(signed\/encrypted\), reasoning\.encrypted \(signed\/encrypted\)\] {2}tool_calls:2/,
    );
    expect(shown.stdout).toMatch(/8 {2}assistant reasoning_content=" " \(pad\)/);
    expect(shown.stdout).toMatch(/10 {2}assistant reasoning_content="" \(empty\)/);
    expect(shown.stdout).toMatch(/native:gemini\{thoughtSignature\}/);
    expect(shown.stdout).toContain('unknown-field verdicts: none');

    const branched = await cli('sessions', 'branch', '1', '--at', '5');
    expect(branched.code).toBe(0);
    expect(branched.stdout).toContain('session 2: branch of 1 at turn 5');

    const compacted = await cli('sessions', 'compact', '1', '--budget', '250', '--route', 'openrouter', '--json');
    expect(compacted.code).toBe(0);
    const summary = JSON.parse(compacted.stdout);
    expect(summary).toMatchObject({ session: 3, from: 1, status: 'compacted' });
    expect(summary.estimateAfter).toBeLessThanOrEqual(250);

    const listed = JSON.parse((await cli('sessions', 'list', '--json')).stdout);
    expect(listed.map((s: { id: number; turnCount: number }) => [s.id, s.turnCount])).toEqual([
      [1, 10],
      [2, 5],
      [3, summary.kept + 1],
    ]);
    expect(listed[1].parent).toEqual({ sessionId: 1, atTurn: 5, kind: 'branch' });
    expect(listed[2].parent).toMatchObject({ sessionId: 1, kind: 'compaction' });
  });

  it('a compaction that cannot reach its budget exits 1 and writes no session', async () => {
    const before = JSON.parse((await cli('sessions', 'list', '--json')).stdout).length;
    const over = await cli('sessions', 'compact', '1', '--budget', '1', '--route', 'openrouter');
    expect(over.code).toBe(1);
    expect(over.stdout).toMatch(/cannot be compacted to 1 tokens .*nothing written/s);
    expect(over.stdout).toMatch(/hint: raise --budget to at least \d+/);
    expect(JSON.parse((await cli('sessions', 'list', '--json')).stdout).length).toBe(before);
  });

  it('shows the verdicts a session recorded', async () => {
    const raw = new Database(db);
    raw.prepare('UPDATE sessions SET model_config = ? WHERE id = 1').run(
      JSON.stringify({
        unknown_field_verdicts: [
          ['groq', 'api.groq.com', 'qwen3-32b', ['reasoning_content', 'reasoning', 'reasoning_details']],
        ],
      }),
    );
    raw.close();
    const shown = await cli('sessions', 'show', '1');
    expect(shown.stdout).toContain('groq api.groq.com qwen3-32b: reasoning_content, reasoning, reasoning_details');
  });

  it('answers bad input with one line and exit 2, and leaves the file alone', async () => {
    const missing = await cli('sessions', 'show', '99');
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/no session 99/);
    expect((await cli('sessions', 'show', 'abc')).stderr).toMatch(/"abc" is not a session id/);
    expect((await cli('sessions', 'branch', '1', '--at', '99')).code).toBe(2);
    expect((await cli('sessions', 'branch', '1')).stderr).toMatch(/missing the turn/);

    const notDb = join(dir, 'notes.txt');
    writeFileSync(notDb, 'plain text, not sqlite\n'.repeat(50));
    const r = await runCliInProcess(['sessions', 'list', '--db', notDb]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/not a SQLite database/);
    expect(r.stderr.split('\n').filter(Boolean)).toHaveLength(1);
    expect(readFileSync(notDb, 'utf8')).toBe('plain text, not sqlite\n'.repeat(50));

    const foreign = join(dir, 'foreign.db');
    const f = new Database(foreign);
    f.exec('CREATE TABLE t (x)');
    f.close();
    expect((await runCliInProcess(['sessions', 'list', '--db', foreign])).stderr).toMatch(
      /not a reasoning-replay state\.db/,
    );
    expect((await runCliInProcess(['sessions', 'list', '--db', join(dir, 'none.db')])).stderr).toMatch(
      /no such state\.db/,
    );
  });

  it('reports a database another process holds locked (exit 2) and still reads it', () => {
    const holder = new Database(db);
    holder.exec('BEGIN EXCLUSIVE');
    try {
      const write = runCli(['sessions', 'branch', '1', '--at', '1', '--db', db]);
      expect(write.code).toBe(2);
      expect(write.stderr).toMatch(/locked by another process/);
      expect(runCli(['sessions', 'list', '--db', db]).code).toBe(0);
    } finally {
      holder.exec('ROLLBACK');
      holder.close();
    }
  });

  it('uses $REASONING_REPLAY_DB when --db is not given', async () => {
    const r = await runCliInProcess(['sessions', 'list'], { env: { REASONING_REPLAY_DB: db } });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('weather');
  });
});
