import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { InputError } from '../../../shared/errors/input-error.js';
import { inlineValidator } from '../../../shared/validation/validate.js';
import { sha256Json, sha256Text } from './distilled.js';
import { runSpecsImport } from './specs-import.js';

const sampleFile = fileURLToPath(new URL('./__fixtures__/sample-openapi.yaml', import.meta.url));
const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));

/** A project in a temp dir: one pinned sample definition, one provider spec built from it. */
function project(sha256 = sha256Text(readFileSync(sampleFile))) {
  const dir = mkdtempSync(join(tmpdir(), 'specs-import-'));
  dirs.push(dir);
  const paths = {
    from: join(dir, 'sources'),
    definitionsFile: join(dir, 'definitions.json'),
    distilledDir: join(dir, 'distilled'),
    providersDir: join(dir, 'providers'),
  };
  mkdirSync(join(paths.from, 'sample-openapi'), { recursive: true });
  mkdirSync(paths.distilledDir);
  mkdirSync(paths.providersDir);
  copyFileSync(sampleFile, join(paths.from, 'sample-openapi', 'sample-openapi.yaml'));
  writeFileSync(
    paths.definitionsFile,
    JSON.stringify({
      definitions: {
        'sample-openapi': {
          provider: 'Sample',
          format: 'openapi',
          title: 'a hand-made sample',
          repository: 'example/sample',
          commit: '0'.repeat(40),
          files: [{ path: 'sample-openapi.yaml', sha256 }],
          operations: [{ name: 'chat', operationId: 'createChat' }],
        },
      },
      targets: [
        {
          spec: 'demo',
          definition: 'sample-openapi',
          operation: 'chat',
          basis: 'own',
          closed: { evidence: ['https://example.org/closed'] },
          overlays: [
            {
              id: 'demo-reasoning',
              kind: 'add-member',
              at: 'AssistantMessage',
              member: 'reasoning_content',
              schema: { type: 'string' },
              evidence: ['https://example.org/reasoning'],
            },
          ],
        },
      ],
      handWritten: [],
    }),
  );
  // Other members of the spec, in their own order and format, must come through untouched.
  const spec =
    '{\n  "id": "demo",\n  "request": {\n    "schema": {},\n    "unknownFieldRejection": "x"\n  },\n  "rejections": {"x": 1}\n}\n';
  writeFileSync(join(paths.providersDir, 'demo.json'), spec);
  return { dir, paths, spec };
}

describe('npm run specs:import', () => {
  it('distils the pinned source, writes the spec’s request schema and its source, and touches nothing else', async () => {
    const { dir, paths, spec } = project();
    const first = await runSpecsImport(paths);
    expect(first.changed.map((p) => p.slice(dir.length + 1))).toEqual([
      'distilled/sample-openapi.distilled.json',
      'providers/demo.json',
    ]);
    const text = readFileSync(join(paths.providersDir, 'demo.json'), 'utf8');
    expect(text.startsWith('{\n  "id": "demo",\n  "request": {\n    "schema": {')).toBe(true);
    expect(text).toContain('\n    "unknownFieldRejection": "x",\n    "schemaSource": {');
    expect(text).toContain('\n  "rejections": {"x": 1}\n}\n');
    expect(spec).not.toBe(text);
    const written = JSON.parse(text) as {
      request: { schema: Record<string, unknown>; schemaSource: Record<string, unknown> };
    };
    expect(written.request.schemaSource).toMatchObject({
      definition: 'sample-openapi',
      operation: 'chat',
      basis: 'own',
      pin: 'example/sample@000000000000 sample-openapi.yaml',
      schemaSha256: sha256Json(written.request.schema),
      closed: { evidence: ['https://example.org/closed'] },
      overlays: [{ id: 'demo-reasoning', kind: 'add-member', at: 'AssistantMessage', member: 'reasoning_content' }],
    });
    const validate = inlineValidator(written.request.schema);
    expect(validate({ model: 'm', messages: [{ role: 'assistant', reasoning_content: 'r' }] })).toBe(true);
    expect(validate({ model: 'm', messages: [{ role: 'user', content: 'x', reasoning_content: 'r' }] })).toBe(false);
  });

  it('is idempotent, rebuilds from the committed distilled form without sources, and --check reports drift', async () => {
    const { paths } = project();
    await runSpecsImport(paths);
    expect((await runSpecsImport(paths)).changed).toEqual([]);
    const { from: _from, ...offline } = paths;
    expect((await runSpecsImport(offline)).changed).toEqual([]);
    const specFile = join(paths.providersDir, 'demo.json');
    const edited = readFileSync(specFile, 'utf8').replace('"minItems": 1', '"minItems": 0');
    writeFileSync(specFile, edited);
    const check = await runSpecsImport({ ...offline, check: true });
    expect(check.changed).toEqual([specFile]);
    expect(readFileSync(specFile, 'utf8')).toBe(edited);
  });

  it('refuses a source that differs from its pin, and a missing one it may not download, naming the pin', async () => {
    const moved = project('f'.repeat(64));
    const err = await runSpecsImport(moved.paths).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InputError);
    expect((err as InputError).pointer).toBe('/definitions/sample-openapi/files/0/sha256');
    expect((err as InputError).hint).toMatch(/update the pin/);
    const missing = project();
    rmSync(join(missing.paths.from, 'sample-openapi'), { recursive: true });
    const gone = await runSpecsImport({ ...missing.paths, fetchMissing: false }).catch((e: unknown) => e);
    expect((gone as InputError).problem).toMatch(/sample-openapi\.yaml is missing/);
    expect((gone as InputError).hint).toContain('https://raw.githubusercontent.com/example/sample/');
  });
});
