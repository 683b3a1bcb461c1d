import type { Finding } from '../findings/finding.js';

/**
 * `check --engine CMD --engine-io own`: the engine sends its requests itself (decision 0110). The harness starts the
 * provider mocks, tells the engine per session which target to talk to (the mocks' base URL, the model, the family,
 * a placeholder key), and drives it step by step over JSON lines; every step is answered `{"done": true, "history":
 * [...]}` with the history as the engine stored it, in its own shape. The judge reads the traffic the mocks saw and
 * those histories; it never asks the engine to project its records into this project's history schema.
 *
 * One line each way per step, with the same `id` as the pure-operation protocol (decision 0064). An `error` answer
 * to `session.open` declines the target (a family the engine does not speak): reported, not judged as a pass.
 */
export const OWN_IO_PROTOCOL = 3;

/** What the engine is told about the target of one session: as an agent's configuration names it. */
export interface OwnIoTarget {
  /** The provider id of the mock (`deepseek`, `anthropic`, ...). */
  provider: string;
  /** The request family the provider speaks (`openai-chat`, `anthropic-messages`, ...). */
  family: string;
  /** The mock's base URL, exactly what `run` gives an agent as REASONING_REPLAY_<ID>_BASE_URL. */
  baseUrl: string;
  model: string;
  /** A placeholder key that is not a secret: SDKs that refuse to start without one start. */
  apiKey: string;
}

/** The steps the harness drives, each answered `done` plus the stored history. */
export type OwnIoStep =
  /** A user turn: the engine runs its loop (tool rounds included) until the model answers in words. */
  | { type: 'turn'; session: string; content: string }
  /** The engine compacts the session by its own means (a summarising model call to the same mock). */
  | { type: 'compact'; session: string }
  /** The engine forgets everything it holds in memory for the session and reloads it from its own storage. */
  | { type: 'resume'; session: string }
  /** A new session `into`, holding the first `atMessage` messages of `session` as the engine stored them. */
  | { type: 'branch'; session: string; into: string; atMessage: number };

/** Opens one session: its target, whether to stream, and where the engine keeps its storage for this run. */
export interface OwnIoSessionOpen {
  type: 'session.open';
  session: string;
  target: OwnIoTarget;
  stream: boolean;
  /** A directory the engine may write its store into (its own SQLite file, say); removed after the run. */
  storeDir: string;
}

/** The engine's answer to a step: done, with its stored history (any JSON array: the engine's own records). */
export interface OwnIoDone {
  done: true;
  history: unknown[];
}

/** One request the mocks saw, as the judge reads it. */
export interface SeenRequest {
  seq: number;
  provider: string;
  route: string;
  status: number;
  findings: Finding[];
  body: unknown;
  /** The mock's answer: its JSON body, or the text of its stream. */
  answer?: unknown;
}

/** One step of a session with the requests the mocks saw while the engine carried it out. */
export interface SteppedRequests {
  step: OwnIoStep;
  requests: SeenRequest[];
  history: unknown[];
}
