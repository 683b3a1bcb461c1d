import { PROVIDER_SIDE_FAMILIES } from '../../handlers/family-registry.js';
import type { OfferedTool } from '../client-tools.js';
import type { FamilyId } from '../../../shared/wire/families.js';
import { isPlainObject } from '../../../shared/objects/deep-merge.js';

export type { OfferedTool } from '../client-tools.js';

/**
 * The function tools in a request body, read the way the body's wire family declares them (each
 * family's provider-side folder says how: src/provider/families/<family>/client-tools.ts).
 */
export function offeredTools(family: FamilyId, body: unknown): OfferedTool[] {
  return isPlainObject(body) ? PROVIDER_SIDE_FAMILIES[family].clientTools.offeredTools(body) : [];
}

/**
 * Does the request end with the results of tool calls? Then the model's next move is an answer in
 * words; otherwise (a fresh user turn) it calls a tool. That is what keeps an agent's loop finite.
 */
export function endsWithToolResult(family: FamilyId, body: unknown): boolean {
  return isPlainObject(body) && PROVIDER_SIDE_FAMILIES[family].clientTools.endsWithToolResult(body);
}

/**
 * How the family's provider starts a tool-call id (Anthropic `toolu_`, Bedrock `tooluse_`, else `call_`), with our
 * `rr_` mark.
 */
export function toolCallIdPrefix(family: FamilyId): string {
  return PROVIDER_SIDE_FAMILIES[family].clientTools.toolCallIdPrefix;
}
