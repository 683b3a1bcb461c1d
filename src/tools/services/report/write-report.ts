import stringify from 'json-stringify-pretty-compact';
import { existsSync, mkdirSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import { assertValid, describeSchemaErrors, schemaValidator } from '../../../shared/validation/validate.js';
import { projectRoot } from '../../../shared/project-root.js';
import { writeFileAtomic } from '../../../shared/files/write-file-atomic.js';
import type { CompatibilityReport } from './compatibility-report.js';
import { renderHtml } from './render-html.js';
import { renderJunit } from './render-junit.js';
import { renderMarkdown } from './render-markdown.js';
import { InvariantError } from '../../../shared/errors/invariant-error.js';
import { readJsonFile } from '../../../shared/validation/read-json.js';
import type { FrameworksReport } from '../framework-results/frameworks-report.js';
import type { CompatCanaryFigures } from '../suites/compatcanary-figures.js';

export const REPORT_FILES = ['compatibility.json', 'compatibility.md', 'compatibility.html', 'junit.xml'] as const;

export interface WriteReportOptions {
  /**
   * The directory the HTML will be read in, for its relative links to scenarios and fixtures;
   * defaults to `outDir`. (The staleness test writes to a temp dir but renders for reports/.)
   */
  readFrom?: string;
  root?: string;
  /** Where CI publishes the HTML: the markdown's closing pointer links there. */
  htmlUrl?: string;
}

/** compatibility.json exactly as written: validated against its schema first, so a bad report is never written. */
export function renderJson(report: CompatibilityReport): string {
  const validate = schemaValidator('compatibility.schema.json');
  if (!validate(report)) {
    const { pointer, problem } = describeSchemaErrors(validate.errors ?? []);
    throw new InvariantError(
      `internal: the compatibility report breaks specs/schema/compatibility.schema.json at ${pointer}: ${problem}`,
    );
  }
  // Pretty at the top, one line per small object (a decision, a check, an exchange): readable and
  // diffable, without indenting every small object.
  return stringify(report, { maxLength: 400, indent: 2 }) + '\n';
}

/**
 * Writes the four report files. Everything is rendered before the first write, and each write is
 * atomic, so a failure leaves the previous report whole.
 */
export function writeReport(report: CompatibilityReport, outDir: string, options: WriteReportOptions = {}): string[] {
  const root = options.root ?? projectRoot();
  const linkBase = relative(resolve(options.readFrom ?? outDir), root)
    .split(sep)
    .join('/');
  const contents: Record<(typeof REPORT_FILES)[number], string> = {
    'compatibility.json': renderJson(report),
    'compatibility.md': renderMarkdown(report, options.htmlUrl ? { htmlUrl: options.htmlUrl } : {}),
    'compatibility.html': renderHtml(report, { linkBase, ...frameworksReportIn(outDir), ...compatCanaryIn(outDir) }),
    'junit.xml': renderJunit(report),
  };
  mkdirSync(outDir, { recursive: true });
  return REPORT_FILES.map((name) => {
    const file = join(outDir, name);
    writeFileAtomic(file, contents[name]);
    return file;
  });
}

/**
 * reports/frameworks.json, written by `npm run frameworks`, when it is in the report directory: the
 * HTML then carries its section. A file of another version is left out rather than misread.
 */
function frameworksReportIn(outDir: string): { frameworks?: FrameworksReport } {
  const file = join(outDir, 'frameworks.json');
  if (!existsSync(file)) return {};
  const data = readJsonFile(file) as Partial<FrameworksReport>;
  if (data.version !== 1) return {};
  return { frameworks: assertValid<FrameworksReport>(data, 'frameworks-report.schema.json', file) };
}

/**
 * reports/compatcanary.json, written (dated) by `npm run compatcanary`, when it is in the report directory: the HTML
 * then shows CompatCanary's pass/warn/fail per mock. A file of another version is left out rather than misread.
 */
function compatCanaryIn(outDir: string): { compatCanary?: CompatCanaryFigures } {
  const file = join(outDir, 'compatcanary.json');
  if (!existsSync(file)) return {};
  const data = readJsonFile(file) as Partial<CompatCanaryFigures>;
  return data.version === 1 && Array.isArray(data.mocks) ? { compatCanary: data as CompatCanaryFigures } : {};
}
