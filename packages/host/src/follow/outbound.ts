/** The sending side of one client connection, as the follow machinery sees it. */
export interface Outbound {
  /** Bytes queued on the socket and not yet written. */
  readonly bufferedAmount: number;
  readonly open: boolean;
  send(text: string, done?: (error?: Error) => void): void;
}
