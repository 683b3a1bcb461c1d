import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCliInProcess } from '../../../../test/helpers/run-cli-in-process.test-helper.js';

const dir = mkdtempSync(join(tmpdir(), 'rr-build-'));
const historyFile = join(dir, 'history.json');
writeFileSync(
  historyFile,
  JSON.stringify({
    messages: [
      { role: 'user', content: 'weather in Oslo?' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: 'c1', type: 'function', function: { name: 'w', arguments: '{}' } }],
      },
      { role: 'tool', tool_call_id: 'c1', content: 'cold' },
      {
        role: 'assistant',
        content: 'Cold.',
        reasoning_content: 'It said cold.',
        reasoning_details: [{ type: 'reasoning.encrypted', data: 'gAAAAopaque' }],
      },
    ],
  }),
);

// The CLI's entry point in this process (main(), as bin/ calls it): the body printed, the lines on stderr and the exit
// code are what is tested.
const build = (...args: string[]) => runCliInProcess(['build-request', '--history', historyFile, ...args]);

describe('reasoning-replay build-request', () => {
  it('pads a must-echo tool turn with " " and keeps stored reasoning elsewhere', async () => {
    const result = await build('--provider', 'deepseek', '--host', 'api.deepseek.com', '--model', 'deepseek-v4-flash');
    expect(result.code).toBe(0);
    const body = JSON.parse(result.stdout);
    expect(body.messages[1].reasoning_content).toBe(' ');
    expect(body.messages[3].reasoning_content).toBe('It said cold.');
    expect(body.messages[3].reasoning_details).toBeUndefined();
  });

  it('sends a strict route no reasoning key at all', async () => {
    const result = await build('--provider', 'custom', '--host', 'api.groq.com', '--model', 'qwen3-32b');
    expect(result.code).toBe(0);
    expect(result.stdout).not.toMatch(/reasoning/);
  });

  it('sends an aggregator every carrier, opaque items verbatim', async () => {
    const body = JSON.parse(
      (await build('--provider', 'openrouter', '--host', 'openrouter.ai', '--model', 'x')).stdout,
    );
    expect(body.messages[3]).toMatchObject({
      reasoning_content: 'It said cold.',
      reasoning: 'It said cold.',
      reasoning_details: [{ type: 'reasoning.encrypted', data: 'gAAAAopaque' }],
    });
  });

  it('honours --omit as the fallback would, and --envelope', async () => {
    const out = JSON.parse(
      (
        await build(
          '--provider',
          'openrouter',
          '--host',
          'openrouter.ai',
          '--model',
          'x',
          '--omit',
          'reasoning_details',
          '--envelope',
        )
      ).stdout,
    );
    expect(out).toMatchObject({
      route: 'openrouter',
      tier: 'standard',
      family: 'openai-chat',
      path: '/chat/completions',
    });
    expect(out.body.messages[3].reasoning_details).toBeUndefined();
  });

  it('says on stderr when --omit cannot apply, and still builds the request', async () => {
    const mustEcho = await build(
      '--provider',
      'deepseek',
      '--host',
      'api.deepseek.com',
      '--model',
      'deepseek-v4-flash',
      '--omit',
      'reasoning_content',
    );
    expect(mustEcho.code).toBe(0);
    expect(mustEcho.stderr).toMatch(/--omit reasoning_content is ignored: route deepseek is must-echo/);
    expect(JSON.parse(mustEcho.stdout).messages[1].reasoning_content).toBe(' ');
    const strict = await build(
      '--provider',
      'custom',
      '--host',
      'api.groq.com',
      '--model',
      'qwen3-32b',
      '--omit',
      'reasoning',
    );
    expect(strict.stderr).toMatch(/--omit reasoning has no effect: route \S+ is strict/);
    const unread = await build(
      '--provider',
      'deepseek',
      '--host',
      'api.deepseek.com',
      '--model',
      'deepseek-v4-flash',
      '--omit',
      'reasoning_details',
    );
    expect(unread.stderr).toMatch(
      /--omit reasoning_details has no effect: route deepseek does not send reasoning_details/,
    );
    const honoured = await build(
      '--provider',
      'openrouter',
      '--host',
      'openrouter.ai',
      '--model',
      'x',
      '--omit',
      'reasoning_details',
    );
    expect(honoured.stderr).toBe('');
  });

  it('exits 2 naming the file and pointer for a bad history', async () => {
    const bad = join(dir, 'bad.json');
    writeFileSync(bad, JSON.stringify({ messages: [{ role: 'tool', content: 'x' }] }));
    const result = await runCliInProcess([
      'build-request',
      '--history',
      bad,
      '--provider',
      'x',
      '--host',
      'y',
      '--model',
      'z',
    ]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`${bad} at /messages/0: missing required property "tool_call_id"`);
  });

  it('exits 2 for a missing file, an unknown --omit field and a missing option', async () => {
    const nope = join(dir, 'nope.json');
    const noFile = await runCliInProcess([
      'build-request',
      '--history',
      nope,
      '--provider',
      'x',
      '--host',
      'y',
      '--model',
      'z',
    ]);
    expect(noFile.stderr).toContain('nope.json: no such file');
    expect((await build('--provider', 'x', '--host', 'y', '--model', 'z', '--omit', 'thinking')).code).toBe(2);
    const missing = await runCliInProcess(['build-request', '--history', historyFile]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('Missing required arguments');
  });
});
