import { sampleArguments } from './schema-arbitrary.js';

/**
 * The seeded sample of a schema, kept by the schema's JSON text and the seed. fast-check's seeded sample is a function
 * of exactly these two (a run is reproducible), and drawing it took about 60 µs of the 370 µs serve spent on a fresh
 * follow-mode request: each turn of an agent's loop sends a new conversation with the same tools, so the answer is
 * rendered afresh while its tool arguments come out the same. The request bodies are parsed JSON, so two schemas with
 * the same text are the same schema.
 *
 * The sample is kept as its JSON text and parsed for each caller: every caller gets a value of its own (nothing kept
 * is shared, so nothing kept can be written to), and a sample is only ever serialized again by its callers.
 */
export class KeptSamples {
  private readonly kept = new Map<string, string>();

  /**
   * @param maxEntries bound on the samples kept (the oldest goes first)
   * @param maxSchemaChars larger schemas are sampled each time: their key would pin a large text
   * @param sample the sampler (the seeded fast-check one); a test counts its calls
   */
  constructor(
    private readonly maxEntries = 1024,
    private readonly maxSchemaChars = 32 * 1024,
    private readonly sample: (schema: unknown, seed: number) => unknown = sampleArguments,
  ) {}

  /** What `sampleArguments(schema, seed)` gives, as JSON reads it back (a -0 is 0), as a fresh value. */
  get(schema: unknown, seed: number): unknown {
    const text = JSON.stringify(schema);
    if (text === undefined || text.length > this.maxSchemaChars) return this.sample(schema, seed);
    const key = `${seed}\u0000${text}`;
    let json = this.kept.get(key);
    if (json === undefined) {
      json = JSON.stringify(this.sample(schema, seed));
      // A sample JSON cannot hold (undefined) is never kept: the sampler answers it each time.
      if (json === undefined) return this.sample(schema, seed);
      if (this.kept.size >= this.maxEntries) this.kept.delete(this.kept.keys().next().value!);
      this.kept.set(key, json);
    }
    return JSON.parse(json) as unknown;
  }

  get size(): number {
    return this.kept.size;
  }
}
