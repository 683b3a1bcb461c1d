import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadProviderSpecs } from '../src/shared/provider-specs/load-provider-specs.js';
import { clientReport } from '../src/tools/services/run-report/client-report.js';
import { readServeLog, type ServeLogEntry } from '../src/tools/services/serve/serve-log.js';
import type { BenchFigure } from './figure.js';
import { round } from './timing.js';

/** A log as a busy `run` writes it: two clients, four providers, one request in seven refused. */
function logLines(n: number): string {
  const providers = ['deepseek', 'anthropic', 'gemini', 'openai'];
  const lines: string[] = [];
  for (let i = 0; i < n; i++) {
    const bad = i % 7 === 0;
    const entry: ServeLogEntry = {
      seq: i + 1,
      time: '2026-01-01T00:00:00.000Z',
      provider: providers[i % 4]!,
      route: providers[i % 4]!,
      tier: 'standard',
      family: 'openai-chat',
      scenario: 'follow-client',
      call: i % 3,
      method: 'POST',
      path: `/${providers[i % 4]}/chat/completions`,
      status: bad ? 400 : 200,
      sentFields: bad ? [] : ['reasoning_content'],
      findings: bad
        ? [
            {
              rule: 'must-echo',
              rejection: 'reasoning-content-not-passed-back',
              params: {},
              detail: 'assistant message 1 (tool call) has no reasoning_content',
            },
          ]
        : [],
      client: i % 2 ? 'agent-a/1.0' : 'agent-b/2.0',
      runId: 'rr-bench',
    };
    lines.push(JSON.stringify(entry));
  }
  return lines.join('\n') + '\n';
}

/**
 * `report --from-log` work (read + validate every line, build the client report) on a 10k and a
 * 20k-line log, best of three each. Linear means 20k costs about twice 10k; issue 12 measured 0.7 s
 * against 49 s before the grouping stopped copying arrays.
 */
export async function benchReportFromLog(): Promise<BenchFigure> {
  const dir = mkdtempSync(join(tmpdir(), 'rr-bench-log-'));
  try {
    const specs = loadProviderSpecs();
    const time = (n: number) => {
      const file = join(dir, `${n}.jsonl`);
      writeFileSync(file, logLines(n));
      let best = Infinity;
      for (let r = 0; r < 3; r++) {
        const t = process.hrtime.bigint();
        clientReport(readServeLog(file), specs);
        best = Math.min(best, Number(process.hrtime.bigint() - t) / 1e6);
      }
      return best;
    };
    time(2000);
    const small = time(10_000);
    const large = time(20_000);
    const growth = large / small;
    return {
      id: 'report-from-log',
      figure: 'report --from-log: 20k-line log vs 10k-line log (2x is linear)',
      measured: round(growth, 2),
      unit: 'x',
      goal: '<= 2.5x',
      met: growth <= 2.5,
      details: { ms10k: round(small, 1), ms20k: round(large, 1) },
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
