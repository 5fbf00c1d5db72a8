import fc from 'fast-check';
import { describeIssues, METHOD_NAMES, METHODS, type MethodName, type ParamsOf } from '@strand/protocol';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { silentLogger } from '@strand/session';
import { FULL_ACCESS } from '../share/share-gate.js';
import { handleFrame, type ConnectionContext } from './dispatch.js';

/**
 * Drift guard between the protocol's method table and the host's dispatch: for every method, the
 * host refuses params with `RPC_INVALID_PARAMS` exactly when `METHODS[m].params` refuses them,
 * with that schema's issues in the message. Params the schema accepts go past validation: the
 * context here is a trap that fails any use (this test is about the edge, not the methods), so
 * they come back as some other error.
 */

class Reached extends Error {}

function trap(name: string): never {
  throw new Reached(`${name} used past validation`);
}

const services = new Proxy(
  {},
  {
    // The id check after parsing asks persistence whether it could store the id; a trapped use
    // comes back as an internal error, which dispatch reports to the (silent) logger.
    get: (_target, key) =>
      key === 'persistence' ? {} : key === 'logger' ? silentLogger : trap(`services.${String(key)}`),
  },
);
const context = new Proxy(
  {},
  {
    // A connection of the host token: the share gate (`share/share-gate.ts`) lets every method by.
    get: (_target, key) =>
      key === 'services' ? services : key === 'access' ? FULL_ACCESS : trap(`context.${String(key)}`),
  },
) as ConnectionContext;

async function reply(method: string, params: unknown): Promise<{ code: string; message: string } | 'ok'> {
  const { text } = await handleFrame(context, JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }));
  const parsed = JSON.parse(text) as { error?: { message: string; data: { code: string } } };
  return parsed.error === undefined ? 'ok' : { code: parsed.error.data.code, message: parsed.error.message };
}

/** One valid params value per method (typed, so the table is complete and follows the schemas). */
const VALID: { readonly [M in MethodName]: ParamsOf<M> } = {
  'session.list': {},
  'session.search': { query: 'q' },
  'session.follow': { id: 's1' },
  'session.unfollow': { followId: 'f1' },
  'session.listSubscribe': { parent: null },
  'session.listUnsubscribe': { subscriptionId: 'l1' },
  'session.page': { id: 's1', beforeSeq: 3 },
  'session.attachment': { id: 's1', ref: 'r' },
  'session.export': { id: 's1', format: 'markdown' },
  'session.exportTo': { id: 's1', harness: 'claude-code' },
  'session.fork': { id: 's1', atSeq: 2 },
  'subagent.list': { id: 's1', scope: 'children' },
  'session.create': { cwd: '/tmp', model: { provider: 'p', model: 'm' } },
  'session.prompt': { id: 's1', text: 'hi' },
  'session.cancel': { id: 's1' },
  'session.rename': { id: 's1', title: 't' },
  'session.selectModel': { id: 's1', provider: 'p', model: 'm' },
  'session.selectPreset': { id: 's1', preset: null },
  'catalog.models': {},
  'catalog.presets': {},
  'usage.summary': {},
  'share.create': { id: 's1', createdBy: 'cli:me', expiresInMs: null },
  'share.list': {},
  'share.revoke': { grant: 'sg_1' },
};

/**
 * Params from the method's valid example with some of its schema's keys overwritten by values of
 * every JSON kind or dropped, unknown keys added, or arbitrary JSON instead.
 */
function paramsFor(method: MethodName): fc.Arbitrary<unknown> {
  const value = fc.oneof(
    fc.constantFrom('s1', 'descendants', 'p', ''),
    fc.nat(60),
    fc.integer({ min: -2, max: 200_000 }),
    fc.string({ maxLength: 8 }),
    fc.double(),
    fc.boolean(),
    fc.constant(null),
    fc.constant(undefined), // dropped by JSON: the key goes missing
    fc.record({ provider: fc.constantFrom('p', ''), model: fc.constant('m') }),
  );
  const keys = Object.keys(METHODS[method].params.shape);
  const overrides = fc.record(Object.fromEntries(keys.map((key) => [key, value])), { requiredKeys: [] });
  const edited = fc
    .tuple(overrides, fc.option(fc.string({ minLength: 1, maxLength: 4 }), { freq: 4 }))
    .map(([changes, stranger]) => ({
      ...VALID[method],
      ...changes,
      ...(stranger === null ? {} : { [`x${stranger}`]: 1 }),
    }));
  return fc.oneof(
    { weight: 2, arbitrary: fc.constant(VALID[method]) },
    { weight: 6, arbitrary: edited },
    { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 2 }) },
  );
}

describe('host dispatch validates params with the protocol method table', () => {
  beforeEach(() => {
    // Accepted params reach the trap, which the host reports as an internal error (and logs).
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
  });
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('every method has a strict params schema and a result schema', () => {
    for (const method of METHOD_NAMES) {
      const { params, result } = METHODS[method];
      expect(params.safeParse({ surelyNotAParam: 1 }).success, method).toBe(false);
      expect(result.safeParse(undefined).success, method).toBe(false);
    }
  });

  it.each(METHOD_NAMES)(
    '%s: RPC_INVALID_PARAMS exactly when the protocol schema refuses the params',
    async (method) => {
      const seen = { accepted: 0, refused: 0 };
      await fc.assert(
        fc.asyncProperty(paramsFor(method), async (generated) => {
          // What crosses the wire: JSON turns Infinity and NaN into null, -0 into 0.
          const params: unknown = JSON.parse(JSON.stringify(generated));
          const parsed = METHODS[method].params.safeParse(params);
          const answer = await reply(method, params);
          seen[parsed.success ? 'accepted' : 'refused'] += 1;
          if (parsed.success) {
            expect(answer === 'ok' ? 'ok' : answer.code).not.toBe('RPC_INVALID_PARAMS');
          } else {
            expect(answer).toEqual({
              code: 'RPC_INVALID_PARAMS',
              message: `invalid params for ${method}: ${describeIssues(parsed.error, '(params)')}`,
            });
          }
        }),
        { numRuns: 150 },
      );
      // Both sides of the equivalence were exercised, or the property proved nothing.
      expect(seen.accepted, 'accepted params').toBeGreaterThan(0);
      expect(seen.refused, 'refused params').toBeGreaterThan(0);
    },
  );

  it('a method outside the table is RPC_METHOD_NOT_FOUND', async () => {
    expect(await reply('session.nope', {})).toEqual({
      code: 'RPC_METHOD_NOT_FOUND',
      message: 'no method session.nope',
    });
  });
});
