/**
 * Where a person opens a session at a seq in the web UI: `/sessions/<id>?seq=N`, the UI's deep
 * link. On the host it is absolute (`base` is the host's own address); on stdio `base` is
 * undefined and the address is relative, because `strand mcp` may read a folder no host serves —
 * the path is right on whichever host serves it.
 */
export function sessionAddress(base: string | undefined, id: string, seq?: number): string {
  const path = `/sessions/${encodeURIComponent(id)}${seq === undefined ? '' : `?seq=${seq}`}`;
  return base === undefined ? path : `${base.replace(/\/+$/, '')}${path}`;
}
