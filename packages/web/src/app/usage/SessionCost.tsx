import { useEffect, useState } from 'react';
import { Box, Text } from '@mantine/core';
import { readUsageValue } from '@strand/client';
import { describeError } from '../shared/format.js';
import { isHarnessName } from '../shared/harness-labels.js';
import { useConnectionState, useStrand } from '../shared/hooks.js';
import { formatCost } from './usage-format.js';

/** After the session's tokens change, how long to wait for more before asking again (a turn's steps come in bursts). */
const SETTLE_MS = 1000;

type Cost =
  | { readonly status: 'loading' }
  | { readonly status: 'error'; readonly message: string }
  | {
      readonly status: 'ready';
      readonly cost: number | null;
      readonly unpriced: readonly string[];
      /** What the harness itself reported (Claude Code's `cost-state`), if it did. */
      readonly reported: number | null;
    };

/**
 * The session's own cost, beside its usage in the header. The host prices it (`usage.summary`
 * `by: 'session'`); the browser never does. Narrowed to the session's project and harness, the
 * call reads only that project's sessions' usage rows — besides the corpus listing, which the
 * session list already asks for every 4 s — so one call on opening and one after its tokens change
 * costs little. A fork's inherited prefix is its parent's cost, as in the usage page.
 */
export function SessionCost({
  sessionId,
  cwd,
  harness,
  usage,
}: {
  sessionId: string;
  cwd: string | undefined;
  harness: string;
  /** The `usage` projection's value: a change of its own tokens asks again. */
  usage: unknown;
}): React.JSX.Element {
  const { connection } = useStrand();
  const state = useConnectionState();
  const [cost, setCost] = useState<Cost>({ status: 'loading' });
  const own = readUsageValue(usage)?.own;
  const tokens = own === undefined ? -1 : own.input + own.output + own.cacheCreation + own.cacheRead;

  useEffect(() => {
    if (state !== 'open') return undefined;
    let current = true;
    const timer = setTimeout(() => {
      connection
        .call('usage.summary', {
          by: 'session',
          ...(cwd === undefined || cwd === '' ? {} : { cwd }),
          ...(isHarnessName(harness) ? { harness } : {}),
        })
        .then(
          ({ rows }) => {
            const row = rows.find((r) => r.key === sessionId);
            if (current)
              setCost({
                status: 'ready',
                cost: row?.totalCost ?? null,
                unpriced: row?.unpricedModels ?? [],
                reported: row?.reportedCost ?? null,
              });
          },
          (failure: unknown) => {
            if (current) setCost({ status: 'error', message: describeError(failure) });
          },
        );
    }, SETTLE_MS);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [connection, state, sessionId, cwd, harness, tokens]);

  return (
    <Box data-testid="view-cost" data-status={cost.status}>
      <Text size="xs" c="dimmed">
        Cost
      </Text>
      {cost.status === 'error' ? (
        <Text size="sm" c="red">
          {cost.message}
        </Text>
      ) : (
        <Text
          size="sm"
          className="strand-num-figure"
          title={
            cost.status === 'ready' && cost.unpriced.length > 0
              ? `Not priced: ${cost.unpriced.join(', ')}`
              : undefined
          }
        >
          {cost.status === 'loading' ? '…' : formatCost(cost.cost)}
          {cost.status === 'ready' && cost.cost !== null && cost.unpriced.length > 0 ? ' *' : ''}
        </Text>
      )}
      {cost.status === 'ready' && cost.reported !== null && (
        <Text
          size="xs"
          c="dimmed"
          data-testid="view-reported-cost"
          title="The cost the harness itself reported"
        >
          harness: {formatCost(cost.reported)}
        </Text>
      )}
    </Box>
  );
}
