/** Header an agent may send to name itself in the log and the report (beats its user-agent). */
export const CLIENT_HEADER = 'x-reasoning-replay-client';
/** Header naming the run a request belongs to; `run` also passes it as REASONING_REPLAY_RUN_ID. */
export const RUN_HEADER = 'x-reasoning-replay-run';

const MAX_CLIENT = 120;

/**
 * Who sent a request, as the report groups it: the client's own name when it gives one, else its
 * user-agent (SDKs put their name and version there: `OpenAI/JS 5.23.0`, `google-genai-sdk/1.x`).
 */
export function clientOf(header: (name: string) => string | undefined): string {
  const named = header(CLIENT_HEADER)?.trim();
  if (named) return named.slice(0, MAX_CLIENT);
  const agent = header('user-agent')?.trim();
  if (agent) return agent.slice(0, MAX_CLIENT);
  return 'unknown client';
}
