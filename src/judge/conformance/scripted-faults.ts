import type { SendRequest } from '../engine-under-test.js';
import { ScenarioError } from '../../shared/errors/scenario-error.js';
import { isPlainObject } from '../../shared/objects/deep-merge.js';
import type { ProviderSpec } from '../../shared/provider-specs/provider-spec.js';
import type { ScriptedFault } from '../../shared/scenarios/scenario.js';
import type { ExchangeResponse } from '../../shared/transport/transport.js';

type Params = Record<string, string | number>;

function fill(value: unknown, params: Params): unknown {
  if (typeof value === 'string')
    return value.replace(/\{(\w+)\}/g, (m, k: string) => (params[k] !== undefined ? String(params[k]) : m));
  if (Array.isArray(value)) return value.map((v) => fill(v, params));
  if (isPlainObject(value)) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, fill(v, params)]));
  return value;
}

/**
 * The answer a scripted fault stands for: a provider spec's rejection (its real status and wording,
 * placeholders filled from the scenario's params), or the scenario's own answer where no public
 * source shows the wording (marked wording "unknown").
 */
export function faultAnswer(fault: ScriptedFault, specs: ReadonlyMap<string, ProviderSpec>): ExchangeResponse {
  if ('status' in fault)
    return { status: fault.status, headers: { 'content-type': 'application/json' }, body: fault.body };
  const spec = specs.get(fault.rejection.provider);
  const rejection = spec?.rejections[fault.rejection.id];
  if (!rejection)
    throw new ScenarioError(
      `fault ${fault.rejection.provider}/${fault.rejection.id}: no such rejection in specs/providers/${fault.rejection.provider}.json`,
    );
  return {
    status: rejection.status,
    headers: { 'content-type': 'application/json', ...(rejection.headers ?? {}) },
    body: fill(rejection.body, fault.rejection.params ?? {}),
  };
}

/** Which attempts of a call were answered by a fault rather than by the provider. */
export interface FaultedSend {
  send: SendRequest;
  /** The responses that were faults (by identity), to tell them from the provider's own. */
  injected: ReadonlySet<ExchangeResponse>;
}

/** `send`, except that the first attempts of the call get the scripted faults, in order. */
export function withFaults(
  send: SendRequest,
  faults: readonly ScriptedFault[] | undefined,
  specs: ReadonlyMap<string, ProviderSpec>,
): FaultedSend {
  const injected = new Set<ExchangeResponse>();
  if (!faults || faults.length === 0) return { send, injected };
  let attempt = 0;
  return {
    injected,
    send: async (request) => {
      const fault = faults[attempt++];
      if (!fault) return send(request);
      const answer = faultAnswer(fault, specs);
      injected.add(answer);
      return answer;
    },
  };
}
