import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { importCommand } from '../../cli/commands/import.js';
import { runMatrix } from '../../services/matrix/run-matrix.js';
import { builtInEngine } from '../../services/engine-adapters/built-in-engine.js';
import { checkFixture, type Fixture } from '../../../provider/fixtures/fixture-store.js';
import { fixturesDir } from '../../../shared/project-root.js';
import { defaultRoutesFile } from '../../../shared/route-table/load-route-table.js';
import { InputError } from '../../../shared/errors/input-error.js';

/**
 * `reasoning-replay import` on one small file per format, written for this test (their answers are
 * the shipped fixtures' documented shapes): each becomes a fixture that says where it came from,
 * holds no credential, and replays through the gate in place of the synthesized one.
 */
const here = (name: string) => join(import.meta.dirname, '__fixtures__', name);
const tree = mkdtempSync(join(tmpdir(), 'rr-import-'));
cpSync(fixturesDir(), tree, { recursive: true });

async function runImport(file: string, provider: string, scenario?: string) {
  const out = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
  const err = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
  try {
    const code = await importCommand.run({
      file,
      provider,
      ...(scenario ? { scenario } : {}),
      out: tree,
      force: false,
      routes: defaultRoutesFile(),
    } as never);
    return {
      code,
      stdout: out.mock.calls.map((c) => String(c[0])).join(''),
      stderr: err.mock.calls.map((c) => String(c[0])).join(''),
    };
  } finally {
    out.mockRestore();
    err.mockRestore();
  }
}
const read = (provider: string, scenario: string): { text: string; fixture: Fixture } => {
  const file = join(tree, provider, `${scenario}.json`);
  const text = readFileSync(file, 'utf8');
  return { text, fixture: checkFixture(JSON.parse(text), file) };
};

describe('reasoning-replay import', () => {
  it('a vcrpy cassette: the chat calls, JSON bodies, the key redacted, a non-call left out with a note', async () => {
    const r = await runImport(here('deepseek-tool-call.vcrpy.yaml'), 'deepseek', 'tool-call-with-reasoning');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('2 exchange(s) imported');
    expect(r.stderr).toContain('1 recorded exchange(s) that are not openai-chat calls were left out');
    const { text, fixture } = read('deepseek', 'tool-call-with-reasoning');
    expect(text).not.toContain('sk-vcr-cassette-t3st');
    expect(text).not.toContain('sid=abc123');
    expect(fixture.provenance).toMatchObject({
      kind: 'imported',
      format: 'vcr',
      source: here('deepseek-tool-call.vcrpy.yaml'),
    });
    expect(fixture.exchanges[0]!.carriers).toMatchObject({
      reasoning_content: 'I need current conditions for Lisbon; call get_weather.',
    });
  });

  it('a HAR 1.2 file: streamed answers become stream events', async () => {
    const r = await runImport(here('anthropic-two-turn.har'), 'anthropic', 'plain-two-turn-chat');
    expect(r.code, r.stderr).toBe(0);
    const { text, fixture } = read('anthropic', 'plain-two-turn-chat');
    expect(text).not.toContain('sk-ant-api03-h4rT3st');
    expect(fixture.provenance).toMatchObject({ kind: 'imported', format: 'har' });
    expect(fixture.exchanges.every((x) => (x.response.stream?.events.length ?? 0) > 0)).toBe(true);
  });

  it('a Ruby VCR cassette of Bedrock: binary event-stream bodies decoded into events', async () => {
    const r = await runImport(here('bedrock-converse-stream.vcr.yml'), 'bedrock-claude', 'tool-call-with-reasoning');
    expect(r.code, r.stderr).toBe(0);
    const { text, fixture } = read('bedrock-claude', 'tool-call-with-reasoning');
    expect(text).not.toMatch(/Signature=(ab){32}/);
    const events = fixture.exchanges[0]!.response.stream!.events;
    expect(events[0]).toMatchObject({ event: 'messageStart', data: '{"role":"assistant"}' });
    expect(fixture.exchanges[0]!.response.headers?.['content-type']).toBe('application/vnd.amazon.eventstream');
    expect(fixture.exchanges[0]!.carriers?.reasoning_details).toHaveLength(1);
  });

  it('a Vercel AI SDK chunk dump: one streamed answer', async () => {
    const r = await runImport(here('deepseek-one-turn.chunks.txt'), 'deepseek', 'native-record-isolation');
    expect(r.code, r.stderr).toBe(0);
    const { fixture } = read('deepseek', 'native-record-isolation');
    expect(fixture.provenance).toMatchObject({ kind: 'imported', format: 'ai-sdk-chunks' });
    expect(fixture.exchanges[0]!.response.stream!.events.at(-1)!.data).toBe('[DONE]');
  });

  it('says which command replays the import, and warns when no scenario of the gate will', async () => {
    const named = await runImport(here('deepseek-one-turn.chunks.txt'), 'deepseek', 'plain-two-turn-chat');
    expect(named.stdout).toMatch(
      /replayed by: reasoning-replay check --provider deepseek \(scenario plain-two-turn-chat\)/,
    );
    // Without --scenario the file is named after the recording, which no scenario plays.
    const unnamed = await runImport(here('deepseek-one-turn.chunks.txt'), 'deepseek');
    expect(unnamed.code).toBe(0);
    expect(unnamed.stderr).toMatch(
      /no scenario "deepseek-one-turn" in specs\/scenarios\/, so the gate never replays .*--scenario/,
    );
  });

  it('refuses to import over an imported fixture without --force, and names a file that is not its format', async () => {
    const again = await runImport(here('deepseek-tool-call.vcrpy.yaml'), 'deepseek', 'tool-call-with-reasoning');
    expect(again.code).toBe(1);
    await expect(runImport(here('anthropic-two-turn.har').replace('.har', '.chunks.txt'), 'anthropic')).rejects.toThrow(
      /cannot read it/,
    );
    await expect(
      importCommand.run({
        file: here('deepseek-one-turn.chunks.txt'),
        provider: 'deepseek',
        format: 'har',
        out: tree,
        force: false,
        routes: defaultRoutesFile(),
      } as never),
    ).rejects.toThrow(/not JSON, so not a HAR file/);
  });

  it('a chunk dump with a line that is not JSON is bad input naming the file and the line, not an internal error', async () => {
    const file = join(tree, 'bad.chunks.txt');
    writeFileSync(file, '{"type":"text-delta"}\nnot json\n');
    const run = runImport(file, 'deepseek');
    await expect(run).rejects.toBeInstanceOf(InputError);
    await expect(run).rejects.toThrow(`${file}: line 2 is not JSON: "not json" (read as ai-sdk-chunks)`);
  });

  it('every imported fixture replays through the gate in place of the synthesized one', async () => {
    const cells = [
      { target: 'deepseek', scenario: 'tool-call-with-reasoning', stream: false, route: 'deepseek' },
      { target: 'anthropic', scenario: 'plain-two-turn-chat', stream: true, route: 'anthropic' },
      { target: 'bedrock-claude', scenario: 'tool-call-with-reasoning', stream: true, route: 'bedrock' },
      { target: 'deepseek', scenario: 'native-record-isolation', stream: true, route: 'deepseek' },
    ];
    for (const stream of [false, true]) {
      const want = cells.filter((c) => c.stream === stream);
      const run = await runMatrix({
        engine: builtInEngine,
        fixturesDir: tree,
        routes: new Set(want.map((c) => c.route)),
        stream,
      });
      for (const c of want) {
        const cell = run.cells.find((x) => x.target === c.target && x.scenario === c.scenario);
        expect(cell, `${c.target}/${c.scenario}`).toBeDefined();
        expect(cell!.fixture?.provenance).toBe('imported');
        expect(
          cell!.checks.filter((k) => k.status === 'fail'),
          `${c.target}/${c.scenario}`,
        ).toEqual([]);
      }
    }
  }, 60_000);

  // Issue 27: after importing a streamed recording, plain `check` answered 599 "recorded as a stream".
  it('a streamed import replays through the plain (non-streaming) gate too', async () => {
    const run = await runMatrix({
      engine: builtInEngine,
      fixturesDir: tree,
      routes: new Set(['anthropic', 'bedrock']),
      stream: false,
    });
    for (const [target, scenario] of [
      ['anthropic', 'plain-two-turn-chat'],
      ['bedrock-claude', 'tool-call-with-reasoning'],
    ] as const) {
      const cell = run.cells.find((x) => x.target === target && x.scenario === scenario);
      expect(cell?.fixture?.provenance, `${target}/${scenario}`).toBe('imported');
      expect(cell!.checks.filter((k) => k.status === 'fail').map((k) => k.detail)).toEqual([]);
    }
  }, 60_000);
});
