import { join } from 'node:path';
import { readJsonFile } from '../../shared/validation/read-json.js';
import { assertValid } from '../../shared/validation/validate.js';
import type { StandardCarrierField } from '../../shared/history/history.js';
import { specsDir } from '../../shared/project-root.js';

/** Mirrors specs/schema/unknown-field-phrasings.schema.json; the schema is the authority. */
export interface PhrasingExample {
  provider?: string;
  status?: number;
  text: string;
  source: string;
  namesCarrier?: StandardCarrierField;
}

export interface UnknownFieldPhrasing {
  match: string;
  origin: 'public-example' | 'seed-list';
  examples: PhrasingExample[];
  notes?: string;
}

export interface NotARejection {
  provider?: string;
  status?: number;
  text: string;
  source: string;
  why: string;
}

export interface UnknownFieldPhrasings {
  version: 1;
  phrasings: UnknownFieldPhrasing[];
  notRejections: NotARejection[];
}

export function defaultPhrasingsFile(): string {
  return join(specsDir(), 'unknown-field-phrasings.json');
}

export function loadUnknownFieldPhrasings(file: string = defaultPhrasingsFile()): UnknownFieldPhrasings {
  return assertValid<UnknownFieldPhrasings>(readJsonFile(file), 'unknown-field-phrasings.schema.json', file);
}

let cached: UnknownFieldPhrasings | undefined;

/** The project's own list, read once: detection runs on every provider error. */
export function defaultUnknownFieldPhrasings(): UnknownFieldPhrasings {
  cached ??= loadUnknownFieldPhrasings();
  return cached;
}
