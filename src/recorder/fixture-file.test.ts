import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Fixture } from '../mocks/fixture-store.js';
import { existingFixture, finalizeFixture, fixturePath, removeStaleTemps, SecretLeakError, writeFixtureText } from './fixture-file.js';

const KEY = 'sk-live-abcdefghijklmnopqrstuvwxyz012345';

function fixture(extra: Record<string, string> = {}): Fixture {
  return {
    provider: 'fake',
    route: 'default',
    model: 'm',
    scenario: 's',
    family: 'openai-chat',
    provenance: { kind: 'recorded', date: '2026-12-02T13:00:00.000Z', tool: 'reasoning-replay 0.1.0', endpointHost: '127.0.0.1:1' },
    exchanges: [
      {
        request: { method: 'POST', url: 'http://127.0.0.1:1/v1/chat/completions', headers: { authorization: `Bearer ${KEY}` }, body: { messages: [] } },
        response: { status: 200, headers: { 'content-type': 'application/json', ...extra }, body: { ok: true, echoed: KEY } },
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
    expect(() => finalizeFixture(bad, [{ name: 'K', value: KEY }], 'f.json')).toThrow(/fixture\.schema\.json at \/family/);
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
