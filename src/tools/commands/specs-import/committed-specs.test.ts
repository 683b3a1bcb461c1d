import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { specsDir } from '../../../shared/project-root.js';
import { distilledPath, loadDefinitions } from './definitions.js';
import { forEachSchema, sha256Json, type Distilled } from './distilled.js';
import { buildResponseTarget, buildTarget } from './import-definitions.js';
import { sourceSetSha256 } from './read-source.js';

/**
 * The committed provider specs are what `npm run specs:import` makes of the pinned definitions: each
 * request schema is rebuilt here from the committed distilled form and its overlays (no network, no
 * provider documents) and must equal the spec's, byte for byte of its parsed JSON.
 */
const pins = loadDefinitions();
const read = (path: string) => JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>;
const spec = (id: string) =>
  read(join(specsDir(), 'providers', `${id}.json`)) as {
    request: { schema: Record<string, unknown>; schemaSource?: Record<string, unknown> };
  };

describe('committed specs against their pinned definitions', () => {
  it.each(pins.targets.map((t) => [t.spec, t] as const))(
    '%s: request schema rebuilt from its definition',
    (id, target) => {
      const pin = pins.definitions[target.definition]!;
      const distilled = read(distilledPath(target.definition)) as unknown as Distilled;
      expect(distilled.sourceSha256, `${target.definition}: distilled from other files than the pin names`).toBe(
        sourceSetSha256(pin),
      );
      const built = buildTarget(target, pin, distilled);
      const committed = spec(id).request;
      expect(committed.schemaSource, 'run npm run specs:import -- --distilled').toEqual(built.schemaSource);
      expect(
        committed.schema,
        'the schema was edited by hand: change the overlays, then run npm run specs:import',
      ).toEqual(built.schema);
      expect(sha256Json(committed.schema)).toBe(committed.schemaSource!.schemaSha256);
    },
  );

  it('every provider spec is built from a definition or says why its schema is hand-written', () => {
    const ids = readdirSync(join(specsDir(), 'providers')).map((f) => f.replace(/\.json$/, ''));
    const accounted = [...pins.targets.map((t) => t.spec), ...pins.handWritten.map((h) => h.spec)];
    expect([...accounted].sort()).toEqual(ids.sort());
    for (const { spec: id } of pins.handWritten) expect(spec(id).request.schemaSource, id).toBeUndefined();
  });

  it('the distilled forms hold structure only: no descriptions, titles or examples of the providers’', () => {
    for (const id of Object.keys(pins.definitions)) {
      const distilled = read(distilledPath(id)) as unknown as Distilled;
      const prose = new Set<string>();
      for (const def of Object.values(distilled.defs))
        forEachSchema(def, (node) => {
          for (const key of Object.keys(node))
            if (['description', 'title', 'example', 'examples', 'default', 'enumDescriptions'].includes(key))
              prose.add(key);
        });
      expect([...prose], id).toEqual([]);
    }
  });
});

describe('committed answer schemas against their pinned definitions', () => {
  it.each((pins.responses ?? []).map((t) => [t.id, t] as const))(
    '%s: answer and event schemas rebuilt from the definition',
    (id, target) => {
      const pin = pins.definitions[target.definition]!;
      const distilled = read(distilledPath(target.definition)) as unknown as Distilled;
      const built = buildResponseTarget(target, pin, distilled);
      const committed = read(join(specsDir(), 'responses', `${id}.json`));
      expect(committed, 'run npm run specs:import -- --distilled').toEqual(built);
      expect(sha256Json(committed.response)).toBe(built.schemaSource.responseSha256);
    },
  );

  it('every answer-schemas file is built by a target', () => {
    const files = readdirSync(join(specsDir(), 'responses')).map((f) => f.replace(/\.json$/, ''));
    expect(files.sort()).toEqual((pins.responses ?? []).map((t) => t.id).sort());
  });
});
