import { join } from 'node:path';
import { readJsonFile } from '../validation/read-json.js';
import { assertValid } from '../validation/validate.js';
import { specsDir } from '../project-root.js';

/** Mirrors specs/schema/sdk-base-urls.schema.json; the schema is the authority. */
export interface SdkBaseUrl {
  sdk: string;
  language: 'node' | 'python';
  providers: string[];
  variable: string | null;
  pointsAt?: string;
  hosts: string[];
  inCode?: string;
  source: string;
  notes?: string;
}

export function defaultSdkBaseUrlsFile(): string {
  return join(specsDir(), 'sdk-base-urls.json');
}

export function loadSdkBaseUrls(file: string = defaultSdkBaseUrlsFile()): SdkBaseUrl[] {
  return assertValid<{ sdks: SdkBaseUrl[] }>(readJsonFile(file), 'sdk-base-urls.schema.json', file).sdks;
}

let cached: SdkBaseUrl[] | undefined;

/** The bundled list, read once. */
export function sdkBaseUrls(): SdkBaseUrl[] {
  cached ??= loadSdkBaseUrls();
  return cached;
}

/** `*` in a data host is one DNS label (`bedrock-runtime.*.amazonaws.com`). */
export function hostPattern(host: string): RegExp {
  return new RegExp(host.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '[a-z0-9-]+'), 'i');
}
