import { InputError } from '../../../shared/errors/input-error.js';
import type { ProviderSpec } from '../../../shared/provider-specs/provider-spec.js';
import { readApiKey, secretValues } from '../../services/recorder/api-key.js';
import { authHeaders } from '../../services/recorder/auth-headers.js';
import { bedrockSigning } from '../../services/recorder/bedrock-signing.js';
import { parseBaseUrl } from '../../services/recorder/live-target.js';
import type { SecretValue } from '../../services/recorder/redact.js';
import { limitsFor, type LiveLimits, type ResolvedLimits } from './live-limits.js';

/** One provider as a live run reaches it. */
export interface LiveProvider {
  /** The spec, its base URL replaced by --base-url when one was given. */
  spec: ProviderSpec;
  limits: ResolvedLimits;
  /** True when --base-url named this provider. */
  overridden: boolean;
  keyEnv?: string;
  /** Headers that carry the credential (never printed or stored). */
  auth: Record<string, string>;
  /** Fetch for this provider (SigV4-signing for Bedrock without a key). */
  fetch?: typeof fetch;
  /** Why nothing is sent to it in this run; undefined when it is reachable. */
  unavailable?: string;
  /** Reachable except that its key is not set: a dry run still plans it. */
  missingKey?: boolean;
}

/** `--base-url P=URL` values, by provider id. Only this flag moves a provider off its public endpoint. */
export function parseBaseUrls(values: readonly string[], known: ReadonlySet<string>): Map<string, string> {
  const out = new Map<string, string>();
  for (const value of values) {
    const eq = value.indexOf('=');
    const id = eq > 0 ? value.slice(0, eq) : '';
    if (!known.has(id))
      throw new InputError(
        '--base-url',
        '',
        `"${id || value}" is not a provider spec id`,
        'write --base-url <provider>=<url>, e.g. --base-url deepseek=https://api.deepseek.com',
      );
    out.set(
      id,
      parseBaseUrl(value.slice(eq + 1))
        .toString()
        .replace(/\/$/, ''),
    );
  }
  return out;
}

/**
 * How each provider is reached: its public base URL (or the one --base-url gives), its key from
 * its usual environment variable (the spec's secretEnv, or live-limits' keyEnv), and whatever
 * makes it unreachable in this run. Keys are only ever headers: never printed, never stored.
 */
export function resolveLiveProviders(
  specs: readonly ProviderSpec[],
  limits: LiveLimits,
  baseUrls: ReadonlyMap<string, string>,
  env: NodeJS.ProcessEnv = process.env,
): { providers: LiveProvider[]; secrets: SecretValue[] } {
  const secrets: SecretValue[] = [];
  const providers = specs.map((original): LiveProvider => {
    const own = limitsFor(limits, original);
    const override = baseUrls.get(original.id);
    const spec: ProviderSpec = override
      ? { ...original, endpoint: { ...original.endpoint, baseUrl: override } }
      : original;
    const keyEnv = own.keyEnv ?? original.secretEnv;
    const base = { spec, limits: own, overridden: override !== undefined, ...(keyEnv ? { keyEnv } : {}), auth: {} };
    if (own.unavailable) return { ...base, unavailable: own.unavailable };
    if (own.baseUrl === 'yours' && !override)
      return { ...base, unavailable: `its spec's base URL stands for yours: give --base-url ${original.id}=<url>` };
    const key = readApiKey(keyEnv, env);
    for (const s of secretValues(key, [original.secretEnv], env))
      if (!secrets.some((x) => x.value === s.value)) secrets.push(s);
    const host = new URL(spec.endpoint.baseUrl).host;
    let signing: ReturnType<typeof bedrockSigning>;
    try {
      signing = bedrockSigning(spec.family, key.value, host, env);
    } catch {
      return {
        ...base,
        unavailable: `no Bedrock credentials: set ${keyEnv} or the AWS access key variables`,
        missingKey: true,
      };
    }
    for (const s of signing?.secrets ?? []) if (!secrets.some((x) => x.value === s.value)) secrets.push(s);
    // A self-hosted server's spec names no key variable: it is reached without one.
    if (keyEnv && !key.value && !signing) return { ...base, unavailable: `${keyEnv} is not set`, missingKey: true };
    return {
      ...base,
      auth: authHeaders(spec.family, key.value, host),
      ...(signing ? { fetch: signing.fetch } : {}),
    };
  });
  return { providers, secrets };
}
