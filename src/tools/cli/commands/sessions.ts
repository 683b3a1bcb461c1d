import { loadProviderSpecs } from '../../../shared/provider-specs/load-provider-specs.js';
import { compress } from '../../../engine/compaction/compress.js';
import { estimateTokens } from '../../../engine/compaction/estimate-tokens.js';
import { InputError } from '../../../shared/errors/input-error.js';
import { loadHistoryAs } from '../../../engine/history-formats/load-history-as.js';
import { defaultRoutesFile, loadRouteTable } from '../../../shared/route-table/load-route-table.js';
import { describeSession } from '../../../engine/session/describe-session.js';
import { findPoisonedCarriers, type PoisonedCarrier } from '../../../engine/history/poisoned-carriers.js';
import { defaultStateDbFile } from '../../../engine/session/open-state-db.js';
import { SessionStore, type SessionSummary } from '../../../engine/session/session-store.js';
import { defineCommand, EXIT_OK, EXIT_VIOLATION } from '../cli-command.js';
import { historyFormatOption, nativeKeyFor, printNotes } from '../history-format-option.js';
import { resolveCliRoute } from '../resolve-cli-route.js';

const ACTIONS = ['list', 'show', 'branch', 'import', 'compact', 'check'] as const;

export function parseSessionId(value: string | undefined, action: string): number {
  if (value === undefined)
    throw new InputError(
      `sessions ${action}`,
      '',
      'missing session id',
      `reasoning-replay sessions ${action} <id>; list them with: reasoning-replay sessions list`,
    );
  if (!/^[1-9]\d*$/.test(value))
    throw new InputError(
      `sessions ${action}`,
      '',
      `"${value}" is not a session id`,
      'session ids are positive integers; see: reasoning-replay sessions list',
    );
  return Number(value);
}

function lineage(s: SessionSummary): string {
  return s.parent ? `${s.parent.kind} of ${s.parent.sessionId} at turn ${s.parent.atTurn}` : s.origin;
}

const out = (text: string) => process.stdout.write(text.endsWith('\n') ? text : `${text}\n`);

export const sessionsCommand = defineCommand({
  command: 'sessions <action> [target]',
  describe:
    'Sessions in state.db: list, show <id>, branch <id> --at N, import <history.json>, compact <id> --budget N, check <id | history.json>',
  builder: (y) =>
    y
      .positional('action', { choices: ACTIONS, demandOption: true, describe: 'what to do' })
      .positional('target', {
        type: 'string',
        describe: 'a session id (show, branch, compact) or a history file (import)',
      })
      .option('db', {
        type: 'string',
        default: defaultStateDbFile(),
        defaultDescription: '$REASONING_REPLAY_DB or ./state.db',
        describe: 'the state.db file',
      })
      .option('at', { type: 'number', describe: 'branch: keep turns 1..N in the new branch' })
      .option('title', { type: 'string', describe: 'import: a title for the new session' })
      .option('history-format', { ...historyFormatOption, describe: `import: ${historyFormatOption.describe}` })
      .option('budget', {
        type: 'number',
        describe: 'compact: token budget (priced by the same estimate as the preflight)',
      })
      .option('route', {
        type: 'string',
        describe:
          "compact: price carriers as this route sends them; import: file Gemini signatures under this route's key",
      })
      .option('provider', { type: 'string' })
      .option('host', { type: 'string' })
      .option('model', { type: 'string' })
      .option('routes', {
        type: 'string',
        default: defaultRoutesFile(),
        defaultDescription: 'specs/routes.json',
        describe: 'route table file',
      })
      .option('json', { type: 'boolean', default: false, describe: 'machine-readable output' })
      .example('$0 sessions import my-history.json --db state.db', 'store a history file as a new session')
      .example(
        '$0 sessions import claude-session.json --history-format anthropic-messages',
        'store an Anthropic Messages history as a session',
      )
      .example('$0 sessions show 1', 'which carriers each turn holds, and the unknown-field verdicts')
      .example(
        '$0 sessions check 1 --model anthropic/claude-sonnet-4.5',
        'stored carriers that can never replay (exit 1 when any): each with its turn and the safe repair',
      )
      .example('$0 sessions branch 1 --at 4', 'a new session with turns 1..4 of session 1')
      .example('$0 sessions compact 1 --budget 2000 --route deepseek', 'a compacted continuation of session 1'),
  run(args) {
    // A history file is checked without any state.db.
    if (args.action === 'check' && args.target !== undefined && !/^\d+$/.test(args.target)) {
      const { history, notes, format } = loadHistoryAs(args.target, args['history-format']);
      printNotes(args.target, notes, { asked: args['history-format'], format });
      return reportPoisoned(
        findPoisonedCarriers(history, args.model ? { model: args.model } : {}),
        args.target,
        args.json,
      );
    }
    const store = SessionStore.open(args.db, { mustExist: args.action !== 'import' });
    try {
      switch (args.action) {
        case 'list': {
          const sessions = store.list();
          if (args.json) out(JSON.stringify(sessions, null, 2));
          else if (sessions.length === 0)
            out(`no sessions in ${args.db} (import one: reasoning-replay sessions import FILE)`);
          else {
            out('id  turns  exchanges  from                          title');
            for (const s of sessions)
              out(
                `${String(s.id).padEnd(3)} ${String(s.turnCount).padStart(5)}  ${String(s.exchangeCount).padStart(9)}  ${lineage(s).padEnd(29)} ${s.title ?? ''}`,
              );
          }
          return EXIT_OK;
        }
        case 'check': {
          const id = parseSessionId(args.target, 'check');
          const resumed = store.resume(id);
          const model =
            args.model ?? (typeof resumed.modelConfig.model === 'string' ? resumed.modelConfig.model : undefined);
          return reportPoisoned(
            findPoisonedCarriers(resumed.history, model ? { model } : {}),
            `session ${id}`,
            args.json,
          );
        }
        case 'show': {
          const described = describeSession(store.resume(parseSessionId(args.target, 'show')));
          if (args.json) {
            out(JSON.stringify(described, null, 2));
            return EXIT_OK;
          }
          const s = described.session;
          out(
            `session ${s.id}${s.title ? ` "${s.title}"` : ''}: ${s.turnCount} turns in ${s.exchangeCount} exchanges (${lineage(s)}), updated ${s.updatedAt}`,
          );
          for (const t of described.turns) {
            const calls = t.toolCalls > 0 ? `  tool_calls:${t.toolCalls}` : '';
            out(
              `  ${String(t.turn).padStart(4)}  ${t.role.padEnd(9)} ${t.carriers.length > 0 ? t.carriers.join('  ') : '-'}${calls}`,
            );
          }
          out(
            described.unknownFieldVerdicts.length === 0
              ? 'unknown-field verdicts: none'
              : 'unknown-field verdicts (withheld from these targets):',
          );
          for (const v of described.unknownFieldVerdicts)
            out(`  ${v.provider} ${v.host} ${v.model}: ${v.fields.join(', ')}`);
          return EXIT_OK;
        }
        case 'branch': {
          const id = parseSessionId(args.target, 'branch');
          if (args.at === undefined || Number.isNaN(args.at))
            throw new InputError(
              '--at',
              '',
              'missing the turn to branch at',
              'sessions branch <id> --at N keeps turns 1..N',
            );
          const child = store.branch(id, args.at);
          out(args.json ? JSON.stringify(store.get(child)) : `session ${child}: branch of ${id} at turn ${args.at}`);
          return EXIT_OK;
        }
        case 'import': {
          if (args.target === undefined)
            throw new InputError(
              'sessions import',
              '',
              'missing the history file',
              'reasoning-replay sessions import history.json',
            );
          // With --route or --provider/--host/--model, Gemini signatures are filed under that route's key.
          const routed = args.route !== undefined || args.provider !== undefined;
          const policy = routed ? resolveCliRoute(loadRouteTable(args.routes), args, loadProviderSpecs()) : undefined;
          const { history, notes, format } = loadHistoryAs(args.target, args['history-format'], {
            geminiNativeKey: nativeKeyFor(policy),
          });
          printNotes(args.target, notes, { asked: args['history-format'], format });
          const id = store.importHistory(history, { title: args.title ?? args.target });
          out(
            args.json
              ? JSON.stringify(store.get(id))
              : `session ${id}: ${history.messages.length} turns imported from ${args.target} into ${args.db}`,
          );
          return EXIT_OK;
        }
        case 'compact': {
          const id = parseSessionId(args.target, 'compact');
          if (args.budget === undefined || !(args.budget > 0))
            throw new InputError(
              '--budget',
              '',
              'missing or not a positive number',
              'sessions compact <id> --budget TOKENS',
            );
          const resumed = store.resume(id);
          const routed = args.route !== undefined || args.provider !== undefined;
          const policy = routed ? resolveCliRoute(loadRouteTable(args.routes), args, loadProviderSpecs()) : undefined;
          const omit = policy ? resumed.verdicts.fieldsFor(policy.target) : undefined;
          const result = compress(resumed.history, args.budget, { policy, omit });
          // Over budget means the command failed: a best-effort session would look like a success in
          // `sessions list` and be resumed by mistake, so nothing is written.
          const child = result.changed && result.status === 'compacted' ? store.saveCompacted(id, result.history) : id;
          const summary = {
            session: child,
            from: id,
            status: result.status,
            estimateBefore: result.estimateBefore,
            estimateAfter: estimateTokens(result.history, { policy, omit }),
            budget: args.budget,
            kept: result.kept.filter((k) => k !== null).length,
            summarized: result.dropped.length,
            ...(result.reason ? { reason: result.reason } : {}),
          };
          if (args.json) out(JSON.stringify(summary, null, 2));
          else if (result.status === 'unchanged')
            out(`session ${id} already fits: ${result.estimateBefore} <= ${args.budget} tokens; nothing written`);
          else if (result.status === 'over-budget')
            out(
              `session ${id} cannot be compacted to ${args.budget} tokens (the best compaction still needs ${summary.estimateAfter}); nothing written${result.reason ? `\n  ${result.reason}` : ''}\n  hint: raise --budget to at least ${summary.estimateAfter}`,
            );
          else
            out(
              `session ${child}: ${result.status} from session ${id}, ${summary.estimateBefore} -> ${summary.estimateAfter} tokens (budget ${args.budget}), ${summary.kept} turns kept, ${summary.summarized} summarized${result.reason ? `\n  ${result.reason}` : ''}`,
            );
          return result.status === 'over-budget' ? EXIT_VIOLATION : EXIT_OK;
        }
      }
      return EXIT_OK;
    } finally {
      store.close();
    }
  },
});

/** `sessions check`: each carrier that can never replay, with its turn and repair; exit 1 when there is one. */
function reportPoisoned(found: PoisonedCarrier[], what: string, json: boolean): number {
  if (json) out(JSON.stringify(found, null, 2));
  else if (found.length === 0) out(`${what}: no stored carrier that can never replay`);
  else {
    out(`${what}: ${found.length} stored carrier${found.length === 1 ? '' : 's'} that can never replay`);
    for (const f of found)
      out(`  turn ${f.turn} ${f.pointer}: ${f.kind}, ${f.detail}\n    repair: ${f.repair} (${f.source})`);
  }
  return found.length === 0 ? EXIT_OK : EXIT_VIOLATION;
}
