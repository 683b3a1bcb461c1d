import { join } from 'node:path';
import { specsDir } from '../../../shared/project-root.js';
import { readJsonFile } from '../../../shared/validation/read-json.js';
import { assertValid } from '../../../shared/validation/validate.js';
import type { DefinitionFormat, JsonSchema } from './distilled.js';

/** One file of a pinned definition: where it is in the repository (or its own URL) and its sha256. */
export interface PinnedFile {
  path: string;
  sha256: string;
  url?: string;
}

/** An operation as the pin names it; which other members apply depends on the format. */
export interface PinnedOperation {
  name: string;
  operationId?: string;
  methodId?: string;
  shape?: string;
  rpc?: string;
  file?: string;
  type?: string;
  /**
   * The answer body's type in the definition's own terms (OpenAPI component, SDK type in `file`, Smithy shape id,
   * proto message, discovery schema). Answers are distilled only for operations that name it, so a pin whose source
   * cannot be read again keeps its committed distilled form.
   */
  response?: string;
  /** One event of the operation's stream, in the same terms (usually the union of every event kind). */
  events?: string;
}

/** One provider definition, pinned (specs/definitions.json `definitions`). */
export interface PinnedDefinition {
  provider: string;
  format: DefinitionFormat;
  title: string;
  repository?: string;
  commit?: string;
  version?: string;
  url?: string;
  files: PinnedFile[];
  /** Proto and SDK definitions: the files the reader starts from (the rest are their imports). */
  entry?: string[];
  operations: PinnedOperation[];
  notes?: string;
}

/**
 * A change the importer makes to the definition's structure for one spec, with the evidence that
 * the real API behaves so: leniency the API shows, members bound elsewhere (headers, the URL),
 * members another rule of the spec answers with its own wording.
 */
export type Overlay = {
  id: string;
  /** Def name, optionally `Def#/json/pointer` inside it. */
  at?: string;
  evidence: string[];
  notes?: string;
  /** Sources disagree: the other side. The overlay is the lenient reading. */
  contested?: { notes: string; sources: string[] };
} & (
  | { kind: 'add-member'; member: string; schema: JsonSchema; required?: boolean }
  | { kind: 'drop-member'; member: string }
  | { kind: 'not-required'; member: string }
  | { kind: 'required'; member: string }
  | { kind: 'replace'; schema: JsonSchema }
  | { kind: 'proto-json-names' }
  | { kind: 'enum-lowercase' }
);

/** Which definition a provider spec's request schema is built from, and how. */
export interface DefinitionTarget {
  spec: string;
  definition: string;
  operation: string;
  /** `own`: the provider's own definition; `same-api`: another host serving the same API (Vertex, Foundry). */
  basis: 'own' | 'same-api';
  /** The mock refuses members the definition does not list, everywhere: cite what shows the API does. */
  closed?: { evidence: string[]; notes?: string };
  /** Defs left open although `closed` (maps, JSON Schemas a client passes through). */
  open?: string[];
  overlays?: Overlay[];
  notes?: string;
}

/**
 * Which definition the answers of a family (or of named specs, where a provider publishes its own) are judged by:
 * the operation's answer and stream events, built into specs/responses/<id>.json with the overlays that record where
 * the real API's answers depart from its definition.
 */
export interface ResponseTarget {
  id: string;
  /** The family whose answers this judges; `specs` narrows it to those provider specs (they win over the family's). */
  family: string;
  specs?: string[];
  /** Another project's published schema the answers are checked against as well; it never judges them. */
  suite?: true;
  definition: string;
  operation: string;
  basis: DefinitionTarget['basis'];
  /** How a stream event reaches the events schema: its data (SSE), or `{<event name>: data}` (an event-stream union). */
  eventsKeyedBy?: 'data' | 'event-name';
  /** The API's other endpoints whose answers this target judges as well, by path (an answer, no stream). */
  endpoints?: { path: string; operation: string }[];
  overlays?: Overlay[];
  notes?: string;
}

export interface DefinitionsFile {
  definitions: Record<string, PinnedDefinition>;
  targets: DefinitionTarget[];
  /** Answers and stream events: which definition judges each family's. */
  responses?: ResponseTarget[];
  /** Specs whose request schema is written by hand, and why no definition drives them. */
  handWritten: Array<{ spec: string; why: string }>;
}

export function definitionsPath(): string {
  return join(specsDir(), 'definitions.json');
}

export function distilledPath(id: string, dir: string = join(specsDir(), 'definitions')): string {
  return join(dir, `${id}.distilled.json`);
}

export function loadDefinitions(file: string = definitionsPath()): DefinitionsFile {
  return assertValid<DefinitionsFile>(readJsonFile(file), 'definitions.schema.json', file);
}

/** The raw download URL of a pinned file: its own, or GitHub's for the repository at the commit. */
export function fileUrl(pin: PinnedDefinition, file: PinnedFile): string | undefined {
  if (file.url) return file.url;
  if (pin.repository && pin.commit)
    return `https://raw.githubusercontent.com/${pin.repository}/${pin.commit}/${file.path}`;
  return undefined;
}
