import type { History, Message, ReasoningDetail } from '../../shared/history/history.js';

/**
 * Refusals that say a replayed signature cannot be verified where it went: Anthropic's "Invalid `signature` in
 * `thinking` block" (a signature of another upstream behind one base URL, can1357/oh-my-pi#12006, or one cut short,
 * openclaw/openclaw#103830) and Google's "Corrupted thought signature." (a Gemini signature minted by the other
 * upstream of a gateway, OpenRouterTeam/ai-sdk-provider#491). Resending the same history gets the same refusal
 * forever (openclaw/openclaw#95627); the documented way out is to drop what cannot be verified and retry once.
 */
const SIGNATURE_REFUSAL = /invalid\W{0,3}signature\W{0,3}in\W{0,3}thinking\W{0,3}block|corrupted thought signature/i;

/** True when a refusal's body says a replayed signature could not be verified (see SIGNATURE_REFUSAL). */
export function isSignatureRefusal(status: number, body: unknown): boolean {
  if (status < 400 || status >= 500) return false;
  return SIGNATURE_REFUSAL.test(typeof body === 'string' ? body : JSON.stringify(body ?? ''));
}

/** A reasoning item that only replays verbatim to the upstream that signed or encrypted it. */
const signed = (detail: ReasoningDetail): boolean => {
  const record = detail as Record<string, unknown>;
  return (
    detail.type === 'redacted_thinking' ||
    detail.type === 'reasoning.encrypted' ||
    (typeof record.signature === 'string' && record.signature !== '')
  );
};

/**
 * The recovery after a signature refusal: every assistant turn keeps its text, its tool calls and its readable
 * reasoning, and loses the signed or encrypted items and the native record that carries them (Gemini
 * `thoughtSignature`, Copilot `reasoning_opaque`). The tool loop in flight (the assistant turns after the last user
 * message) is the exception: while thinking is on, its turn must start with its thinking block, complete and
 * unmodified, and one thinking configuration holds for the whole turn (platform.claude.com/docs/build-with-claude/
 * thinking-tool-workflows), so a loop whose thinking had to go is restarted from the user message: its calls and
 * results are dropped and the model is asked again. The history is a new value; the stored one is left as it was, so
 * the caller decides whether the repair is kept. Undefined when nothing signed is left to drop (a retry would be the
 * same request: not a recovery).
 */
export function withoutSignedReasoning(history: History): History | undefined {
  let dropped = 0;
  let lastUser = -1;
  history.messages.forEach((m, i) => {
    if (m.role === 'user') lastUser = i;
  });
  let restartAt: number | undefined;
  const messages = history.messages.map((message, i): Message => {
    if (message.role !== 'assistant') return message;
    const details = message.reasoning_details ?? [];
    const kept = details.filter((d) => !signed(d));
    const lost = details.length - kept.length + (message.native ? 1 : 0);
    dropped += lost;
    if (lost === 0) return message;
    if (i > lastUser && message.tool_calls?.length) restartAt ??= i;
    const { native: _native, reasoning_details: _details, ...rest } = message;
    return kept.length ? { ...rest, reasoning_details: kept } : rest;
  });
  if (dropped === 0) return undefined;
  return { ...history, messages: restartAt === undefined ? messages : messages.slice(0, restartAt) };
}
