import { defaultProvidersDir, loadProviderSpecs } from '../../../shared/provider-specs/load-provider-specs.js';
import type { ProviderSpec } from '../../../shared/provider-specs/provider-spec.js';
import { clientReport, type ClientReport } from './client-report.js';
import { readServeLog, type ServeLogEntry } from '../serve/serve-log.js';

/** The log's entries as a client report (kept under this name for callers of the first version). */
export function runFromLog(entries: ServeLogEntry[], specs: ProviderSpec[], _routesFile?: string): ClientReport {
  return clientReport(entries, specs);
}

/** `report --from-log FILE`: cells per client x provider x behaviour from what the mocks saw. */
export function reportFromLog(
  file: string,
  options: { providersDir?: string } = {},
): { report: ClientReport; entries: ServeLogEntry[]; specs: ProviderSpec[] } {
  const specs = loadProviderSpecs(options.providersDir ?? defaultProvidersDir());
  const entries = readServeLog(file);
  return { report: clientReport(entries, specs), entries, specs };
}
