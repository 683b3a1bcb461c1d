import { spawn } from 'node:child_process';
import { cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parse } from 'yaml';

/**
 * Runs action.yml's composite steps the way GitHub's runner does, as far as these steps need: each
 * `run:` through `bash --noprofile --norc -eo pipefail` (GitHub's `shell: bash`), `${{ }}` in
 * `env:`, `with:` and `working-directory:` filled from the github, inputs, steps and runner
 * contexts, `if:` evaluated, outputs read back from $GITHUB_OUTPUT. The steps are read from the file
 * itself, so the test breaks when they drift. `uses:` steps are stood in for: actions/upload-artifact
 * copies the folder and answers an artifact-url; any other one that would run fails the test. An
 * expression outside the small grammar below throws rather than guessing.
 */
export interface ActionStep {
  id?: string;
  name?: string;
  if?: string;
  uses?: string;
  run?: string;
  shell?: string;
  env?: Record<string, string>;
  with?: Record<string, string>;
  'working-directory'?: string;
}

export interface ActionFile {
  inputs: Record<string, { default?: string }>;
  outputs: Record<string, { value: string }>;
  runs: { using: string; steps: ActionStep[] };
}

export interface StepRecord {
  step: ActionStep;
  ran: boolean;
  code: number;
  stdout: string;
  stderr: string;
}

export interface ActionRun {
  steps: StepRecord[];
  outputs: Record<string, string>;
  stdout: string;
  stderr: string;
  /** The job's conclusion: the first failing step's exit code, else 0. */
  code: number;
  /** Folders uploaded as artifacts, by artifact name. */
  artifacts: Map<string, string>;
}

export interface RunActionOptions {
  actionPath: string;
  workspace: string;
  with: Record<string, string>;
  /** The job environment (GITHUB_*, RUNNER_TEMP, PATH, HOME); GITHUB_OUTPUT is set per step. */
  env: Record<string, string>;
  /** The github context beyond what env gives: token, event. */
  github: { token: string; event: unknown };
  artifactsDir: string;
}

export function readActionFile(file: string): ActionFile {
  return parse(readFileSync(file, 'utf8')) as ActionFile;
}

type Contexts = Record<string, unknown>;

function lookup(contexts: Contexts, path: string): string {
  let at: unknown = contexts;
  for (const key of path.split('.')) {
    if (at === null || typeof at !== 'object') return '';
    at = (at as Record<string, unknown>)[key];
  }
  if (at === undefined || at === null) return '';
  return typeof at === 'object' ? JSON.stringify(at) : String(at);
}

const PATH = /^[a-z_][\w-]*(?:\.[\w-]+)*$/i;

function operand(contexts: Contexts, text: string): string {
  const t = text.trim();
  const literal = /^'((?:[^']|'')*)'$/.exec(t);
  if (literal) return literal[1]!.replace(/''/g, "'");
  if (PATH.test(t)) return lookup(contexts, t);
  throw new SyntaxError(`expression outside the test runner's grammar: ${t}`);
}

/** `always()`, `a == 'x'`, `a != 'x'`, a context path, joined by `&&`: what action.yml's `if:`s use. */
export function evaluateCondition(contexts: Contexts, condition: string): boolean {
  const text = condition.replace(/^\s*\$\{\{([\s\S]*)\}\}\s*$/, '$1');
  return text.split('&&').every((term) => {
    const t = term.trim();
    if (t === 'always()') return true;
    if (t === 'success()') return true;
    const cmp = /^(.*?)\s*(==|!=)\s*(.*)$/.exec(t);
    if (cmp) {
      // GitHub compares strings case-insensitively.
      const equal = operand(contexts, cmp[1]!).toLowerCase() === operand(contexts, cmp[3]!).toLowerCase();
      return cmp[2] === '==' ? equal : !equal;
    }
    return operand(contexts, t) !== '';
  });
}

export function substitute(contexts: Contexts, text: string): string {
  return text.replace(/\$\{\{([\s\S]*?)\}\}/g, (_m, expr: string) => operand(contexts, expr));
}

function readOutputs(file: string): Record<string, string> {
  const outputs: Record<string, string> = {};
  const lines = readFileSync(file, 'utf8').split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const heredoc = /^([^=<]+)<<(.+)$/.exec(line);
    if (heredoc) {
      const value: string[] = [];
      while (++i < lines.length && lines[i] !== heredoc[2]) value.push(lines[i]!);
      outputs[heredoc[1]!] = value.join('\n');
    } else if (line.includes('=')) outputs[line.slice(0, line.indexOf('='))] = line.slice(line.indexOf('=') + 1);
  }
  return outputs;
}

function bash(script: string, cwd: string, env: Record<string, string>, dir: string, n: number) {
  const file = join(dir, `step-${n}.sh`);
  writeFileSync(file, script);
  return new Promise<{ code: number; stdout: string; stderr: string }>((done, fail) => {
    const child = spawn('bash', ['--noprofile', '--norc', '-eo', 'pipefail', file], { cwd, env });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString('utf8')));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
    child.on('error', fail);
    child.on('close', (code) => done({ code: code ?? 1, stdout, stderr }));
  });
}

export async function runCompositeAction(action: ActionFile, options: RunActionOptions): Promise<ActionRun> {
  if (action.runs.using !== 'composite') throw new TypeError(`not a composite action: ${action.runs.using}`);
  const steps: Record<string, { outputs: Record<string, string> }> = {};
  const contexts: Contexts = {
    github: {
      action_path: options.actionPath,
      token: options.github.token,
      event: options.github.event,
      workspace: options.workspace,
      repository: options.env.GITHUB_REPOSITORY,
    },
    runner: { temp: options.env.RUNNER_TEMP },
    steps,
  };
  const inputs: Record<string, string> = {};
  for (const [name, input] of Object.entries(action.inputs))
    inputs[name] = options.with[name] ?? substitute(contexts, input.default ?? '');
  contexts.inputs = inputs;
  const records: StepRecord[] = [];
  const artifacts = new Map<string, string>();
  let failed = 0;
  for (const [n, step] of action.runs.steps.entries()) {
    const condition = step.if ?? 'success()';
    const wanted = /always\(\)/.test(condition) || failed === 0;
    if (!wanted || !evaluateCondition(contexts, condition)) {
      records.push({ step, ran: false, code: 0, stdout: '', stderr: '' });
      continue;
    }
    const outputFile = join(options.env.RUNNER_TEMP!, `github-output-${n}`);
    writeFileSync(outputFile, '');
    let record: StepRecord;
    if (step.uses) {
      const withValues = Object.fromEntries(
        Object.entries(step.with ?? {}).map(([k, v]) => [k, substitute(contexts, String(v))]),
      );
      if (!step.uses.startsWith('actions/upload-artifact@'))
        throw new TypeError(`step "${step.name}" would run ${step.uses}, which this test runner does not stand in for`);
      const target = join(options.artifactsDir, withValues.name!);
      mkdirSync(target, { recursive: true });
      cpSync(withValues.path!, target, { recursive: true });
      artifacts.set(withValues.name!, target);
      writeFileSync(
        outputFile,
        `artifact-url=https://github.example/artifacts/${encodeURIComponent(withValues.name!)}\n`,
      );
      record = { step, ran: true, code: 0, stdout: '', stderr: '' };
    } else {
      if (step.shell !== 'bash') throw new TypeError(`step "${step.name}" has shell ${step.shell}, not bash`);
      const stepEnv = Object.fromEntries(
        Object.entries(step.env ?? {}).map(([k, v]) => [k, substitute(contexts, String(v))]),
      );
      const cwd = resolve(options.workspace, substitute(contexts, step['working-directory'] ?? '.'));
      const result = await bash(
        step.run ?? '',
        cwd,
        { ...options.env, ...stepEnv, GITHUB_OUTPUT: outputFile },
        options.env.RUNNER_TEMP!,
        n,
      );
      record = { step, ran: true, ...result };
    }
    if (step.id) steps[step.id] = { outputs: readOutputs(outputFile) };
    if (record.code !== 0 && failed === 0) failed = record.code;
    records.push(record);
  }
  const outputs = Object.fromEntries(
    Object.entries(action.outputs).map(([name, o]) => [name, substitute(contexts, o.value)]),
  );
  return {
    steps: records,
    outputs,
    stdout: records.map((r) => r.stdout).join(''),
    stderr: records.map((r) => r.stderr).join(''),
    code: failed,
    artifacts,
  };
}
