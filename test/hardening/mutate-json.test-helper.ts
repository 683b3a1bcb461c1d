import fc from 'fast-check';

/**
 * Mutations of a valid JSON document, the kind a person makes editing one by hand: a key dropped,
 * a key renamed, a value of the wrong type, the text cut off. Loaders must answer each with a
 * value or a clean error, never a crash.
 */
export type JsonMutation =
  | { kind: 'drop'; at: number }
  | { kind: 'rename'; at: number; to: string }
  | { kind: 'retype'; at: number; value: unknown }
  | { kind: 'duplicate-into-array'; at: number };

type Path = (string | number)[];

/** Every path to a value inside `doc` (the root excluded), depth first. */
export function pathsOf(doc: unknown, prefix: Path = []): Path[] {
  if (Array.isArray(doc)) return doc.flatMap((v, i) => [[...prefix, i], ...pathsOf(v, [...prefix, i])]);
  if (typeof doc === 'object' && doc !== null)
    return Object.entries(doc).flatMap(([k, v]) => [[...prefix, k], ...pathsOf(v, [...prefix, k])]);
  return [];
}

function parentOf(doc: unknown, path: Path): { parent: Record<string | number, unknown>; key: string | number } {
  let node = doc as Record<string | number, unknown>;
  for (const step of path.slice(0, -1)) node = node[step] as Record<string | number, unknown>;
  return { parent: node, key: path.at(-1)! };
}

/** Applies one mutation to a deep copy of `doc` (the original is never touched). */
export function applyMutation(doc: unknown, mutation: JsonMutation): unknown {
  const copy = structuredClone(doc);
  const paths = pathsOf(copy);
  if (paths.length === 0) return mutation.kind === 'retype' ? mutation.value : copy;
  const path = paths[mutation.at % paths.length]!;
  const { parent, key } = parentOf(copy, path);
  switch (mutation.kind) {
    case 'drop':
      if (Array.isArray(parent)) parent.splice(key as number, 1);
      else delete parent[key];
      break;
    case 'rename':
      if (Array.isArray(parent)) parent[key as number] = { [mutation.to]: parent[key as number] };
      else {
        const value = parent[key];
        delete parent[key];
        parent[mutation.to] = value;
      }
      break;
    case 'retype':
      parent[key] = mutation.value;
      break;
    case 'duplicate-into-array':
      parent[key] = [parent[key], parent[key]];
      break;
  }
  return copy;
}

export const aJsonMutation: fc.Arbitrary<JsonMutation> = fc.oneof(
  fc.record({ kind: fc.constant('drop' as const), at: fc.nat() }),
  fc.record({
    kind: fc.constant('rename' as const),
    at: fc.nat(),
    to: fc.oneof(fc.string({ maxLength: 12 }), fc.constantFrom('__proto__', 'constructor', 'toString', '')),
  }),
  fc.record({
    kind: fc.constant('retype' as const),
    at: fc.nat(),
    value: fc.oneof(fc.jsonValue({ maxDepth: 2 }), fc.constantFrom(null, 0, -1, 1e308, '', [], {}, true)),
  }),
  fc.record({ kind: fc.constant('duplicate-into-array' as const), at: fc.nat() }),
);

/** One to three mutations applied in turn. */
export const someJsonMutations: fc.Arbitrary<JsonMutation[]> = fc.array(aJsonMutation, { minLength: 1, maxLength: 3 });

export function applyMutations(doc: unknown, mutations: readonly JsonMutation[]): unknown {
  return mutations.reduce((d, m) => applyMutation(d, m), doc);
}

/** Text a loader may be handed: the document cut short, a byte flipped, or random bytes decoded as UTF-8. */
export function aDamagedText(valid: string): fc.Arbitrary<string> {
  return fc.oneof(
    fc.nat({ max: Math.max(0, valid.length - 1) }).map((n) => valid.slice(0, n)),
    fc
      .tuple(fc.nat({ max: Math.max(0, valid.length - 1) }), fc.string({ minLength: 1, maxLength: 3 }))
      .map(([at, s]) => valid.slice(0, at) + s + valid.slice(at + 1)),
    fc.uint8Array({ maxLength: 200 }).map((bytes) => Buffer.from(bytes).toString('utf8')),
    fc.string({ unit: 'binary', maxLength: 200 }),
  );
}
