import { describe, expect, it } from 'vitest';
import { InputError } from '../errors/input-error.js';
import { checkProviderSpec, defaultProvidersDir, loadProviderSpecs } from './load-provider-specs.js';
import { lintProviderSpec, lintProviderSpecSet } from './lint-provider-spec.js';
import type { ProviderSpec } from './provider-spec.js';

const specs = loadProviderSpecs();
const deepseek = () => structuredClone(specs.find((s) => s.id === 'deepseek')!) as ProviderSpec;
const mistral = () => structuredClone(specs.find((s) => s.id === 'mistral')!) as ProviderSpec;

/** The loader's verdict on a spec: the InputError it throws, or undefined when it loads. */
function loadError(spec: ProviderSpec): InputError | undefined {
  try {
    checkProviderSpec(spec, `${defaultProvidersDir()}/${spec.id}.json`);
    return undefined;
  } catch (err) {
    if (err instanceof InputError) return err;
    throw err;
  }
}

describe('the provider spec lint', () => {
  it('passes every bundled spec, and the set (every upstream a gateway names exists)', () => {
    for (const s of specs) expect(lintProviderSpec(s), s.id).toEqual([]);
    expect(lintProviderSpecSet(specs)).toEqual([]);
  });

  it('fails a rejection that cites no source, naming the file and pointer', () => {
    const s = deepseek();
    s.rejections['reasoning-content-not-passed-back']!.sources = [];
    const err = loadError(s);
    expect(err?.pointer).toBe('/rejections/reasoning-content-not-passed-back/sources');
  });

  it('fails an unknown member worded by a rejection that is not defined', () => {
    const s = deepseek();
    s.request.unknownMemberRejections = { 'a/b': 'no-such-rejection' };
    expect(lintProviderSpec(s).map((p) => p.pointer)).toContain('/request/unknownMemberRejections/a~1b');
  });

  it('fails a rejection in a model variant that cites no source', () => {
    const s = deepseek();
    s.models!.variants![0]!.rejections = { x: { status: 400, body: {}, wording: 'unknown', sources: [] } };
    expect(lintProviderSpec(s).map((p) => p.pointer)).toContain('/models/variants/0/rejections/x/sources');
  });

  it('fails a closed schema that no unknown-field rejection backs with a source', () => {
    const s = mistral();
    delete s.request.unknownFieldRejection;
    delete s.request.unknownTopLevelRejection;
    for (const r of Object.values(s.rejections)) delete r.kind;
    expect(lintProviderSpec(s).map((p) => p.pointer)).toContain('/request/schema');
  });

  it('fails a placeholder no mock fills, a contested rule without the other side, a required echo without a source', () => {
    const s = deepseek();
    s.rejections['reasoning-content-not-passed-back']!.body = { error: { message: 'messages.{idx}' } };
    s.echo[1]!.contested = { notes: 'x', sources: [s.echo[1]!.source!] };
    delete s.echo[0]!.source;
    const pointers = lintProviderSpec(s).map((p) => p.pointer);
    expect(pointers).toEqual(
      expect.arrayContaining([
        '/rejections/reasoning-content-not-passed-back/body',
        '/echo/1/contested/sources',
        '/echo/0/source',
      ]),
    );
  });

  it('fails a message rule naming no defined rejection, or contested by its own sources, in a spec and in a model variant', () => {
    const s = structuredClone(specs.find((x) => x.id === 'zhipu-glm')!) as ProviderSpec;
    const own = s.rejections['content-and-tool-calls-empty']!.sources;
    s.messageRules = [
      { rejection: 'no-such-rejection', fields: { empty: ['content'] } },
      {
        rejection: 'content-and-tool-calls-empty',
        fields: { empty: ['content'] },
        contested: { notes: 'x', sources: [own[0]!] },
      },
    ];
    s.models = {
      variants: [
        {
          match: 'glm-4',
          label: 'GLM-4',
          sources: own,
          messageRules: [{ rejection: 'missing', jsonString: { path: 'x' } }],
        },
      ],
    };
    const pointers = lintProviderSpec(s).map((p) => p.pointer);
    expect(pointers).toEqual(
      expect.arrayContaining([
        '/messageRules/0/rejection',
        '/messageRules/1/contested/sources',
        '/models/variants/0/messageRules/0/rejection',
      ]),
    );
  });

  it('fails a gateway whose upstream is not a spec of the set', () => {
    const gateway = structuredClone(specs.find((s) => s.id === 'openrouter')!) as ProviderSpec;
    gateway.upstreams![0]!.provider = 'no-such-provider';
    expect(lintProviderSpecSet([gateway])[0]).toMatchObject({ id: 'openrouter', pointer: '/upstreams/0/provider' });
  });
});
