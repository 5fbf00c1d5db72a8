/** The page's three regions, by the ids `App` gives its landmarks. */
export const REGION = {
  sessions: 'strand-sessions',
  transcript: 'strand-transcript',
  subagents: 'strand-subagents',
} as const;

export type Region = keyof typeof REGION;

/**
 * The first things Tab reaches: links that jump to the session list, the transcript and the
 * subagent panel, shown only while focused. A region collapsed at this width (a phone's list,
 * the panel below 1200 px) is opened first by `reveal`, then focused.
 */
export function SkipLinks({ reveal }: { reveal: (region: Region) => void }): React.JSX.Element {
  const jump = (region: Region) => (event: React.MouseEvent<HTMLAnchorElement>) => {
    event.preventDefault();
    reveal(region);
    // After the drawer's open state rendered: a hidden element cannot take focus.
    requestAnimationFrame(() => document.getElementById(REGION[region])?.focus());
  };
  return (
    <nav aria-label="Skip links" className="strand-skip-links">
      <a href={`#${REGION.transcript}`} onClick={jump('transcript')} data-testid="skip-transcript">
        Skip to transcript
      </a>
      <a href={`#${REGION.sessions}`} onClick={jump('sessions')} data-testid="skip-sessions">
        Skip to session list
      </a>
      <a href={`#${REGION.subagents}`} onClick={jump('subagents')} data-testid="skip-subagents">
        Skip to subagents
      </a>
    </nav>
  );
}
