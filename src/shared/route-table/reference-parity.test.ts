import { describe, expect, it } from 'vitest';
import { isLocalHost } from './host-matching.js';
import { loadRouteTable } from './load-route-table.js';
import { resolveRoute } from './resolve-route.js';

/**
 * The reference implementation's routing (reference/seed-implementation-facts.md), written as data
 * on its own, side by side with the bundled table on a grid of provider / host / model tuples.
 * Every cell where they differ must fall under a difference the README documents ("Where the route
 * table differs from the reference"); the test prints the tally.
 */
type Field = 'reasoning_content' | 'reasoning' | 'reasoning_details';
const RC: Field[] = ['reasoning_content'];
const REFERENCE_ROWS: { providers: string[]; hosts: string[]; fields: Field[]; strict?: true }[] = [
  {
    providers: ['mistral', 'groq', 'cerebras', 'sambanova'],
    hosts: ['mistral.ai', 'groq.com', 'cerebras.ai', 'sambanova.ai', 'hunyuan.cloud.tencent.com'],
    fields: [],
    strict: true,
  },
  { providers: ['fireworks'], hosts: ['fireworks.ai'], fields: RC },
  {
    providers: ['openrouter', 'kilocode', 'ai-gateway', 'nous'],
    hosts: ['openrouter.ai', 'kilo.ai', 'ai-gateway.vercel.sh', 'nousresearch.com'],
    fields: ['reasoning_content', 'reasoning', 'reasoning_details'],
  },
  {
    providers: ['novita', 'tencent-tokenhub', 'minimax', 'minimax-cn'],
    hosts: [
      'novita.ai',
      'tokenhub.tencentmaas.com',
      'tokenhub-intl.tencentcloudmaas.com',
      'minimax.io',
      'minimaxi.com',
    ],
    fields: ['reasoning_content', 'reasoning_details'],
  },
  {
    providers: ['ollama-cloud', 'custom', 'lmstudio', 'upstage'],
    hosts: ['ollama.com', 'upstage.ai'],
    fields: ['reasoning_content', 'reasoning'],
  },
];
const under = (host: string, h: string) => host === h || host.endsWith(`.${h}`);
/** The reference's notion of local: localhost, 127.x, private LAN. */
const referenceLocal = (host: string) =>
  host === 'localhost' ||
  /^127\./.test(host) ||
  /^10\./.test(host) ||
  /^192\.168\./.test(host) ||
  /^172\.(1[6-9]|2\d|3[01])\./.test(host);

function reference(provider: string, host: string, model: string): { fields: Field[]; tier: string } {
  const row = REFERENCE_ROWS.find((r) => r.providers.includes(provider) || r.hosts.some((h) => under(host, h)));
  const fields = row ? row.fields : referenceLocal(host) ? (['reasoning_content', 'reasoning'] as Field[]) : RC;
  if (row?.strict) return { fields, tier: 'strict' };
  const m = model.toLowerCase();
  const mustEcho =
    ['kimi-coding', 'kimi-coding-cn'].includes(provider) ||
    ['api.kimi.com', 'moonshot.ai', 'moonshot.cn'].some((h) => under(host, h)) ||
    provider === 'deepseek' ||
    m.includes('deepseek') ||
    under(host, 'api.deepseek.com') ||
    provider === 'xiaomi' ||
    m.includes('mimo') ||
    under(host, 'xiaomimimo.com');
  return { fields, tier: mustEcho ? 'must-echo' : 'standard' };
}

const TARGETS: [string, string][] = [
  ['openrouter', 'openrouter.ai'],
  ['kilocode', 'api.kilo.ai'],
  ['ai-gateway', 'ai-gateway.vercel.sh'],
  ['nous', 'inference-api.nousresearch.com'],
  ['fireworks', 'api.fireworks.ai'],
  ['novita', 'api.novita.ai'],
  ['minimax', 'api.minimax.io'],
  ['tencent-tokenhub', 'tokenhub.tencentmaas.com'],
  ['ollama-cloud', 'ollama.com'],
  ['custom', 'llm.example.org'],
  ['lmstudio', 'localhost'],
  ['upstage', 'api.upstage.ai'],
  ['deepseek', 'api.deepseek.com'],
  ['kimi-coding', 'api.kimi.com'],
  ['moonshot', 'api.moonshot.ai'],
  ['xiaomi', 'api.xiaomimimo.com'],
  ['zai', 'api.z.ai'],
  ['dashscope', 'dashscope.aliyuncs.com'],
  ['mistral', 'api.mistral.ai'],
  ['groq', 'api.groq.com'],
  ['openai', 'api.openai.com'],
  ['together', 'api.together.xyz'],
  ['copilot', 'api.githubcopilot.com'],
  ['x', '127.0.0.1'],
  ['x', '192.168.1.9'],
  ['x', '100.64.1.1'],
  ['x', 'fd7a:115c:a1e0::1'],
  ['x', 'host.docker.internal'],
  ['x', 'ollama'],
];
const MODELS = [
  'deepseek-v4-pro',
  'moonshotai/kimi-k2.6',
  'kimi-k2.5',
  'mimo-v2.5-pro',
  'qwen3.6-plus',
  'glm-4.7',
  'gpt-5',
];

/** The documented differences (README table), as a classifier of one disagreeing cell. */
function documentedDifference(
  provider: string,
  host: string,
  model: string,
  ours: { routeId: string; tier: string; fields: string[]; upstreamRule?: string },
  ref: { fields: Field[]; tier: string },
): string | undefined {
  if (ours.routeId === 'copilot') return 'Copilot fields';
  if (isLocalHost(host) && !referenceLocal(host) && ours.routeId === 'local') return 'local rows';
  if (
    ours.upstreamRule !== undefined ||
    (ref.tier === 'must-echo' && ours.tier === 'standard' && /deepseek|mimo/.test(model))
  )
    return 'upstream-model rules';
  if (ours.routeId === 'kimi' && provider === 'moonshot') return 'provider aliases (moonshot, kimi, mimo, vllm, ...)';
  return undefined;
}

describe('parity with the reference routing', () => {
  const table = loadRouteTable();
  it('agrees on every cell outside the documented differences', () => {
    const tally = new Map<string, number>();
    const undocumented: string[] = [];
    let cells = 0;
    for (const [provider, host] of TARGETS) {
      for (const model of MODELS) {
        cells++;
        const ours = resolveRoute(table, { provider, host, model });
        const ref = reference(provider, host, model);
        const same = ours.tier === ref.tier && JSON.stringify(ours.fields) === JSON.stringify(ref.fields);
        if (same) {
          tally.set('agree', (tally.get('agree') ?? 0) + 1);
          continue;
        }
        const why = documentedDifference(provider, host, model, ours, ref);
        if (why) tally.set(why, (tally.get(why) ?? 0) + 1);
        else
          undocumented.push(
            `${provider} ${host} ${model}: ours ${ours.routeId} ${ours.tier} [${ours.fields.join(',')}], reference ${ref.tier} [${ref.fields.join(',')}]`,
          );
      }
    }
    console.log(`reference parity over ${cells} cells: ${[...tally].map(([k, v]) => `${k} ${v}`).join('; ')}`);
    expect(undocumented).toEqual([]);
    expect(tally.get('agree')! / cells).toBeGreaterThan(0.5);
  });
});
