import { describe, expect, it } from 'vitest';
import yargs from 'yargs';
import { skipHelpCache, usageInstance } from './skip-help-cache.js';

const parserFor = (argv: string[], ran: string[]) =>
  yargs(argv)
    .exitProcess(false)
    .command(
      'go',
      'runs',
      (y) => y.option('speed', { type: 'number', describe: 'how fast to go' }),
      () => {
        ran.push('go');
      },
    );

describe('skipHelpCache', () => {
  it('runs the command without rendering its help text', async () => {
    const ran: string[] = [];
    const plain = parserFor(['go'], ran);
    await plain.parseAsync();
    // Without the skip, yargs keeps the rendered help once the handler starts.
    expect(usageInstance(plain).hasCachedHelpMessage()).toBe(true);
    const skipped = skipHelpCache(parserFor(['go'], ran));
    await skipped.parseAsync();
    expect(usageInstance(skipped).hasCachedHelpMessage()).toBe(false);
    expect(ran).toEqual(['go', 'go']);
  });

  it("leaves --help printing the command's options", async () => {
    const printed: string[] = [];
    const parser = skipHelpCache(parserFor([], [])).help();
    await parser.parseAsync(['go', '--help'], {}, (_err, _argv, output) => {
      printed.push(output);
    });
    expect(printed.join('')).toContain('how fast to go');
  });
});
