/** One request the host turned away for access reasons: what and why. */
export interface Refusal {
  readonly status: 401 | 403 | 429 | 503;
  readonly code:
    | 'HOST_ORIGIN_FORBIDDEN'
    | 'HOST_UNAUTHORIZED'
    | 'HOST_AUTH_RATE_LIMITED'
    | 'HOST_SHARE_EXPIRED'
    | 'HOST_SHARE_REVOKED'
    | 'HOST_SHARE_STORE_FAILED';
  readonly reason: string;
  readonly address: string | undefined;
  /** A WebSocket upgrade (`/rpc`) rather than a page or `/auth` request. */
  readonly upgrade: boolean;
}

/** Where refusals go (`strand serve` prints them): the operator's way to see a probing page. */
export type RefusalListener = (refusal: Refusal) => void;
