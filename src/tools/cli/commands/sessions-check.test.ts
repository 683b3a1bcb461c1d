import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sampleHistoryWithEveryCarrier } from '../../../engine/session/sample-history.test-helper.js';
import { runCli } from '../../../../test/helpers/run-cli-sync.test-helper.js';

/** `sessions check` on a stored session and on history files: exit 1 naming the turn and the repair, else 0. */
const dir = mkdtempSync(join(tmpdir(), 'rr-sessions-check-'));
const db = join(dir, 'state.db');
const write = (name: string, value: unknown) => {
  const file = join(dir, name);
  writeFileSync(file, JSON.stringify(value));
  return file;
};
const clean = write('clean.json', sampleHistoryWithEveryCarrier());
// An Anthropic Messages history, as an agent stores it, with a thinking block a cut stream left unsigned.
const poisoned = write('poisoned.json', {
  messages: [
    { role: 'user', content: 'Where is ORD-1?' },
    {
      role: 'assistant',
      content: [
        { type: 'thinking', thinking: 'Look it up', signature: '' },
        { type: 'tool_use', id: 'toolu_1', name: 'lookup', input: {} },
      ],
    },
    { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'shipped' }] },
  ],
});

describe('reasoning-replay sessions check', () => {
  it('a clean history file exits 0', () => {
    const r = runCli(['sessions', 'check', clean]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('no stored carrier that can never replay');
  });

  it('a poisoned history file exits 1 with the turn, the pointer and the repair', () => {
    const r = runCli(['sessions', 'check', poisoned, '--history-format', 'anthropic-messages']);
    expect(r.code, r.stderr).toBe(1);
    expect(r.stdout).toMatch(/turn 2 \/messages\/1\/reasoning_details\/0\/signature: empty-signature/);
    expect(r.stdout).toContain('repair: send the block without its signature');
  });

  it('a session in state.db, imported from the poisoned file, is found the same', () => {
    expect(runCli(['sessions', 'import', poisoned, '--history-format', 'anthropic-messages', '--db', db]).code).toBe(0);
    const r = runCli(['sessions', 'check', '1', '--db', db, '--json']);
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stdout)).toEqual([expect.objectContaining({ turn: 2, kind: 'empty-signature' })]);
  });
});
