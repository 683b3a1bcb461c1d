import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { InputError } from '../../../shared/errors/input-error.js';
import { redactText, redactUrl } from './redact.js';
import { defaultProvidersDir, loadProviderSpec } from '../../../shared/provider-specs/load-provider-specs.js';
import type { ProviderSpec } from '../../../shared/provider-specs/provider-spec.js';
import { findRoute, resolveRoute } from '../../../shared/route-table/resolve-route.js';
import type {
  FamilyId,
  RouteDefinition,
  RoutePolicy,
  RouteTable,
  RouteTarget,
} from '../../../shared/route-table/route-table.js';

/** A live endpoint as `record` and `probe` see it: the user's base URL, routed as real traffic would be. */
export interface LiveTarget {
  /** The provider spec named by --provider, when specs/providers/<id>.json exists. */
  spec?: ProviderSpec;
  /** The id fixtures are filed under: the spec id, or --provider as given. */
  id: string;
  baseUrl: string;
  target: RouteTarget;
  family: FamilyId;
  route: RouteDefinition;
  policy: RoutePolicy;
}

export interface LiveTargetArgs {
  provider: string;
  baseUrl: string;
  model: string;
  family?: FamilyId;
  table: RouteTable;
  providersDir?: string;
}

export function parseBaseUrl(value: string): URL {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new InputError(
      '--base-url',
      '',
      `"${redactText(value)}" is not a URL`,
      'give the base URL a client is configured with, e.g. https://api.deepseek.com',
    );
  }
  // fetch refuses credentials in a URL, and a fixture or a printed line must never carry them.
  if (url.username || url.password) {
    throw new InputError(
      '--base-url',
      '',
      `"${redactUrl(value)}" carries credentials (user:password@)`,
      'drop them from the URL and put the key in the environment variable (--api-key-env); nothing was sent',
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new InputError('--base-url', '', `"${url.protocol}" is not http or https`);
  return url;
}

/**
 * --provider names a spec (specs/providers/<id>.json) when one exists: its routing provider id,
 * family and key variable apply. Otherwise it is taken as the routing provider id itself, so any
 * endpoint can be probed or recorded before anyone has written a spec for it.
 */
export function resolveLiveTarget(args: LiveTargetArgs): LiveTarget {
  const url = parseBaseUrl(args.baseUrl);
  const file = join(args.providersDir ?? defaultProvidersDir(), `${args.provider}.json`);
  const spec = /^[a-z0-9][a-z0-9-]*$/.test(args.provider) && existsSync(file) ? loadProviderSpec(file) : undefined;
  const target: RouteTarget = { provider: spec?.target.provider ?? args.provider, host: url.host, model: args.model };
  const route = findRoute(args.table, target);
  const policy = resolveRoute(args.table, target);
  const family = args.family ?? spec?.family ?? route.family;
  policy.family = family;
  return {
    ...(spec ? { spec } : {}),
    id: spec?.id ?? args.provider,
    baseUrl: args.baseUrl,
    target,
    family,
    route,
    policy,
  };
}
