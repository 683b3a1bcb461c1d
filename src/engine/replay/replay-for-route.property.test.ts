import { describe, expect, test } from 'vitest';
import fc from 'fast-check';
import { wireCarrierKeys, stringLeaves } from '../../judge/conformance/wire-carriers.js';
import { implementedFamilies } from '../families/registry.js';
import { hasStoredReasoning } from '../history/carriers.js';
import { aHistory } from '../../../test/helpers/history-arbitraries.test-helper.js';
import { deepFreeze } from '../../shared/objects/deep-freeze.js';
import { sampleTargetForRoute } from '../../shared/route-table/sample-target.js';
import type { History } from '../../shared/history/history.js';
import { loadRouteTable } from '../../shared/route-table/load-route-table.js';
import { resolveRoute } from '../../shared/route-table/resolve-route.js';
import type { RouteDefinition, RoutePolicy } from '../../shared/route-table/route-table.js';
import { replayForRoute } from './replay-for-route.js';
import { MUST_ECHO_PLACEHOLDER, hasReadableReasoning, isToolCallTurn } from '../policy/select-carriers.js';

const runs = Number(process.env.FC_RUNS ?? 200);
const table = loadRouteTable();
const families = new Set(implementedFamilies());

/** A target that lands on `route`, with a model its vendor flags react to (unless the route filters models itself). */
function policyOf(route: RouteDefinition, model: string): RoutePolicy {
  const sample = sampleTargetForRoute(route);
  const policy = resolveRoute(table, route.match.models ? sample : { ...sample, model });
  expect(policy.routeId).toBe(route.id);
  return policy;
}

const aRoute = () => fc.constantFrom(...table.routes.filter((r) => families.has(r.family)));
const aModel = () =>
  fc.constantFrom(
    'k2.6-thinking',
    'qwen3.6-plus',
    'glm-5.1',
    'claude-sonnet-4-5',
    'gemini-3-pro',
    'deepseek-r1',
    'plain-model',
  );
const chatShaped = (policy: RoutePolicy) => policy.family === 'openai-chat';
const BASE_MESSAGE_KEYS = new Set(['role', 'content', 'name', 'tool_calls', 'tool_call_id']);

function build(history: History, policy: RoutePolicy) {
  return replayForRoute(deepFreeze(structuredClone(history)), policy, {
    tools: [{ type: 'function', function: { name: 't' } }],
  }).body;
}

describe('replayForRoute on every route of the bundled table', () => {
  test('never edits the history it is given', () => {
    fc.assert(
      fc.property(aHistory, aRoute(), aModel(), (history, route, model) => {
        const before = JSON.stringify(history);
        replayForRoute(deepFreeze(history), policyOf(route, model));
        expect(JSON.stringify(history)).toBe(before);
      }),
      { numRuns: runs },
    );
  });

  test('sends a strict route not one reasoning key', () => {
    fc.assert(
      fc.property(aHistory, aRoute(), aModel(), (history, route, model) => {
        const policy = policyOf(route, model);
        fc.pre(policy.tier === 'strict');
        expect(wireCarrierKeys(build(history, policy).messages)).toEqual([]);
      }),
      { numRuns: runs },
    );
  });

  test('sends chat routes only the carrier fields they read', () => {
    fc.assert(
      fc.property(aHistory, aRoute(), aModel(), (history, route, model) => {
        const policy = policyOf(route, model);
        fc.pre(chatShaped(policy));
        const messages = build(history, policy).messages as Array<Record<string, unknown>>;
        messages.forEach((wire, i) => {
          for (const key of Object.keys(wire).filter((k) => !BASE_MESSAGE_KEYS.has(k))) {
            const pad = key === 'reasoning_content' && policy.tier === 'must-echo';
            expect(policy.fields.includes(key as never) || pad, `${policy.routeId} message ${i} carries ${key}`).toBe(
              true,
            );
          }
        });
      }),
      { numRuns: runs },
    );
  });

  test('pads exactly the must-echo tool turns that have no readable reasoning', () => {
    fc.assert(
      fc.property(aHistory, aRoute(), aModel(), (history, route, model) => {
        const policy = policyOf(route, model);
        fc.pre(chatShaped(policy));
        const messages = build(history, policy).messages as Array<Record<string, unknown>>;
        history.messages.forEach((source, i) => {
          const sent = messages[i]!.reasoning_content;
          const shouldPad = policy.tier === 'must-echo' && isToolCallTurn(source) && !hasReadableReasoning(source);
          if (shouldPad) expect(sent, `${policy.routeId} message ${i}`).toBe(MUST_ECHO_PLACEHOLDER);
          else
            expect(
              sent === MUST_ECHO_PLACEHOLDER && !hasStoredReasoning(source),
              `${policy.routeId} message ${i} got a pad`,
            ).toBe(false);
          if (policy.tier === 'must-echo' && isToolCallTurn(source))
            expect(typeof sent === 'string' && sent !== '').toBe(true);
        });
      }),
      { numRuns: runs },
    );
  });

  test('adds vendor flags on their own route only', () => {
    fc.assert(
      fc.property(aHistory, aRoute(), aModel(), (history, route, model) => {
        const policy = policyOf(route, model);
        fc.pre(chatShaped(policy));
        const body = build(history, policy);
        const extra = Object.keys(body).filter((k) => !['model', 'messages', 'tools', 'stream'].includes(k));
        expect(extra.sort()).toEqual(Object.keys(policy.flags).sort());
        for (const key of extra) expect(body[key]).toEqual(policy.flags[key]);
      }),
      { numRuns: runs },
    );
  });

  test('never lets a native record reach a route that does not own it', () => {
    fc.assert(
      fc.property(aHistory, aRoute(), aModel(), (history, route, model) => {
        const policy = policyOf(route, model);
        const text = JSON.stringify(build(history, policy));
        // A value that also stands outside the native records (generated text can repeat) proves nothing.
        const elsewhere = JSON.stringify(history.messages.map(({ native: _native, ...rest }) => rest));
        for (const message of history.messages) {
          if (!message.native || message.native.route === policy.native) continue;
          for (const value of stringLeaves(message.native.fields)) {
            const quoted = JSON.stringify(value).slice(1, -1);
            if (!elsewhere.includes(quoted))
              expect(text.includes(quoted), `${message.native.route} record leaked to ${policy.routeId}`).toBe(false);
          }
        }
      }),
      { numRuns: runs },
    );
  });
});
