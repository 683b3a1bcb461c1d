import { describe, expect, it } from 'vitest';
import { commands, commandsFor } from './index.js';

describe('the command catalog (commands load only when they run)', () => {
  it('names each entry by the first word of the command it loads, once', async () => {
    const loaded = await Promise.all(
      commands.map(async (entry) => ({ name: entry.name, command: (await entry.load()).command })),
    );
    for (const { name, command } of loaded) expect(command.split(' ')[0]).toBe(name);
    expect(new Set(commands.map((c) => c.name)).size).toBe(commands.length);
  });

  it('loads only the command the arguments name, options before it or not', () => {
    expect(commandsFor(['check', '--quiet']).map((c) => c.name)).toEqual(['check']);
    expect(commandsFor(['--no-color', 'sessions', 'list']).map((c) => c.name)).toEqual(['sessions']);
  });

  it('loads every command for the top-level help, no command, or an unknown one (so a typo gets its suggestion)', () => {
    for (const argv of [[], ['--help'], ['chek']]) expect(commandsFor(argv)).toHaveLength(commands.length);
  });
});
