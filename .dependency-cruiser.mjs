// The floor plan of src/, checked by `npm run lint:boundaries` (dependency-cruiser) in `npm test`.
// Each line below is one rule. Tests compose the sides and are exempt from the side rules, never from the cycle rule.
const TEST = '(\\.test\\.ts|\\.test-helper\\.ts)$';

// Who may import whom. Anything not listed is forbidden, in both directions.
const sides = {
  shared: [], // the protocol between the sides knows no side
  engine: ['shared'], // what an agent does
  provider: ['shared'], // what a provider does: a second, independent reading of the providers
  judge: ['shared'], // what should have happened: reads the specs, the table and the findings, never the engine or the mocks
  tools: ['engine', 'provider', 'judge', 'shared'], // cli, recorder, serve, report...: they compose the sides
};

// Layers inside the engine, lowest first: an import may stay in its layer or go down, never up.
const engineLayers = ['history', 'policy', 'families', 'replay', 'session|compaction|history-formats'];

// Wire families do not build on each other, except the two dialects named here (on both sides).
const dialects = { copilot: 'openai-chat', 'bedrock-converse': 'anthropic-messages' };

const side = (name) => (name === 'tools' ? '^src/(tools/|index\\.ts$|vitest\\.ts$)' : `^src/${name}/`);
const rule = (name, comment, from, to) => ({ name, comment, severity: 'error', from: { pathNot: TEST, ...from }, to });

const forbidden = [
  ...Object.entries(sides).map(([from, may]) =>
    rule(
      `${from}-imports-only-${may.join('-') || 'itself'}`,
      `${from} may import ${may.join(', ') || 'nothing of another side'}`,
      { path: side(from) },
      {
        path: '^src/',
        pathNot: [side(from), ...may.map(side)].join('|'),
      },
    ),
  ),
  ...engineLayers.slice(0, -1).map((layer, i) =>
    rule(
      `engine-${layer.replace(/\|/g, '-')}-not-up`,
      `engine layer ${layer} imports no higher layer (${engineLayers.slice(i + 1).join(', ')})`,
      { path: `^src/engine/(${layer})/` },
      {
        path: `^src/engine/(${engineLayers.slice(i + 1).join('|')})/`,
      },
    ),
  ),
  ...['engine', 'provider'].flatMap((s) => [
    rule(
      `${s}-families-apart`,
      `a ${s} family folder imports no other family's`,
      { path: `^src/${s}/families/(?!${Object.keys(dialects).join('/|')}/)([^/]+)/` },
      {
        path: `^src/${s}/families/[^/]+/`,
        pathNot: `^src/${s}/families/$1/`,
      },
    ),
    ...Object.entries(dialects).map(([dialect, base]) =>
      rule(
        `${s}-${dialect}-builds-only-on-${base}`,
        `${dialect} is a dialect of ${base}`,
        { path: `^src/${s}/families/${dialect}/` },
        {
          path: `^src/${s}/families/[^/]+/`,
          pathNot: `^src/${s}/families/(${dialect}|${base})/`,
        },
      ),
    ),
  ]),
  rule('code-not-to-tests', 'shipped code never imports a test or a test helper', { path: '^src/' }, { path: TEST }),
  {
    name: 'no-cycle',
    comment: 'no import cycle anywhere, type-only imports included',
    severity: 'error',
    from: {},
    to: { circular: true },
  },
];

export default {
  forbidden,
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(dist|node_modules)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.js'] },
  },
};
