/**
 * Child process for the concurrency test: opens a state.db, says "ready", waits for "go" on stdin,
 * then appends `count` exchanges, alternating between its own session and a session shared with the
 * other writer. Any error (SQLITE_BUSY included) goes to stderr with exit code 1.
 */
import type { Message } from '../../src/shared/history/history.js';
import { SessionStore } from '../../src/engine/session/session-store.js';

/** One exchange of writer `who`, number `n`: carriers big enough that commits take a while. */
export function writerExchange(who: string, n: number): Message[] {
  const thinking = `${who} thinks about step ${n}. `.repeat(200);
  return [
    { role: 'user', content: `${who} asks ${n}` },
    {
      role: 'assistant',
      content: null,
      reasoning_content: thinking,
      reasoning_details: [
        {
          type: 'reasoning.text',
          text: thinking,
          signature: Buffer.from(`${who}-${n}`).toString('base64'),
          format: 'anthropic-claude-v1',
          index: 0,
        },
      ],
      tool_calls: [{ id: `${who}_call_${n}`, type: 'function', function: { name: 'search', arguments: `{"n":${n}}` } }],
    },
    { role: 'tool', tool_call_id: `${who}_call_${n}`, content: `result ${n}` },
  ];
}

function otherHasWritten(store: SessionStore, own: number): boolean {
  const row = store.db
    .prepare(
      'SELECT count(*) AS n FROM turns WHERE session_id <> ? AND session_id IN (SELECT id FROM sessions WHERE origin = ?)',
    )
    .get(own, 'new') as { n: number };
  return row.n > 0;
}

const isMain = process.argv[1] !== undefined && import.meta.url.endsWith(process.argv[1].split('/').pop()!);
if (isMain) {
  const [file, who, sharedId, countArg] = process.argv.slice(2) as [string, string, string, string];
  const store = SessionStore.open(file);
  const own = store.createSession({ title: who });
  process.stdout.write(`ready ${own}\n`);
  process.stdin.once('data', () => {
    try {
      for (let n = 1; n <= Number(countArg); n++) {
        store.appendExchange(n % 2 === 0 ? Number(sharedId) : own, writerExchange(who, n));
        // After its first commit each writer waits for the other's, so the rest truly overlaps.
        while (n === 1 && otherHasWritten(store, own) === false)
          Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 2);
      }
      store.close();
      process.stdout.write('done\n');
      process.exit(0);
    } catch (err) {
      process.stderr.write(
        `${(err as { code?: string }).code ?? ''} ${err instanceof Error ? err.message : String(err)}\n`,
      );
      process.exit(1);
    }
  });
}
