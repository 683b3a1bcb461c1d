import { assertValid } from '../../shared/validation/validate.js';
import { STANDARD_CARRIER_FIELDS, type StandardCarrierField } from '../../shared/history/history.js';
import { normalizeHost } from '../../shared/route-table/host-matching.js';
import type { RouteTarget } from '../../shared/route-table/route-table.js';

/** One stored verdict, in the seed's shape: [provider, host, model, fields refused]. */
export type VerdictEntry = [provider: string, host: string, model: string, fields: StandardCarrierField[]];

/** The key under which a session's model_config keeps the verdicts. */
export const VERDICTS_CONFIG_KEY = 'unknown_field_verdicts';

export interface VerdictKey {
  provider: string;
  host: string;
  model: string;
}

/** Provider ids compare case-insensitively and hosts as route matching sees them; model ids are exact. */
export function verdictKey(target: RouteTarget): VerdictKey {
  return { provider: target.provider.trim().toLowerCase(), host: normalizeHost(target.host), model: target.model };
}

const joinKey = (k: VerdictKey) => JSON.stringify([k.provider, k.host, k.model]);

/**
 * Carrier fields providers refused as unknown, per (provider, host, model). Kept in the session's
 * model config so a resumed session withholds them from its first request instead of meeting the
 * same 400 again. Only grows: a field is never re-tried within a session.
 */
export class UnknownFieldVerdicts {
  private readonly byKey = new Map<string, { key: VerdictKey; fields: Set<StandardCarrierField> }>();

  fieldsFor(target: RouteTarget): ReadonlySet<StandardCarrierField> {
    return this.byKey.get(joinKey(verdictKey(target)))?.fields ?? new Set();
  }

  /** Adds fields for a target; returns the ones that were not recorded before. */
  record(target: RouteTarget, fields: readonly StandardCarrierField[]): StandardCarrierField[] {
    const key = verdictKey(target);
    let entry = this.byKey.get(joinKey(key));
    if (!entry) {
      entry = { key, fields: new Set() };
      this.byKey.set(joinKey(key), entry);
    }
    const added = fields.filter((f) => !entry.fields.has(f));
    added.forEach((f) => entry.fields.add(f));
    if (entry.fields.size === 0) this.byKey.delete(joinKey(key));
    return STANDARD_CARRIER_FIELDS.filter((f) => added.includes(f));
  }

  get size(): number {
    return this.byKey.size;
  }

  /** Sorted, so the same verdicts always serialize to the same bytes. */
  entries(): VerdictEntry[] {
    return [...this.byKey.values()]
      .map(({ key, fields }): VerdictEntry => [
        key.provider,
        key.host,
        key.model,
        STANDARD_CARRIER_FIELDS.filter((f) => fields.has(f)),
      ])
      .sort((a, b) =>
        joinKey({ provider: a[0], host: a[1], model: a[2] }).localeCompare(
          joinKey({ provider: b[0], host: b[1], model: b[2] }),
        ),
      );
  }

  toJSON(): VerdictEntry[] {
    return this.entries();
  }

  clone(): UnknownFieldVerdicts {
    return UnknownFieldVerdicts.fromEntries(this.entries());
  }

  static fromEntries(entries: readonly VerdictEntry[]): UnknownFieldVerdicts {
    const verdicts = new UnknownFieldVerdicts();
    for (const [provider, host, model, fields] of entries) verdicts.record({ provider, host, model }, fields);
    return verdicts;
  }

  /** Reads the verdicts out of a session's model config (validated; `label` names it in errors). */
  static fromModelConfig(config: unknown, label = 'model_config'): UnknownFieldVerdicts {
    const checked = assertValid<Record<string, unknown>>(config ?? {}, 'model-config.schema.json', label);
    return UnknownFieldVerdicts.fromEntries((checked[VERDICTS_CONFIG_KEY] as VerdictEntry[] | undefined) ?? []);
  }

  /** A copy of `config` with these verdicts in it; other keys are kept as they are. */
  toModelConfig(config: Record<string, unknown> = {}): Record<string, unknown> {
    return { ...config, [VERDICTS_CONFIG_KEY]: this.entries() };
  }
}
