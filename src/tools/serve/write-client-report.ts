import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomic } from '../../shared/files/write-file-atomic.js';
import type { ClientReport } from './client-report.js';
import { renderClientJunit, renderClientMarkdown } from './render-client-report.js';

export const CLIENT_REPORT_FILES = ['client-report.json', 'client-report.md', 'junit.xml'] as const;

/**
 * Writes the client report's files into `outDir` (created), each atomically; returns their paths. `headline` is the
 * caller's verdict when it knows more than the requests (`run`), so the markdown says what the exit code does.
 */
export function writeClientReport(
  report: ClientReport,
  outDir: string,
  junit: string = renderClientJunit(report),
  headline?: string,
): string[] {
  const contents: Record<(typeof CLIENT_REPORT_FILES)[number], string> = {
    'client-report.json': JSON.stringify(report, null, 2) + '\n',
    'client-report.md': renderClientMarkdown(report, headline),
    'junit.xml': junit,
  };
  mkdirSync(outDir, { recursive: true });
  return CLIENT_REPORT_FILES.map((name) => {
    const file = join(outDir, name);
    writeFileAtomic(file, contents[name]);
    return file;
  });
}
