import { useEffect, useState } from 'react';

/**
 * The current time, re-read every `everyMs`: the clock relative labels ("3 min ago") are
 * computed against, so they age while the page stays open without every row reading the clock.
 */
export function useNow(everyMs: number): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    setNow(Date.now());
    const timer = setInterval(() => setNow(Date.now()), everyMs);
    return () => clearInterval(timer);
  }, [everyMs]);
  return now;
}
