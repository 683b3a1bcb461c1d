import { afterEach, describe, expect, it, vi } from 'vitest';
import { EXIT_OK, EXIT_VIOLATION } from '../cli-command.js';
import { InputError } from '../../../shared/errors/input-error.js';
import { realWorldCommand } from './real-world.js';
import { loadRealWorldCases } from '../../services/real-world-cases/real-world-case.js';

function capture(): { text: () => string } {
  let out = '';
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    out += String(chunk);
    return true;
  });
  return { text: () => out };
}

afterEach(() => vi.restoreAllMocks());

describe('reasoning-replay real-world', () => {
  it('prints one provider’s agreement and exits by what it found', async () => {
    const out = capture();
    const code = await realWorldCommand.run({ provider: 'moonshot', json: false, strict: false } as never);
    expect(out.text()).toMatch(/^moonshot +\d+\/\d+ +agree/m);
    expect(out.text()).toMatch(/real-world cases: \d+ \(/);
    // Each basis with a case, then the undated count: 'dated cases: 12/14 (published 9, read 3; 2 without a date)'.
    expect(out.text()).toMatch(
      /^dated cases: \d+\/\d+ \(((published|recorded|committed|page-updated|read) \d+(, |; ))*\d+ without a date\)$/m,
    );
    const disagreeing = /(\d+) disagree\n*$/.exec(out.text());
    expect(code).toBe(disagreeing ? EXIT_VIOLATION : EXIT_OK);
  });

  it('shows one case: source, resolved request and the mock answer', async () => {
    const out = capture();
    const id = 'anthropic-tool-loop-thinking-echoed-accepted-docs';
    expect(await realWorldCommand.run({ case: id, json: false, strict: false } as never)).toBe(EXIT_OK);
    expect(out.text()).toContain(`${id} (specs/real-world/${id}.json)`);
    expect(out.text()).toContain('POST https://api.anthropic.com/v1/messages');
    expect(out.text()).not.toContain('$mockSignature');
    expect(out.text()).toMatch(/mock answer: \d{3}/);
    // An accepted case is answered from a fixture, as the replay does, not with the harness's 599.
    expect(out.text()).toMatch(/mock answer: 200\n/);
  });

  it('prints JSON rows for every provider it was asked about', async () => {
    const out = capture();
    await realWorldCommand.run({ provider: 'groq', json: true, strict: false } as never);
    const section = JSON.parse(out.text()) as { providers: Array<{ provider: string; cases: number }> };
    expect(section.providers).toEqual([
      expect.objectContaining({
        provider: 'groq',
        cases: loadRealWorldCases().filter((c) => c.case.provider === 'groq').length,
      }),
    ]);
  });

  it('narrows to one rule class and prints agreement per class and the coverage of the spec rules', async () => {
    const out = capture();
    await realWorldCommand.run({ class: 'leniency', json: false, strict: false, uncovered: true } as never);
    const leniency = loadRealWorldCases().filter((c) => c.case.ruleClass === 'leniency').length;
    expect(out.text()).toMatch(new RegExp(`^leniency +\\d+/${leniency} +agree`, 'm'));
    expect(out.text()).toMatch(/^history-structure +0\/0 +agree/m);
    expect(out.text()).toMatch(/^total +\d+\/\d+ +rules fired by a case/m);
    expect(out.text()).toMatch(/^rules no case fires \(\d+\):$/m);
    // Per spec, its rule classes with rules/cases, and the pairs with rules and no case of this class's cases.
    expect(out.text()).toMatch(/^anthropic +.*reasoning-signature \d+\/\d+/m);
    expect(out.text()).toMatch(/^spec and class pairs with rules and no case \(\d+\):/m);
    expect(out.text()).toMatch(/^ {2}anthropic\/history-structure$/m);
  });

  it('refuses an unknown provider or case as bad input', async () => {
    await expect(
      realWorldCommand.run({ provider: 'nope', json: false, strict: false } as never),
    ).rejects.toBeInstanceOf(InputError);
    await expect(realWorldCommand.run({ case: 'nope', json: false, strict: false } as never)).rejects.toThrow(
      /no real-world case "nope"/,
    );
  });
});
