/** What the UI asks to open: a session, optionally at one of its events. */
export interface OpenRequest {
  readonly id: string;
  /** The session is a subagent child (read-only); `undefined` when not known yet. */
  readonly child?: boolean;
  /** Open at this event (scrolled to and highlighted) rather than at the end. */
  readonly seq?: number;
}
