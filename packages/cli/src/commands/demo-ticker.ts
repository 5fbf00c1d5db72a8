import { SCRIPTED_ROUTE } from '@strand/agent';
import type { StrandRuntime } from '@strand/runtime';
import { SessionId, type Logger } from '@strand/session';
import { DEMO_LIVE_SESSION } from './demo-corpus.js';

/** Pause between ticks: a demo that looks alive without flooding the log. */
const TICK_INTERVAL_MS = 3000;

/**
 * Keeps `demo-live` live and producing events: it holds a lease on the session's agent (so it
 * stays attached between turns) and prompts it every few seconds. Every tick runs on the built-in
 * scripted model, whatever else the host is configured with or the session selected: a demo must
 * never spend a paid endpoint's tokens (or a person's key) forever.
 */
export function startDemoTicker(runtime: StrandRuntime, logger: Logger): () => void {
  let stopped = false;
  let release: (() => void) | undefined;
  let wake: (() => void) | undefined;
  let tick = 0;
  const loop = async (): Promise<void> => {
    try {
      const lease = await runtime.agents.activate(SessionId(DEMO_LIVE_SESSION));
      release = () => lease.release();
    } catch (error) {
      logger.error('demo: the live session could not be activated', { error });
      return;
    }
    while (!stopped) {
      try {
        const { outcome } = await runtime.agents.prompt(
          SessionId(DEMO_LIVE_SESSION),
          `Tick ${++tick}: report what changed since the last tick.`,
          { model: SCRIPTED_ROUTE },
        );
        await outcome;
      } catch (error) {
        if (!stopped) logger.error('demo: the live session could not run a turn', { error });
      }
      if (stopped) break;
      await new Promise<void>((resolve) => {
        wake = resolve;
        setTimeout(resolve, TICK_INTERVAL_MS);
      });
    }
  };
  void loop();
  return () => {
    stopped = true;
    wake?.();
    release?.();
  };
}
