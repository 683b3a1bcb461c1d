import { describe, expect, it } from 'vitest';
import type { RouteDefinition } from '../../../../shared/route-table/route-table.js';
import { classifyProbe, diffRoute, suggestRow } from './classify-probe.js';
import type { ProbeOutcome, ProbeVariant } from './probe-route.js';

const ok = (variant: ProbeVariant): ProbeOutcome => ({
  variant,
  status: 200,
  accepted: true,
  unknownField: null,
  sent: variant === 'none' ? [] : [variant],
});
const unknown = (variant: ProbeVariant): ProbeOutcome => ({
  variant,
  status: 422,
  accepted: false,
  wording: 'Extra inputs are not permitted',
  unknownField: ['reasoning_content'],
  sent: [],
});
const refused = (variant: ProbeVariant, status = 400): ProbeOutcome => ({
  variant,
  status,
  accepted: false,
  wording: 'must be passed back',
  unknownField: null,
  sent: [],
});

const defaultRoute: RouteDefinition = {
  id: 'default',
  label: 'd',
  match: { default: true },
  family: 'openai-chat',
  tier: 'standard',
  fields: ['reasoning_content'],
};
const acme: RouteDefinition = {
  id: 'acme',
  label: 'Acme',
  match: { providers: ['acme'] },
  family: 'openai-chat',
  tier: 'standard',
  fields: ['reasoning_content', 'reasoning'],
  flags: [{ set: { thinking: { type: 'enabled' } } }],
};
const target = { provider: 'acme', host: 'api.acme.test', model: 'm' };

describe('classifyProbe', () => {
  it('must-echo: refused without reasoning_content, accepted with it', () => {
    const c = classifyProbe([
      ok('reasoning_content'),
      refused('reasoning'),
      refused('reasoning_details'),
      refused('none'),
    ]);
    expect(c.tier).toBe('must-echo');
    expect(c.accepted).toEqual(['reasoning_content']);
  });

  it('strict: the bare turn passes, every carrier is refused as unknown', () => {
    const c = classifyProbe([
      unknown('reasoning_content'),
      unknown('reasoning'),
      unknown('reasoning_details'),
      ok('none'),
    ]);
    expect(c.tier).toBe('strict');
    expect(c.rejectedAsUnknown).toEqual(['reasoning_content', 'reasoning', 'reasoning_details']);
  });

  it('standard: some carrier accepted; refused ones are listed', () => {
    const c = classifyProbe([ok('reasoning_content'), unknown('reasoning'), ok('reasoning_details'), ok('none')]);
    expect(c).toMatchObject({
      tier: 'standard',
      accepted: ['reasoning_content', 'reasoning_details'],
      rejectedAsUnknown: ['reasoning'],
    });
  });

  it('inconclusive when everything is refused (a bad key looks like this)', () => {
    const c = classifyProbe(
      ['reasoning_content', 'reasoning', 'reasoning_details', 'none'].map((v) => refused(v as ProbeVariant, 401)),
    );
    expect(c.tier).toBe('inconclusive');
    expect(suggestRow(c, acme, target, 'openai-chat', '')).toBeUndefined();
  });
});

describe('suggestRow and diffRoute', () => {
  it('agrees with a correct own row, keeping its flags, and lists extra accepted fields apart', () => {
    const s = suggestRow(
      classifyProbe([ok('reasoning_content'), ok('reasoning'), ok('reasoning_details'), ok('none')]),
      acme,
      target,
      'openai-chat',
      'probed',
    )!;
    expect(s.row).toMatchObject({
      id: 'acme',
      tier: 'standard',
      fields: ['reasoning_content', 'reasoning'],
      flags: acme.flags,
    });
    expect(s.alsoAccepted).toEqual(['reasoning_details']);
    expect(diffRoute(acme, s)).toEqual([]);
  });

  it('drops a field the endpoint now refuses: the route went stale', () => {
    const s = suggestRow(
      classifyProbe([ok('reasoning_content'), unknown('reasoning'), ok('reasoning_details'), ok('none')]),
      acme,
      target,
      'openai-chat',
      'probed',
    )!;
    expect(diffRoute(acme, s)).toEqual(['fields: - reasoning']);
  });

  it('proposes a new row when the target falls to the shared default and disagrees with it', () => {
    const s = suggestRow(
      classifyProbe([ok('reasoning_content'), refused('reasoning'), refused('reasoning_details'), refused('none')]),
      defaultRoute,
      target,
      'openai-chat',
      'probed',
    )!;
    expect(s.replacesCurrent).toBe(false);
    expect(s.row).toMatchObject({
      id: 'acme',
      match: { providers: ['acme'], hosts: ['api.acme.test'] },
      tier: 'must-echo',
      fields: ['reasoning_content'],
    });
    expect(diffRoute(defaultRoute, s)).toEqual([
      'new row "acme" before "default" (the target now falls to the shared route "default")',
      'tier: standard -> must-echo',
    ]);
  });
});
