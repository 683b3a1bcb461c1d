/**
 * The pull-request comment: a hidden marker (how a later push finds the comment to update), a
 * headline saying what the exit code means, the Markdown report, and links to the HTML artifact and
 * the workflow run. GitHub refuses a comment body over 65,536 characters; the report is cut first.
 */
export const COMMENT_LIMIT = 65_536;

export type ActionMode = 'gate' | 'agent';

export interface CommentBodyInput {
  mode: ActionMode;
  /** Tells this comment apart from another job's in the same pull request (default: the mode). */
  key?: string;
  exitCode: number;
  /** The Markdown report; undefined when the run wrote none (bad input, an agent that sent nothing). */
  markdown?: string;
  artifactUrl?: string;
  artifactName?: string;
  runUrl?: string;
  headSha?: string;
}

export function commentMarker(mode: ActionMode, key?: string): string {
  return `<!-- reasoning-replay-action:${(key ?? mode).replace(/--|>/g, '-')} -->`;
}

const HEADLINES: Record<ActionMode, Record<number, string>> = {
  gate: {
    0: '✓ the route table conforms on every route it can affect',
    1: '✗ the route-table change breaks a provider rule',
    2: '✗ the gate could not run (bad input, exit 2): see the job log',
  },
  agent: {
    0: '✓ every request the agent sent conformed',
    1: '✗ the agent broke a provider rule',
    2: '✗ the run could not start (bad input, exit 2): see the job log',
    3: '✗ the agent failed (exit 3): see the job log',
  },
};

export function commentBody(input: CommentBodyInput): string {
  const title = input.mode === 'gate' ? 'route-table gate' : 'agent run';
  const headline = HEADLINES[input.mode][input.exitCode] ?? `✗ reasoning-replay exited ${input.exitCode}`;
  const links = [
    ...(input.artifactUrl
      ? [`[HTML report (artifact \`${input.artifactName ?? 'report'}\`)](${input.artifactUrl})`]
      : []),
    ...(input.runUrl ? [`[workflow run](${input.runUrl})`] : []),
  ];
  const head = `${commentMarker(input.mode, input.key)}\n## reasoning-replay: ${title}\n\n${headline}\n\n`;
  const foot =
    `\n\n${links.length ? `**Full report:** ${links.join(' · ')}\n\n` : ''}` +
    `<sub>Updated on every push${input.headSha ? `; this run judged ${input.headSha.slice(0, 12)}` : ''}.</sub>\n`;
  let markdown = input.markdown?.trim() ?? '_No report was written; the job log says why._';
  const room = COMMENT_LIMIT - head.length - foot.length;
  if (markdown.length > room) {
    const note = '\n\n… cut to fit a GitHub comment; the HTML report has everything.';
    markdown = markdown.slice(0, Math.max(0, room - note.length)) + note;
  }
  return head + markdown + foot;
}
