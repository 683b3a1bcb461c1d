import { pythonEnv, type PythonEnv } from '../../src/tools/commands/frameworks/python-venv.js';

/** Python with the matrix's SDKs, or the reason there is none (printed by the caller as a skip). */
export type PythonClients = PythonEnv;

/**
 * A venv holding the pinned Python SDKs of test/real-clients/clients/requirements.txt, made once per
 * file content by the same helper `npm run frameworks` uses (src/tools/commands/frameworks/python-venv.ts).
 */
export function pythonClients(): PythonClients {
  return pythonEnv('test/real-clients/clients/requirements.txt');
}
