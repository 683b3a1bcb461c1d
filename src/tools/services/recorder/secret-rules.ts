import { lintSource } from '@secretlint/core';
import { creator as recommended } from '@secretlint/secretlint-rule-preset-recommend';
import { isOpaqueField } from './opaque-fields.js';
import { maskSecret, type SecretFinding } from './secret-patterns.js';

/**
 * The maintained rule set: secretlint's recommended preset (OpenAI, Anthropic, AWS, GCP service
 * accounts, GitHub, Slack, npm, SendGrid, Shopify, Linear, 1Password, basic auth and database
 * URLs, private keys), run over a fixture's text before it is written. Our own patterns
 * (secret-patterns.ts) add the LLM providers the preset lacks and the user's rules; both must pass.
 * Signed and encrypted fields are blanked in the text the rules see: they are not ours to judge.
 */
const CONFIG = { rules: [{ id: recommended.meta.id, rule: recommended }] };

/** The JSON text a fixture-shaped value would be written as, with opaque strings emptied. */
export function lintView(value: unknown): string {
  const blank = (v: unknown, depth: number): unknown => {
    if (depth > 256 || typeof v !== 'object' || v === null) return v;
    if (Array.isArray(v)) return v.map((x) => blank(x, depth + 1));
    return Object.fromEntries(
      Object.entries(v).map(([k, x]) => [k, isOpaqueField(k, v) && typeof x === 'string' ? '' : blank(x, depth + 1)]),
    );
  };
  return JSON.stringify(blank(value, 0), null, 1);
}

/** Event data is JSON text inside a string: opened up so its escapes do not hide a key from the rules. */
export function eventLintView(data: string): string {
  try {
    return lintView(JSON.parse(data));
  } catch {
    return data;
  }
}

/** Findings of the preset in `text`; `where` names the place (a JSON pointer) for the message. */
export async function lintWithRules(text: string, where: string): Promise<SecretFinding[]> {
  if (text.length === 0) return [];
  const result = await lintSource({
    source: { content: text, filePath: 'fixture.json', ext: '.json', contentType: 'text' },
    options: { config: CONFIG, maskSecrets: false },
  });
  return result.messages.map((m) => ({
    pointer: where,
    pattern: `secretlint ${m.messageId}`,
    masked: maskSecret(text.slice(m.range[0], m.range[1])),
  }));
}

/** Lints many small texts in a few calls (one per ~1 MB), keeping each finding's place. */
export async function lintMany(texts: Iterable<{ text: string; where: string }>): Promise<SecretFinding[]> {
  const found: SecretFinding[] = [];
  let batch: Array<{ text: string; where: string; from: number }> = [];
  let size = 0;
  const flush = async () => {
    if (batch.length === 0) return;
    const joined = batch.map((b) => b.text).join('\n\n');
    const result = await lintSource({
      source: { content: joined, filePath: 'fixture.json', ext: '.json', contentType: 'text' },
      options: { config: CONFIG, maskSecrets: false },
    });
    for (const m of result.messages) {
      const owner = [...batch].reverse().find((b) => b.from <= m.range[0]) ?? batch[0]!;
      found.push({
        pointer: owner.where,
        pattern: `secretlint ${m.messageId}`,
        masked: maskSecret(joined.slice(m.range[0], m.range[1])),
      });
    }
    batch = [];
    size = 0;
  };
  for (const { text, where } of texts) {
    batch.push({ text, where, from: size });
    size += text.length + 2;
    if (size > 1024 * 1024) await flush();
    if (found.length >= 50) break;
  }
  await flush();
  return found;
}
