/**
 * `npm run specs:import`: rebuilds the request schemas of the provider specs, and the answer and
 * stream-event schemas of each family (specs/responses/), from the providers' own API definitions, pinned in specs/definitions.json. Sources are read from `--from DIR`
 * (`DIR/<definition>/<path>`); files missing there are downloaded from their pinned URL unless
 * `--offline`. `--distilled` skips the sources and rebuilds the specs from the committed distilled
 * forms (specs/definitions/*.distilled.json), which is what `npm test` checks. `--check` writes
 * nothing and exits 1 when a file would change.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import stringify from 'json-stringify-pretty-compact';
import yargs from 'yargs';
import { projectRoot, specsDir } from '../../../shared/project-root.js';
import { InputError } from '../../../shared/errors/input-error.js';
import { DefinitionImportError } from '../../../shared/errors/definition-import-error.js';
import { readJsonFile } from '../../../shared/validation/read-json.js';
import { definitionsPath, distilledPath, loadDefinitions, type DefinitionsFile } from './definitions.js';
import type { Distilled } from './distilled.js';
import { buildResponseTarget, buildTarget, distillDefinition, type ResponseSchemas } from './import-definitions.js';
import { readPinnedSource } from './read-source.js';
import { withRequestSchema } from './write-spec-request.js';
import { loadProviderSpecs } from '../../../shared/provider-specs/load-provider-specs.js';
import type { ProviderSpec } from '../../../shared/provider-specs/provider-spec.js';
import { EVIDENCE_KINDS, evidenceCounts } from '../../../shared/provider-specs/rule-evidence.js';

export interface SpecsImportOptions {
  /** Where the pinned source files are (`<from>/<definition>/<path>`); without it, no sources are read. */
  from?: string;
  fetchMissing?: boolean;
  check?: boolean;
  /** Limit to these definition or spec ids. */
  only?: string[];
  definitionsFile?: string;
  distilledDir?: string;
  providersDir?: string;
  /** Where the answer schemas go (specs/responses). */
  responsesDir?: string;
  log?: (line: string) => void;
}

export interface SpecsImportResult {
  /** Files that were (or, with check, would be) rewritten. */
  changed: string[];
  unchanged: string[];
}

/** Distilled JSON: compact where short, so a type fits on a line and the file stays reviewable. */
export function formatDistilled(distilled: Distilled): string {
  return `${stringify(distilled, { maxLength: 120 })}\n`;
}

/** An answer-schemas file, compact like the distilled forms. */
export function formatResponseSchemas(schemas: ResponseSchemas): string {
  return `${stringify(schemas, { maxLength: 120 })}\n`;
}

export async function runSpecsImport(options: SpecsImportOptions): Promise<SpecsImportResult> {
  const file = options.definitionsFile ?? definitionsPath();
  const pins: DefinitionsFile = loadDefinitions(file);
  const distilledDir = options.distilledDir ?? join(specsDir(), 'definitions');
  const providersDir = options.providersDir ?? join(specsDir(), 'providers');
  const log = options.log ?? (() => {});
  const wanted = (ids: string[]) => !options.only || ids.some((id) => options.only!.includes(id));
  const result: SpecsImportResult = { changed: [], unchanged: [] };
  const write = (path: string, text: string) => {
    const before = existsSync(path) ? readFileSync(path, 'utf8') : undefined;
    if (before === text) return result.unchanged.push(path);
    result.changed.push(path);
    if (!options.check) writeFileSync(path, text);
  };

  const distilled = new Map<string, Distilled>();
  for (const [id, pin] of Object.entries(pins.definitions)) {
    const targets = pins.targets.filter((t) => t.definition === id);
    if (!wanted([id, ...targets.map((t) => t.spec)])) continue;
    const path = distilledPath(id, distilledDir);
    if (options.from) {
      const root = await readPinnedSource(id, pin, options.from, {
        fetchMissing: options.fetchMissing ?? false,
        pinsFile: file,
      });
      const fresh = distillDefinition(id, pin, root);
      write(path, formatDistilled(fresh));
      distilled.set(id, fresh);
      log(`${id}: distilled ${Object.keys(fresh.defs).length} types from ${pin.files.length} file(s)`);
    } else {
      const committed = readJsonFile(path) as Distilled;
      if (committed.definition !== id || committed.sourceSha256 === undefined)
        throw new InputError(
          path,
          '',
          'not the distilled form of this definition',
          'run npm run specs:import -- --from DIR',
        );
      distilled.set(id, committed);
    }
  }

  for (const target of pins.targets) {
    const form = distilled.get(target.definition);
    if (!form || !wanted([target.spec, target.definition])) continue;
    const pin = pins.definitions[target.definition]!;
    const specFile = join(providersDir, `${target.spec}.json`);
    const { schema, schemaSource } = buildTarget(target, pin, form);
    write(specFile, withRequestSchema(readFileSync(specFile, 'utf8'), schema, schemaSource));
    log(`${target.spec}: request schema from ${target.definition} ${target.operation} (${target.basis})`);
  }

  const responsesDir = options.responsesDir ?? join(specsDir(), 'responses');
  for (const target of pins.responses ?? []) {
    const form = distilled.get(target.definition);
    if (!form || !wanted([target.id, target.family, target.definition, ...(target.specs ?? [])])) continue;
    const built = buildResponseTarget(target, pins.definitions[target.definition]!, form);
    mkdirSync(responsesDir, { recursive: true });
    write(join(responsesDir, `${target.id}.json`), formatResponseSchemas(built));
    log(`${target.id}: answer and event schemas from ${target.definition} ${target.operation} (${target.basis})`);
  }
  return result;
}

/** One line per spec: `openai  definition 130  recording 0  report 9  code 0  docs 4`. */
export function formatEvidence(specs: readonly ProviderSpec[]): string {
  return specs
    .map((spec) => {
      const counts = evidenceCounts(spec);
      return `${spec.id.padEnd(20)} ${EVIDENCE_KINDS.map((k) => `${k} ${String(counts[k]).padStart(4)}`).join('  ')}\n`;
    })
    .join('');
}

async function cli(argv: string[]): Promise<number> {
  let helped = false;
  const args = await yargs(argv)
    .scriptName('specs:import')
    .usage('npm run specs:import -- [--from DIR] [--offline] [--distilled] [--check] [--only ID]')
    .strict()
    .option('from', {
      type: 'string',
      describe: 'directory holding the pinned sources as <definition>/<path> (missing files are downloaded)',
      default: join(projectRoot(), 'node_modules', '.cache', 'specs-import'),
      defaultDescription: 'node_modules/.cache/specs-import',
    })
    .option('offline', { type: 'boolean', default: false, describe: 'never download; a missing source is an error' })
    .option('distilled', {
      type: 'boolean',
      default: false,
      describe: 'read no sources: rebuild the specs from the committed specs/definitions/*.distilled.json',
    })
    .option('check', { type: 'boolean', default: false, describe: 'write nothing; exit 1 if a file would change' })
    .option('only', { type: 'array', string: true, describe: 'definition or spec ids to import' })
    .option('evidence', {
      type: 'boolean',
      default: false,
      describe:
        'import nothing: print, per provider spec, how many rules come from a definition, recordings, reports, code and docs',
    })
    .exitProcess(false)
    .showHelpOnFail(false)
    .fail((message, error) => {
      throw error ?? new InputError('specs:import', '', message, 'see --help');
    })
    .middleware((a) => {
      helped = Boolean(a.help || a.version);
    }, true)
    .parseAsync();
  if (helped || argv.includes('--help') || argv.includes('--version')) return 0;
  if (args.evidence) {
    process.stdout.write(formatEvidence(loadProviderSpecs()));
    return 0;
  }
  const result = await runSpecsImport({
    ...(args.distilled ? {} : { from: args.from }),
    fetchMissing: !args.offline,
    check: args.check,
    ...(args.only ? { only: args.only.map(String) } : {}),
    log: (line) => process.stdout.write(`${line}\n`),
  });
  for (const path of result.changed)
    process.stdout.write(`${args.check ? 'would change' : 'wrote'}: ${path.slice(projectRoot().length + 1)}\n`);
  process.stdout.write(`${result.changed.length} changed, ${result.unchanged.length} unchanged\n`);
  return args.check && result.changed.length > 0 ? 1 : 0;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  cli(process.argv.slice(2)).then(
    (code) => (process.exitCode = code),
    (err: unknown) => {
      if (err instanceof InputError || err instanceof DefinitionImportError) {
        process.stderr.write(`specs:import: ${err.message}\n`);
        process.exitCode = 2;
      } else throw err;
    },
  );
}
