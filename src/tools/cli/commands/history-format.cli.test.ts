import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCliInProcess as runCli } from '../../../../test/helpers/run-cli-in-process.test-helper.js';

/** --history-format end to end: a history as an agent stored it goes in, the route's body comes out. */
const dir = mkdtempSync(join(tmpdir(), 'history-format-'));
const file = (name: string, value: unknown) => {
  const path = join(dir, name);
  writeFileSync(path, JSON.stringify(value));
  return path;
};

const openaiExport = file('openai.json', {
  messages: [
    { role: 'user', content: 'Weather in Paris and London?' },
    {
      role: 'assistant',
      content: null,
      tool_calls: [
        {
          id: 'a',
          type: 'function',
          function: { name: 'get_weather', arguments: '{"city":"Paris"}' },
          extra_content: { google: { thought_signature: 'SIG_1' } },
        },
        { id: 'b', type: 'function', function: { name: 'get_weather', arguments: '{"city":"London"}' } },
      ],
    },
    { role: 'tool', tool_call_id: 'a', content: '{"temp":18}' },
    { role: 'tool', tool_call_id: 'b', content: 'rainy' },
  ],
});

const claudeSession = file('claude.json', {
  system: 'Be brief.',
  messages: [
    { role: 'user', content: 'Weather?' },
    {
      role: 'assistant',
      content: [
        { type: 'thinking', thinking: 'Use the tool.', signature: 'SIG_C' },
        { type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: { city: 'Paris' } },
      ],
    },
    { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: '18C' }] },
  ],
});

describe('--history-format', () => {
  it('build-request: an openai-chat export with a Gemini signature replays it on a regional Vertex host, under that route', async () => {
    const r = await runCli([
      'build-request',
      '--provider',
      'custom',
      '--host',
      'us-east5-aiplatform.googleapis.com',
      '--model',
      'gemini-3-pro-preview',
      '--history',
      openaiExport,
      '--history-format',
      'openai-chat',
      '--envelope',
    ]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout) as { route: string; body: { contents: { parts: Record<string, unknown>[] }[] } };
    expect(out.route).toBe('vertex-gemini');
    expect(out.body.contents[1]!.parts.map((p) => p.thoughtSignature)).toEqual(['SIG_1', undefined]);
  });

  it('sessions import + replay: an Anthropic Messages history keeps its signed thinking in state.db', async () => {
    const db = join(dir, 'state.db');
    const imported = await runCli([
      'sessions',
      'import',
      claudeSession,
      '--history-format',
      'anthropic-messages',
      '--db',
      db,
    ]);
    expect(imported.code, imported.stderr).toBe(0);
    const r = await runCli(['replay', '--session', '1', '--route', 'anthropic', '--db', db]);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.stringify(JSON.parse(r.stdout))).toContain(
      '{"type":"thinking","thinking":"Use the tool.","signature":"SIG_C"}',
    );
  });

  it('replay --history: reads a file directly; a part it cannot keep is exit 2 with the file and pointer', async () => {
    const ok = await runCli([
      'replay',
      '--history',
      claudeSession,
      '--history-format',
      'anthropic-messages',
      '--provider',
      'openrouter',
      '--host',
      'openrouter.ai',
      '--model',
      'deepseek/deepseek-v4-pro',
      '--envelope',
    ]);
    expect(ok.code, ok.stderr).toBe(0);
    const envelope = JSON.parse(ok.stdout) as {
      tier: string;
      upstreamRule?: string;
      body: { messages: { reasoning_content?: string }[] };
    };
    // DeepSeek V4's must-echo rule travels with the model to OpenRouter; the Claude thinking is readable, so it is
    // echoed.
    expect([envelope.tier, envelope.upstreamRule]).toEqual(['must-echo', 'deepseek-v4-thinking']);
    expect(envelope.body.messages[2]!.reasoning_content).toBe('Use the tool.');
    const bad = file('bad.json', {
      contents: [{ role: 'user', parts: [{ inlineData: { mimeType: 'image/png', data: 'AAAA' } }] }],
    });
    const refused = await runCli([
      'replay',
      '--history',
      bad,
      '--history-format',
      'gemini-contents',
      '--route',
      'gemini',
    ]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(`${bad} at /contents/0/parts/0:`);
    expect(refused.stderr).not.toMatch(/\n\s+at /); // no stack trace
  });

  it('auto: an Anthropic file given without a format is refused with a hint; --history-format auto reads it and says so', async () => {
    const plain = await runCli(['replay', '--history', claudeSession, '--route', 'anthropic']);
    expect(plain.code).toBe(2);
    expect(plain.stderr).toContain('pass --history-format anthropic-messages (or auto)');
    const auto = await runCli([
      'replay',
      '--history',
      claudeSession,
      '--route',
      'anthropic',
      '--history-format',
      'auto',
    ]);
    expect(auto.code, auto.stderr).toBe(0);
    expect(auto.stderr).toBe(`reasoning-replay: ${claudeSession} read as anthropic-messages (--history-format auto)\n`);
    expect(JSON.stringify(JSON.parse(auto.stdout))).toContain('"signature":"SIG_C"');
  });
});
