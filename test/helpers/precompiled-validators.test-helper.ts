import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { projectRoot } from '../../src/shared/project-root.js';
import {
  PRECOMPILED_INLINE_FILE,
  precompiledInlineCode,
  writePrecompiledSchemaModules,
} from '../../src/shared/validation/precompile-schemas.js';

/**
 * vitest's globalSetup: the schemas' validators precompiled once per run, as `npm run build` does, into a folder the
 * workers (and the CLI processes they start) find through REASONING_REPLAY_VALIDATORS_DIR. Without it every test
 * file that loads specs compiled the same schemas again in its own worker, about a CPU-second each. Each schema
 * module still carries its sources' hash, so a test that edits a schema on disk compiles from the edit.
 */
export default function precompiledValidators(): () => void {
  // Each vitest project runs the global set-up; the first one's validators serve the whole run.
  if (process.env.REASONING_REPLAY_VALIDATORS_DIR) return () => {};
  // Inside the project, so the modules' require('ajv/dist/runtime/...') resolves from its node_modules.
  const cache = join(projectRoot(), 'node_modules', '.cache', 'reasoning-replay');
  mkdirSync(cache, { recursive: true });
  const dir = mkdtempSync(join(cache, 'validators-'));
  writePrecompiledSchemaModules(dir);
  writeFileSync(join(dir, PRECOMPILED_INLINE_FILE), precompiledInlineCode());
  process.env.REASONING_REPLAY_VALIDATORS_DIR = dir;
  return () => rmSync(dir, { recursive: true, force: true });
}
