import { describe, expect, it } from 'vitest';
import { familyFor } from '../../../engine/families/registry.js';
import {
  loadRealCases,
  realTrafficCasesDir,
} from '../../services/real-world-cases/recorded-traffic/real-traffic-case.js';
import { loadRouteTable } from '../../../shared/route-table/load-route-table.js';
import type { FamilyId } from '../../../shared/route-table/route-table.js';
import { parseSse } from '../../../shared/sse/parse-sse.js';
import { importRecording } from './import-recording.js';

/**
 * The real AI SDK chunk dumps behind ../shared/real-traffic's stream cases (each case's `source`
 * is a vercel/ai `*.chunks.txt`; the case holds its payload lines as SSE data): imported as a user
 * would import that dump, the fixture must read to exactly what the family reads from the stream.
 */
const PROVIDER: Record<string, string> = {
  'anthropic-messages': 'anthropic',
  'bedrock-converse': 'bedrock-claude',
  'openai-chat': 'deepseek',
  gemini: 'gemini',
  'openai-responses': 'openai-responses',
};
const dir = realTrafficCasesDir();

if (dir === undefined) {
  describe('import of real chunk dumps', () => {
    it.skip('SKIPPED: ../shared/real-traffic/cases is not beside the repo, so no real dump was imported', () => {});
  });
} else {
  const table = loadRouteTable();
  const streams = loadRealCases(dir).filter((c) => c.kind === 'stream');
  describe(`import of real chunk dumps (${streams.length} from ${dir})`, () => {
    it.each(streams.map((c) => [c.id, c] as const))('%s', (_id, c) => {
      const lines = parseSse(c.sse!)
        .events.map((e) => e.data)
        .filter((d) => d.trim() !== '[DONE]');
      const imported = importRecording({
        source: `${c.id}.chunks.txt`,
        bytes: new TextEncoder().encode(lines.join('\n') + '\n'),
        format: 'ai-sdk-chunks',
        provider: PROVIDER[c.family]!,
        table,
      });
      expect(imported.fixture.family).toBe(c.family as FamilyId);
      expect(imported.fixture.provenance).toMatchObject({ kind: 'imported', format: 'ai-sdk-chunks' });
      const reader = familyFor(c.family).streamCarriers!(imported.live.policy);
      reader.feed(c.sse!);
      expect(imported.fixture.exchanges[0]!.carriers).toEqual(reader.end().carriers);
      expect(
        imported.streams
          .get(0)!
          .map((e) => e.data)
          .filter((d) => d !== '[DONE]'),
      ).toEqual(lines);
    });
  });
}
