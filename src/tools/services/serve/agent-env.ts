import type { ProviderSpec } from '../../../shared/provider-specs/provider-spec.js';
import { sdkBaseUrls } from '../../../shared/sdk-base-urls/sdk-base-urls.js';

/** What `run` puts in the key variables: SDK constructors that insist on a key get one, and a real key never leaves. */
export const MOCK_API_KEY = 'rr-mock-key-not-a-secret';

/**
 * The environment variables SDKs read their base URL from that `run` sets, the mock each points at
 * (`<serve URL>/<provider id>`) and the SDKs that read it: specs/sdk-base-urls.json, rows with `pointsAt`. A path is
 * only pointed at where that SDK's default request path, appended to it, lands on the provider's mock (serve also
 * forgives a repeated `/v1` or `/v1beta`).
 */
export const SDK_BASE_URL_VARIABLES: ReadonlyArray<{ variable: string; provider: string; readBy: string }> = (() => {
  const byVariable = new Map<string, { variable: string; provider: string; readBy: string[] }>();
  for (const row of sdkBaseUrls()) {
    if (!row.variable || !row.pointsAt) continue;
    const known = byVariable.get(row.variable) ?? { variable: row.variable, provider: row.pointsAt, readBy: [] };
    known.readBy.push(row.language === 'python' ? `${row.sdk} (Python)` : row.sdk);
    byVariable.set(row.variable, known);
  }
  return [...byVariable.values()].map((v) => ({ ...v, readBy: v.readBy.join(', ') }));
})();

/** Key variables SDKs refuse to start without; each gets MOCK_API_KEY. */
const KEY_VARIABLES = [
  'OPENAI_API_KEY',
  'ANTHROPIC_API_KEY',
  'GEMINI_API_KEY',
  'GOOGLE_API_KEY',
  'GOOGLE_GENERATIVE_AI_API_KEY',
  // A Bedrock API key: the AWS SDKs then authenticate with it instead of looking for AWS credentials
  // (https://docs.aws.amazon.com/bedrock/latest/userguide/api-keys-use.html).
  'AWS_BEARER_TOKEN_BEDROCK',
];

/** `vercel-ai-gateway` -> `VERCEL_AI_GATEWAY`: the per-provider variable stem. */
export const envStem = (id: string): string => id.toUpperCase().replace(/[^A-Z0-9]+/g, '_');

export interface AgentEnvOptions {
  url: string;
  specs: readonly ProviderSpec[];
  runId: string;
  scenario?: string;
}

/**
 * The variables `run` adds to the agent's environment (documented in docs/judge-your-agent.md):
 * the SDKs' own base-URL variables, REASONING_REPLAY_URL, REASONING_REPLAY_PROVIDERS (a JSON map
 * provider id -> base URL), one REASONING_REPLAY_<ID>_BASE_URL per provider, the run id and the
 * scenario, and a placeholder for every provider's key variable.
 */
export function agentEnv(options: AgentEnvOptions): Record<string, string> {
  const base = (id: string) => `${options.url}/${id}`;
  const ids = new Set(options.specs.map((s) => s.id));
  const env: Record<string, string> = {
    REASONING_REPLAY_URL: options.url,
    REASONING_REPLAY_RUN_ID: options.runId,
    REASONING_REPLAY_PROVIDERS: JSON.stringify(Object.fromEntries(options.specs.map((s) => [s.id, base(s.id)]))),
  };
  if (options.scenario) env.REASONING_REPLAY_SCENARIO = options.scenario;
  for (const { variable, provider } of SDK_BASE_URL_VARIABLES) if (ids.has(provider)) env[variable] = base(provider);
  for (const spec of options.specs) {
    env[`REASONING_REPLAY_${envStem(spec.id)}_BASE_URL`] = base(spec.id);
    env[`${envStem(spec.id)}_API_KEY`] = MOCK_API_KEY;
  }
  for (const key of KEY_VARIABLES) env[key] = MOCK_API_KEY;
  return env;
}
