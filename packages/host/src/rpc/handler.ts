/** What a method handler returns: the result, and work to run once the response is on the wire. */
export interface HandlerResult<R = unknown> {
  readonly result: R;
  readonly afterSend?: () => void;
}
