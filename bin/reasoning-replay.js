#!/usr/bin/env node
import { existsSync } from 'node:fs';
import v8 from 'node:v8';

// A git clone holds the TypeScript sources only; the CLI runs from dist/. Say so in one line
// rather than let Node print a module-resolution stack trace.
if (!existsSync(new URL('../dist/src/tools/cli/main.js', import.meta.url))) {
  console.error('reasoning-replay: not built yet (dist/ is missing); run `npm run build` in the package folder');
  process.exit(2);
}

// A CLI run lasts a second or two. At V8's default tier-up budget its optimizing compiler spends
// about 0.4 CPU-s on background threads compiling functions the run is nearly done with; 8x the
// budget lets only the really hot ones tier up (docs/decisions/0034-cli-tier-up-budget.md). `serve`
// runs long and keeps V8's own (0042). Set before the CLI's modules load, so their functions get it;
// REASONING_REPLAY_V8_DEFAULTS=1 keeps V8's own everywhere. The module read first imports nothing.
const { wantsRaisedTierUpBudget, RAISED_INTERRUPT_BUDGET } = await import('../dist/src/tools/cli/tier-up-budget.js');
if (wantsRaisedTierUpBudget(process.argv.slice(2), process.env))
  v8.setFlagsFromString(`--interrupt-budget=${RAISED_INTERRUPT_BUDGET}`);

// `reasoning-replay real-world | head`: the reader has what it wanted and closed the pipe. That is
// not an error of ours, so end quietly (as `cat` does) instead of Node's unhandled-error stack trace.
for (const stream of [process.stdout, process.stderr])
  stream.on('error', (err) => {
    if (err?.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw err;
  });

const { main } = await import('../dist/src/tools/cli/main.js');

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (err) => {
    console.error(`reasoning-replay: internal error: ${err?.stack ?? err}`);
    process.exitCode = 70;
  },
);
