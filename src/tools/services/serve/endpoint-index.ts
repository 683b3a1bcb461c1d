import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { projectRoot } from '../../../shared/project-root.js';
import type { ProviderSpec } from '../../../shared/provider-specs/provider-spec.js';
import { agentEnv, SDK_BASE_URL_VARIABLES } from './agent-env.js';
import { CLIENT_HEADER, RUN_HEADER } from './client-identity.js';
import { FINDINGS_HEADER, SCENARIO_HEADER } from '../../../shared/findings/finding.js';

/** What `GET /` answers: every mock, the base URL to give an SDK, and the headers serve reads. */
export function endpointIndex(
  url: string,
  specs: readonly ProviderSpec[],
  scenario: string | undefined,
  runId: string | undefined,
) {
  return {
    service: 'reasoning-replay serve',
    ...(runId ? { runId } : {}),
    answers: scenario
      ? `scripted by scenario ${scenario}`
      : 'following the client: a call to one of the tools it offered, then an answer in words after the tool results',
    // The package ships docs/ (package.json "files"): a file URL into the installed copy opens on the
    // machine serve runs on, where a repository-relative path named nothing for an npm user.
    docs: pathToFileURL(join(projectRoot(), 'docs', 'judge-your-agent.md')).href,
    headers: {
      [CLIENT_HEADER]: 'names the client in the log and report (else its user-agent)',
      [RUN_HEADER]: 'groups requests into one run',
      [SCENARIO_HEADER]: "answer from this scenario's fixture instead",
      [FINDINGS_HEADER]:
        'on every answer: the provider rules the request broke, as {"version": 1, "findings": [...]} (specs/schema/findings.schema.json)',
    },
    findings: `${url}/findings.json`,
    // Exactly what `run` gives an agent, so a test runner in another language (python/) sets the same variables
    // without a copy of specs/sdk-base-urls.json or the key list. Keys are placeholders, never secrets.
    env: environment(url, specs, runId),
    sdkVariables: Object.fromEntries(
      SDK_BASE_URL_VARIABLES.filter((v) => specs.some((s) => s.id === v.provider)).map((v) => [
        v.variable,
        `${url}/${v.provider}`,
      ]),
    ),
    providers: specs.map((s) => ({
      id: s.id,
      family: s.family,
      model: s.target.model,
      baseUrl: `${url}/${s.id}`,
      mocks: s.endpoint.baseUrl,
      endpoints: [
        s.endpoint.path,
        ...(s.endpoint.streamPath && s.endpoint.streamPath !== s.endpoint.path ? [s.endpoint.streamPath] : []),
      ].map((p) => `POST ${url}/${s.id}${p}`),
    })),
  };
}

function environment(url: string, specs: readonly ProviderSpec[], runId: string | undefined): Record<string, string> {
  const env = agentEnv({ url, specs, runId: runId ?? '' });
  if (!runId) delete env.REASONING_REPLAY_RUN_ID;
  return env;
}
