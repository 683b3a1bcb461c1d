import type { FamilyId } from '../routes/route-table.js';

/** Types mirroring specs/schema/provider.schema.json (the schema is the authority). */
export interface Rejection {
  status: number;
  headers?: Record<string, string>;
  body: unknown;
  wording: 'verbatim' | 'unknown';
  kind?: 'unknown-field' | 'missing-reasoning' | 'invalid-signature' | 'modified-reasoning' | 'missing-signature' | 'invalid-request';
  sources: string[];
  notes?: string;
}

export interface EchoRule {
  field: string;
  turns: 'tool-call-turns' | 'assistant-turns';
  level: 'required' | 'recommended';
  allowEmpty?: boolean;
  rejection?: string;
  source?: string;
  notes?: string;
}

export interface ProviderSpec {
  id: string;
  label: string;
  family: FamilyId;
  endpoint: { baseUrl: string; path: string; streamPath?: string };
  target: { provider: string; model: string };
  request: { schema: Record<string, unknown>; unknownFieldRejection?: string; unknownTopLevelRejection?: string; invalidRejection?: string };
  echo: EchoRule[];
  rejections: Record<string, Rejection>;
  response: { carriers: string[]; detailFormat?: string; sources?: string[] };
  secretEnv?: string;
  sources: string[];
  notes?: string;
}

/** The host route matching sees for this provider: the base URL's. */
export function specHost(spec: ProviderSpec): string {
  return new URL(spec.endpoint.baseUrl).host;
}

/** The full URL of a request path for this provider, with `{model}` filled in. */
export function specUrl(spec: ProviderSpec, model: string, stream = false): string {
  const path = (stream && spec.endpoint.streamPath ? spec.endpoint.streamPath : spec.endpoint.path).replaceAll('{model}', encodeURIComponent(model));
  return spec.endpoint.baseUrl.replace(/\/$/, '') + path;
}
