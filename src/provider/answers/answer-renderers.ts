import type { FamilyId } from '../../shared/wire/families.js';
import type { AnswerRenderer } from './answer-renderer.js';
import { PROVIDER_SIDE_FAMILIES } from '../handlers/family-registry.js';

/** Each family's renderer for synthesized fixtures; a family without one gets no synthesized fixtures. */
export const answerRenderers: Partial<Record<FamilyId, AnswerRenderer>> = Object.fromEntries(
  Object.entries(PROVIDER_SIDE_FAMILIES).map(([id, family]) => [id, family.renderAnswer]),
);
