// Hand-made for the importer's tests: SDK-style request declarations.
export type Model = 'model-a' | 'model-b' | (string & {});

/** Prose the importer must drop. */
export interface CreateParams {
  model: Model;
  max_tokens: number;
  messages: Array<MessageParam>;
  thinking?: ThinkingEnabled | ThinkingDisabled;
  metadata?: { [key: string]: string };
  stream?: boolean | null;
  betas?: Array<string>;
}

export interface MessageParam {
  role: 'user' | 'assistant';
  content: string | Array<TextBlock | ThinkingBlock>;
}

export interface TextBlock {
  type: 'text';
  text: string;
}

export interface ThinkingBlock {
  type: 'thinking';
  thinking: string;
  signature: string;
}

export interface ThinkingEnabled {
  type: 'enabled';
  budget_tokens: number;
}

export interface ThinkingDisabled {
  type: 'disabled';
}

/** One stream event: a union of the event kinds, as SDKs declare them. */
export type StreamEvent = TextBlock | ThinkingBlock;
