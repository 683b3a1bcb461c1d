/**
 * The class of rule a provider rule or a real-world case bears on (specs/schema/rule-class.schema.json, in its
 * order). Shared because provider specs name it on a rejection and the real-world tools report agreement and
 * coverage by it.
 */
export const RULE_CLASSES = [
  'reasoning-echo',
  'reasoning-signature',
  'reasoning-field',
  'reasoning-parameters',
  'history-structure',
  'request-schema',
  'leniency',
  'model-and-endpoint',
] as const;
export type RuleClass = (typeof RULE_CLASSES)[number];
