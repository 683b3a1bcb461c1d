#!/usr/bin/env node
import { main } from '../dist/src/cli/main.js';

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (err) => {
    console.error(`reasoning-replay: internal error: ${err?.stack ?? err}`);
    process.exitCode = 70;
  },
);
