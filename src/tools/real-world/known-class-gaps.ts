/**
 * Rule classes a provider spec has rules in and no real case of yet (class-coverage.ts), each with why no public
 * report or documented request was found for it. The test in class-coverage.test.ts fails on a gap NOT listed here
 * and on a listed one that a case now fills, so this is the named backlog of the corpus's breadth, not a way to
 * silence it (issue 23: every provider spec has cases in each rule class it has).
 */

/**
 * The spec's only request-schema rule is its answer to a body that is not JSON or not an object (`invalidRejection`,
 * wording unknown): clients built on SDKs never send one, so no public report shows it. An accepted request the
 * provider documents with members outside reasoning would fill the class (as it did for Hunyuan, Novita, Kilo,
 * Ollama, OpenRouter, llama.cpp and Bedrock). None is in the corpus yet for these: the Moonshot and MiniMax examples found show
 * only model and messages or reasoning members; the others' docs were not searched to the end in issue 23.
 */
const MALFORMED_ONLY =
  'its only request-schema rule answers a malformed body, which no SDK sends; no report or documented request with a member outside reasoning is in the corpus yet';

export const KNOWN_CLASS_GAPS: ReadonlyMap<string, string> = new Map<string, string>([
  [
    'foundry-anthropic/history-structure',
    "Foundry's Claude deployments share the Messages judge; no public report quotes an empty or whitespace text refused on a Foundry host.",
  ],
  [
    'foundry-anthropic/reasoning-echo',
    'No public report quotes "Expected `thinking`" from a Foundry host; the reports are of the first-party API and Vertex.',
  ],
  [
    'foundry-anthropic/reasoning-parameters',
    'No public report quotes a thinking budget or thinking-enabled refusal from a Foundry host.',
  ],
  ['nous-portal/request-schema', MALFORMED_ONLY],
]);
