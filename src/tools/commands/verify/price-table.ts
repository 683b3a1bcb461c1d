import { join } from 'node:path';
import { specsDir } from '../../../shared/project-root.js';
import { readJsonFile } from '../../../shared/validation/read-json.js';
import { assertValid } from '../../../shared/validation/validate.js';

/** Types mirroring specs/schema/prices.schema.json (the schema is the authority). */
export interface PriceEntry {
  providers: string[];
  models?: string[];
  match?: string;
  /** USD per million input tokens. */
  input: number;
  /** USD per million output tokens (reasoning included). */
  output: number;
  source: string;
  seenVia?: string[];
  checked: string;
  notes?: string;
}

export interface PriceTable {
  currency: 'USD';
  unit: 'per million tokens';
  prices: PriceEntry[];
}

export function defaultPricesFile(): string {
  return join(specsDir(), 'prices.json');
}

export function loadPriceTable(file: string = defaultPricesFile()): PriceTable {
  return assertValid<PriceTable>(readJsonFile(file), 'prices.schema.json', file);
}

/** The price a provider bills for a model, or undefined: a model nobody priced is never sent (its spend has no bound). */
export function priceFor(table: PriceTable, provider: string, model: string): PriceEntry | undefined {
  return table.prices.find(
    (p) =>
      p.providers.includes(provider) &&
      (p.models ? p.models.includes(model) : new RegExp(`^(?:${p.match})$`).test(model)),
  );
}

/** USD for a number of input and output tokens at a price. */
export function costOf(price: PriceEntry, inputTokens: number, outputTokens: number): number {
  return (inputTokens * price.input + outputTokens * price.output) / 1_000_000;
}
