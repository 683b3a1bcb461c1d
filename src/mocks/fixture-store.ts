import { existsSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { readJsonFile } from '../input/read-json.js';
import { assertValid } from '../input/validate.js';
import { fixturesDir, projectRoot } from '../project-root.js';

/** Types mirroring specs/schema/fixture.schema.json. */
export interface FixtureExchange {
  request?: { method: string; url: string; headers?: Record<string, string>; body: unknown };
  response: {
    status: number;
    headers?: Record<string, string>;
    body?: unknown;
    stream?: { events: Array<{ event?: string; id?: string; data: string; atMs?: number }> };
  };
  carriers?: Record<string, unknown>;
}

export type Provenance =
  | { kind: 'synthesized'; sources: string[]; generator?: string }
  | { kind: 'recorded'; date: string; tool: string; endpointHost: string }
  | { kind: 'imported'; format: 'vcr' | 'har' | 'ai-sdk-chunks'; source: string; date?: string; tool?: string; endpointHost?: string };

export interface Fixture {
  provider: string;
  route?: string;
  model: string;
  scenario: string;
  family: string;
  provenance: Provenance;
  exchanges: FixtureExchange[];
}

export interface LoadedFixture {
  fixture: Fixture;
  /** Path relative to the project root, for reports. */
  path: string;
}

export function checkFixture(value: unknown, file: string): Fixture {
  return assertValid<Fixture>(value, 'fixture.schema.json', file);
}

/**
 * Fixtures by provider and scenario, read lazily. A `<scenario>.json` is the fixture for that
 * scenario; a recorder writes the same name, so a recorded capture replaces the synthesized one.
 */
export class FixtureStore {
  private readonly cache = new Map<string, LoadedFixture | null>();

  constructor(readonly dir: string = fixturesDir()) {}

  get(provider: string, scenario: string): LoadedFixture | undefined {
    const key = `${provider}/${scenario}`;
    if (!this.cache.has(key)) {
      const file = join(this.dir, provider, `${scenario}.json`);
      this.cache.set(key, existsSync(file) ? { fixture: checkFixture(readJsonFile(file), file), path: relative(projectRoot(), file) } : null);
    }
    return this.cache.get(key) ?? undefined;
  }

  scenariosFor(provider: string): string[] {
    const dir = join(this.dir, provider);
    if (!existsSync(dir)) return [];
    return readdirSync(dir)
      .filter((f) => f.endsWith('.json'))
      .map((f) => f.slice(0, -'.json'.length))
      .sort();
  }
}
