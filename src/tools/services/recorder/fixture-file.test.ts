import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Fixture } from '../../../provider/fixtures/fixture-store.js';
import { formatSseEvent } from '../../../shared/sse/parse-sse.js';
import { FileSpool } from './event-spool.js';
import {
  existingFixture,
  finalizeFixture,
  fixturePath,
  removeStaleTemps,
  renderFixture,
  writeFixtureFile,
  writeFixtureText,
} from './fixture-file.js';
import { SecretLeakError } from '../../../shared/errors/secret-leak-error.js';

const KEY = 'sk-live-abcdefghijklmnopqrstuvwxyz012345';

function fixture(extra: Record<string, string> = {}): Fixture {
  return {
    provider: 'fake',
    route: 'default',
    model: 'm',
    scenario: 's',
    family: 'openai-chat',
    provenance: {
      kind: 'recorded',
      date: '2026-12-02T13:00:00.000Z',
      tool: 'reasoning-replay 0.1.0',
      endpointHost: '127.0.0.1:1',
    },
    exchanges: [
      {
        request: {
          method: 'POST',
          url: 'http://127.0.0.1:1/v1/chat/completions',
          headers: { authorization: `Bearer ${KEY}` },
          body: { messages: [] },
        },
        response: {
          status: 200,
          headers: { 'content-type': 'application/json', ...extra },
          body: { ok: true, echoed: KEY },
        },
      },
    ],
  };
}

describe('finalizeFixture', () => {
  it('redacts the key everywhere and returns schema-valid JSON text', () => {
    const text = finalizeFixture(fixture(), [{ name: 'FAKE_KEY', value: KEY }], 'f.json');
    expect(text).not.toContain(KEY);
    expect(JSON.parse(text).exchanges[0].response.body.echoed).toBe('[redacted-by-recorder:FAKE_KEY]');
  });

  it('refuses, naming the JSON pointer and masking the value, when a credential survives', () => {
    const leak = 'AKIAZ7Q3R5T2W8Y4U6I0';
    let error: unknown;
    try {
      finalizeFixture(fixture({ 'x-debug-upstream': `creds ${leak}` }), [{ name: 'FAKE_KEY', value: KEY }], 'f.json');
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(SecretLeakError);
    const message = (error as Error).message;
    expect(message).toContain('/exchanges/0/response/headers/x-debug-upstream');
    expect(message).toContain('AWS access key id');
    expect(message).not.toContain(leak);
  });

  it('refuses a fixture that breaks the schema', () => {
    const bad = { ...fixture(), family: 'carrier-pigeon' } as unknown as Fixture;
    expect(() => finalizeFixture(bad, [{ name: 'K', value: KEY }], 'f.json')).toThrow(
      /fixture\.schema\.json at \/family/,
    );
  });
});

describe('renderFixture with spooled stream events', () => {
  const events = Array.from({ length: 300 }, (_, i) => ({
    data: JSON.stringify({ i, text: `delta ${i} ${'é'.repeat(i % 7)}` }),
    atMs: i,
  }));
  const streamed = (): Fixture => {
    const f = fixture();
    f.exchanges.push({
      response: { status: 200, headers: { 'content-type': 'text/event-stream' }, stream: { events: [] } },
    });
    return f;
  };

  it('writes the events from the spool, one per line, into a file that parses back to the whole fixture', () => {
    const dir = mkdtempSync(join(tmpdir(), 'rr-spool-'));
    const spool = new FileSpool(join(dir, 'e.spool'));
    events.forEach((e) => spool.append(Buffer.from(formatSseEvent({ data: e.data })), e.atMs));
    const file = join(dir, 'out', 'f.json');
    writeFixtureFile(
      file,
      renderFixture({ fixture: streamed(), streams: new Map([[1, spool]]) }, [{ name: 'K', value: KEY }], file),
    );
    const text = readFileSync(file, 'utf8');
    const parsed = JSON.parse(text) as Fixture;
    expect(parsed.exchanges[1]!.response.stream!.events).toEqual(events);
    expect(text).toContain(`\n            ${JSON.stringify(events[5])},\n`);
    // The same fixture with the events in memory renders to the same text.
    const inMemory = streamed();
    inMemory.exchanges[1]!.response.stream!.events = events;
    expect(finalizeFixture(inMemory, [{ name: 'K', value: KEY }], file)).toBe(text);
    expect(finalizeFixture(fixture(), [{ name: 'K', value: KEY }], file)).toBe(
      JSON.stringify(JSON.parse(finalizeFixture(fixture(), [{ name: 'K', value: KEY }], file)), null, 2) + '\n',
    );
  });

  it('refuses before producing any text when a spooled event holds a credential, naming the event', () => {
    const leaky = [...events.slice(0, 3), { data: 'x-debug ghp_4f9Qx2LmN8rT1vYb6KcZ0aWd3eHs7uJpAbCd' }];
    expect(() =>
      renderFixture({ fixture: streamed(), streams: new Map([[1, leaky]]) }, [{ name: 'K', value: KEY }], 'f.json'),
    ).toThrow(/\/exchanges\/1\/response\/stream\/events\/3\/data \(GitHub token/);
  });

  it('renders an empty stream as an empty array', () => {
    const text = finalizeFixture(streamed(), [{ name: 'K', value: KEY }], 'f.json');
    expect((JSON.parse(text) as Fixture).exchanges[1]!.response.stream!.events).toEqual([]);
  });
});

describe('fixture files', () => {
  it('tells none, synthesized, recorded and unreadable apart', () => {
    const dir = mkdtempSync(join(tmpdir(), 'rr-fixture-'));
    const file = fixturePath(dir, 'p', 's');
    expect(existingFixture(file)).toBe('none');
    writeFixtureText(file, finalizeFixture(fixture(), [{ name: 'K', value: KEY }], file));
    expect(existingFixture(file)).toBe('recorded');
    writeFileSync(file, JSON.stringify({ provenance: { kind: 'synthesized' } }));
    expect(existingFixture(file)).toBe('synthesized');
    writeFileSync(file, '{ half');
    expect(existingFixture(file)).toBe('unreadable');
    expect(readdirSync(join(dir, 'p'))).toEqual(['s.json']);
  });

  it('removes temps left by dead writers and keeps those of live ones', () => {
    const dir = mkdtempSync(join(tmpdir(), 'rr-temps-'));
    const dead = spawnSync(process.execPath, ['-e', '0']).pid;
    const file = join(dir, 's.json');
    writeFileSync(join(dir, `.s.json.${dead}.1.tmp`), '{');
    writeFileSync(join(dir, `.s.json.${process.pid}.2.tmp`), '{');
    expect(removeStaleTemps(file)).toEqual([join(dir, `.s.json.${dead}.1.tmp`)]);
    expect(readdirSync(dir)).toEqual([`.s.json.${process.pid}.2.tmp`]);
  });
});
