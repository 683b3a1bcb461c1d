import { join } from 'node:path';
import { specsDir } from '../project-root.js';
import { readJsonFile } from '../validation/read-json.js';
import { assertValid } from '../validation/validate.js';
import { InputError } from '../errors/input-error.js';
import type { FamilyId } from '../wire/families.js';

/** Types mirroring specs/schema/faults.schema.json (the schema is the authority). */
export type CutPoint = 'before-signature' | 'mid-signature' | 'after-signature' | 'before-tool-call';
/** How a cut stream ends: the connection dropped (default), or the body ended in good order, its closing events missing. */
export type CutEnding = 'connection-drop' | 'clean-end';

export type FaultInjection =
  | { kind: 'stream-cut'; at: CutPoint; ends?: CutEnding }
  | {
      kind: 'http-error';
      status: number;
      headers: Record<string, string>;
      at: 'tool-result-turn';
      bodies: Record<string, unknown>;
    }
  | { kind: 'upstream-switch' }
  | { kind: 'model-fallback'; models: Partial<Record<FamilyId, string>> }
  | { kind: 'bound-block-dropped' };

export type FaultDamage =
  | 'truncated-signature'
  | 'empty-signature'
  | 'partial-thinking'
  | 'orphan-reasoning'
  | 'foreign-signature'
  | 'same-history-resubmitted'
  | 'retry-loop'
  | 'early-retry'
  | 'dropped-carrier'
  | 'dropped-block-resent'
  | 'no-recovery';

export interface FaultSource {
  url: string;
  dated?: string;
  read: string;
  says: string;
}

export interface Fault {
  name: string;
  summary: string;
  families: FamilyId[];
  providers?: string[];
  inject: FaultInjection;
  damage: FaultDamage[];
  nextStep: string;
  recovery:
    'retry-same-request' | 'strip-and-retry-once' | 'stand-in-signature' | 'keep-carriers' | 'drop-reported-block';
  maxRetries?: number;
  sources: FaultSource[];
  refusal?: { text: string; url: string };
}

export interface FaultCatalogue {
  faults: Fault[];
  notListed?: Array<{ name: string; why: string }>;
}

/** Whether a fault can fire on a provider: its wire family is one of the fault's, and the fault names no providers or this one. */
export const faultApplies = (fault: Fault, family: FamilyId, provider: string): boolean =>
  fault.families.includes(family) && (!fault.providers || fault.providers.includes(provider));

/** Identical resends after a fault beyond which an agent is looping, when the fault names none (SDKs retry twice). */
export const DEFAULT_MAX_RETRIES = 3;

export function defaultFaultsFile(): string {
  return join(specsDir(), 'faults.json');
}

let bundled: FaultCatalogue | undefined;

/** specs/faults.json (or another file), validated against its schema; a bad file is exit 2 naming the pointer. */
export function loadFaultCatalogue(file?: string): FaultCatalogue {
  if (file === undefined && bundled) return bundled;
  const path = file ?? defaultFaultsFile();
  const catalogue = assertValid<FaultCatalogue>(readJsonFile(path), 'faults.schema.json', path);
  const seen = new Set<string>();
  catalogue.faults.forEach((fault, i) => {
    if (seen.has(fault.name))
      throw new InputError(
        path,
        `/faults/${i}/name`,
        `fault "${fault.name}" is named twice`,
        'give each fault its own name',
      );
    seen.add(fault.name);
  });
  if (file === undefined) bundled = catalogue;
  return catalogue;
}

/**
 * The faults a `--faults` list names (comma-separated, or `all`), in catalogue order. An unknown name is bad input
 * listing the names there are.
 */
export function selectFaults(
  list: string | readonly string[],
  catalogue: FaultCatalogue = loadFaultCatalogue(),
): Fault[] {
  const names = (typeof list === 'string' ? list.split(',') : [...list]).map((n) => n.trim()).filter((n) => n !== '');
  if (names.includes('all')) return [...catalogue.faults];
  const byName = new Map(catalogue.faults.map((f) => [f.name, f]));
  for (const name of names) {
    if (!byName.has(name))
      throw new InputError(
        '--faults',
        '',
        `no fault "${name}"`,
        `one of ${catalogue.faults.map((f) => f.name).join(', ')} (specs/faults.json), or all`,
      );
  }
  return catalogue.faults.filter((f) => names.includes(f.name));
}
