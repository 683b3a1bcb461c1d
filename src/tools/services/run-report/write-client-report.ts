import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomic } from '../../../shared/files/write-file-atomic.js';
import type { ClientReport } from './client-report.js';
import { renderClientJunit, renderClientMarkdown } from './render-client-report.js';
import { RUN_REPORT_HTML } from './render-run-html.js';

export const CLIENT_REPORT_FILES = ['client-report.json', 'client-report.md', 'junit.xml'] as const;

/**
 * Writes the client report's files into `outDir` (created), each atomically; returns their paths. `headline` is the
 * caller's verdict when it knows more than the requests (`run`), so the markdown says what the exit code does.
 * `html`, when given, is the readable run report (run-report.html), written beside them.
 */
export function writeClientReport(
  report: ClientReport,
  outDir: string,
  junit: string = renderClientJunit(report),
  headline?: string,
  html?: string,
): string[] {
  const contents: Record<(typeof CLIENT_REPORT_FILES)[number], string> = {
    'client-report.json': JSON.stringify(report, null, 2) + '\n',
    'client-report.md': renderClientMarkdown(report, headline),
    'junit.xml': junit,
  };
  mkdirSync(outDir, { recursive: true });
  const written = CLIENT_REPORT_FILES.map((name) => {
    const file = join(outDir, name);
    writeFileAtomic(file, contents[name]);
    return file;
  });
  if (html !== undefined) {
    const file = join(outDir, RUN_REPORT_HTML);
    writeFileAtomic(file, html);
    written.push(file);
  }
  return written;
}
