import { ReasoningReplayError } from './reasoning-replay-error.js';
import { shownFileName } from '../files/shown-file-name.js';

/** Where a credential-shaped value sits and what it looks like, masked. */
export interface LeakedSecret {
  pointer: string;
  pattern: string;
  masked: string;
}

/** A secret survived redaction: the fixture must not be written. Names where, never what. */
export class SecretLeakError extends ReasoningReplayError {
  readonly kind = 'external';

  constructor(
    readonly file: string,
    readonly findings: readonly LeakedSecret[],
  ) {
    const where = findings.slice(0, 8).map((f) => `${f.pointer} (${f.pattern}: ${f.masked})`);
    const more = findings.length > where.length ? `, and ${findings.length - where.length} more` : '';
    super(
      `refusing to write ${shownFileName(file)}: a credential-shaped value survived redaction at ${where.join(', ')}${more}. ` +
        'Nothing was written. If it is a credential, rotate it and name the header or variable holding it (--api-key-env); ' +
        'if it is not, it still must not look like one in a committed file.',
    );
  }
}
