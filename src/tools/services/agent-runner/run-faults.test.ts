import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../../../../test/helpers/run-cli-sync.test-helper.js';
import { projectRoot } from '../../../shared/project-root.js';

/**
 * `run --faults` through the built CLI on examples/agents/interrupted-thinking-agent.mjs: the agent that keeps a
 * signature as it accumulates stores the part a cut stream delivered and fails recovers-from-faults, naming the fault
 * and the request; the same agent committing blocks only at content_block_stop passes.
 */
const work = mkdtempSync(join(tmpdir(), 'rr-run-faults-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));
const agent = join(projectRoot(), 'examples', 'agents', 'interrupted-thinking-agent.mjs');
const FAULT = 'messages-cut-mid-signature';

describe('reasoning-replay run --faults', () => {
  it('an agent that stores the partial signature fails, naming the fault, the request and the fix', () => {
    const out = join(work, 'bad');
    const r = runCli(
      ['run', '--provider', 'anthropic', '--faults', FAULT, '--out', out, '--', 'node', agent, '--commit-at-delta'],
      { cwd: work },
    );
    expect(r.code, r.stdout + r.stderr).toBe(1);
    expect(r.stdout).toMatch(
      new RegExp(
        `✗ recovers-from-faults: ${FAULT} on anthropic \\(injected at request #1, cut after \\d+ of the signature’s \\d+ characters\\) -> damage at request #2 \\(truncated-signature\\); fix: Stage signature deltas`,
      ),
    );
    const junit = readFileSync(join(out, 'junit.xml'), 'utf8');
    expect(junit).toContain(`after fault ${FAULT}`);
    expect(junit).toMatch(
      new RegExp(
        `<testcase classname="reasoning-replay.recovers-from-faults" name="${FAULT}">\\s*<failure message="recovers-from-faults">`,
      ),
    );
    const report = JSON.parse(readFileSync(join(out, 'client-report.json'), 'utf8')) as {
      cells: Array<{ behaviour: string; status: string; detail: string }>;
    };
    const cell = report.cells.find((c) => c.behaviour === 'recovers-from-faults')!;
    expect(cell.status).toBe('fail');
    expect(cell.detail).toContain('request #2');
    // The injected cut itself is the fault's doing, not a broken request.
    const log = readFileSync(join(out, 'requests.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { seq: number; fault?: { name: string } });
    expect(log[0]!.fault?.name).toBe(FAULT);
  });

  it('the same agent committing blocks only at their stop passes', () => {
    const r = runCli(['run', '--provider', 'anthropic', '--faults', FAULT, '--', 'node', agent], { cwd: work });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toContain(`✓ recovers-from-faults: ${FAULT} on anthropic`);
    expect(r.stdout).toContain('-> recovered');
  });

  it('an unknown fault is bad input naming the known ones', () => {
    const r = runCli(['run', '--faults', 'no-such-fault', '--', 'node', agent], { cwd: work });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(FAULT);
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });
});
