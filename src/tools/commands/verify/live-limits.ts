import { join } from 'node:path';
import { specsDir } from '../../../shared/project-root.js';
import type { ProviderSpec } from '../../../shared/provider-specs/provider-spec.js';
import { readJsonFile } from '../../../shared/validation/read-json.js';
import { assertValid } from '../../../shared/validation/validate.js';

/** Types mirroring specs/schema/live-limits.schema.json (the schema is the authority). */
export interface OutputCap {
  /** JSON pointer of the cap in the request body. */
  field: string;
  min: number;
  required?: boolean;
  budgets?: string[];
  /** The least thinking budget the provider takes: scenario calls are lowered to it. */
  minBudget?: number;
  setup: number;
  sources: string[];
  notes?: string;
}

export interface ProviderLimits {
  cap?: OutputCap;
  keyEnv?: string;
  baseUrl?: 'yours';
  unavailable?: string;
  sources?: string[];
  notes?: string;
}

export interface LiveLimits {
  families: Record<string, OutputCap>;
  providers?: Record<string, ProviderLimits>;
}

export function defaultLimitsFile(): string {
  return join(specsDir(), 'live-limits.json');
}

export function loadLiveLimits(file: string = defaultLimitsFile()): LiveLimits {
  return assertValid<LiveLimits>(readJsonFile(file), 'live-limits.schema.json', file);
}

/** What verify needs to know of one provider: its cap, and how it is reached. */
export interface ResolvedLimits extends Omit<ProviderLimits, 'cap'> {
  cap?: OutputCap;
}

export function limitsFor(limits: LiveLimits, spec: ProviderSpec): ResolvedLimits {
  const own = limits.providers?.[spec.id] ?? {};
  const cap = own.cap ?? limits.families[spec.family];
  return { ...own, ...(cap ? { cap } : {}) };
}
