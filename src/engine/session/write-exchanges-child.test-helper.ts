/**
 * Child process for the crash test: appends exchanges to a state.db as fast as it can until it is
 * killed. Each exchange is EXCHANGE_SIZE messages with large carriers, so a kill is likely to land
 * in the middle of one. Prints "ready <sessionId>" once the first exchange is committed.
 */
import type { Message } from '../../shared/history/history.js';
import { SessionStore } from './session-store.js';

export const EXCHANGE_SIZE = 4;

export function exchangeMessages(n: number): Message[] {
  const big = `thinking ${n} `.repeat(4000);
  return [
    { role: 'user', content: `question ${n}` },
    {
      role: 'assistant',
      content: null,
      reasoning_content: big,
      reasoning_details: [{ type: 'reasoning.encrypted', data: Buffer.from(big).toString('base64'), index: 0 }],
      tool_calls: [{ id: `call_${n}`, type: 'function', function: { name: 'f', arguments: '{}' } }],
    },
    { role: 'tool', tool_call_id: `call_${n}`, content: 'ok' },
    { role: 'assistant', content: `answer ${n}`, reasoning_content: ' ' },
  ];
}

const isMain = process.argv[1] !== undefined && import.meta.url.endsWith(process.argv[1].split('/').pop()!);
if (isMain) {
  const [file] = process.argv.slice(2);
  const store = SessionStore.open(file!);
  const id = store.createSession({ title: `child ${process.pid}` });
  for (let n = 1; ; n++) {
    store.appendExchange(id, exchangeMessages(n));
    if (n === 1) process.stdout.write(`ready ${id}\n`);
  }
}
