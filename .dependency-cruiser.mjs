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

// Inside the tools, three layers (decision 0099): the CLI composes commands; a command (one folder per user task)
// uses services and never another command; a service (used by several commands) uses other services, never a
// command or the CLI. Folders directly under tools/ are only these three.
const toolLayers = { cli: 'src/tools/cli/', commands: 'src/tools/commands/', services: 'src/tools/services/' };

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
  rule(
    'tools-only-cli-commands-services',
    'tools/ holds the CLI, the commands and the services, nothing beside them',
    { path: '^src/tools/', pathNot: `${TEST}|^(${Object.values(toolLayers).join('|')})` },
    { path: '^src/' },
  ),
  rule(
    'tools-command-uses-no-other-command',
    'a command uses services, never another command',
    { path: `^${toolLayers.commands}([^/]+)/` },
    { path: `^${toolLayers.commands}[^/]+/`, pathNot: `^${toolLayers.commands}$1/` },
  ),
  rule(
    'tools-service-uses-no-command',
    'a service is shared by commands, so it depends on none of them',
    { path: `^${toolLayers.services}` },
    { path: `^${toolLayers.commands}` },
  ),
  rule(
    'tools-cli-on-top',
    'the CLI calls commands and services; nothing below calls the CLI',
    { path: `^(${toolLayers.commands}|${toolLayers.services})` },
    { path: `^${toolLayers.cli}` },
  ),
  rule(
    'serve-carries-bytes',
    'serve frames and carries bytes; what a mock answers is decided under src/provider/ (answer-http-request.ts)',
    { path: '^src/tools/services/serve/' },
    {
      path: '^src/provider/|^node_modules/msw/',
      pathNot: `^src/provider/(${[
        'handlers/answer-http-request',
        'answers/answer-stream',
        'families/bedrock-converse/event-stream-frames',
        'fixtures/fixture-store',
      ].join('|')})\\.ts$`,
    },
  ),
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
