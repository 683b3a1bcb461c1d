import type { Fixture } from '../../../provider/fixtures/fixture-store.js';
import { renderCheckedFixture } from './fixture-file.js';
import type { SecretValue } from './redact.js';

export { redactText } from './redact.js';
export { SecretLeakError } from '../../../shared/errors/secret-leak-error.js';

export interface RedactFixtureOptions {
  /** Known secret values (the key in use, the user's extra variables) to redact in every spelling. */
  secrets?: readonly SecretValue[];
  /** The file the fixture will be written to: named in a refusal. */
  file: string;
}

/**
 * The recorder's redaction for any fixture, whatever produced it (`record`, `import`): credential
 * headers and URL parts, every spelling of the known secrets (streams over their reassembled
 * text), then our credential patterns, the user's rules and secretlint's recommended preset over
 * what would be written. Resolves to the fixture exactly as it would be written, or rejects with a
 * SecretLeakError naming the JSON pointer of each credential-shaped value that survived (exit 1).
 * Signed and encrypted reasoning is never altered.
 */
export async function redactFixture(fixture: Fixture, options: RedactFixtureOptions): Promise<Fixture> {
  const rendered = await renderCheckedFixture({ fixture }, options.secrets ?? [], options.file);
  return JSON.parse([...rendered].join('')) as Fixture;
}
