import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { specsDir } from '../project-root.js';

/** The project's JSON Schemas (specs/schema/*.schema.json), read once, by file name. */
export interface SchemaSources {
  files: { name: string; schema: object }[];
  /** sha256 over every file's name and text: a precompiled validator set is used only if it matches. */
  hash: string;
}

export function readSchemaSources(dir: string = join(specsDir(), 'schema')): SchemaSources {
  const hash = createHash('sha256');
  const files = readdirSync(dir)
    .filter((f) => f.endsWith('.schema.json'))
    .sort()
    .map((name) => {
      const text = readFileSync(join(dir, name), 'utf8');
      hash.update(name).update('\0').update(text).update('\0');
      return { name, schema: JSON.parse(text) as object };
    });
  return { files, hash: hash.digest('hex') };
}
