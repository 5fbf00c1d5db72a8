import { z } from 'zod';

/**
 * What a connection presenting a share token (a read-only link to one session) may do with a
 * method. Every `METHODS` entry declares one, so a method added later cannot forget it:
 * - `session`: allowed on a granted session (the shared one, or a descendant when the grant
 *   includes subagents); any other session is answered as if it did not exist.
 * - `subtree`: as `session`, and only when the grant includes subagents (`subagent.list`).
 * - `filtered`: allowed, and the answer holds granted sessions only (`session.list`, search).
 * - `open`: touches no session (catalogs, the connection's own follows).
 * - `refused`: refused with `HOST_SHARE_READ_ONLY` (commands, forks, usage, grant management).
 */
export const SHARE_ACCESS = ['session', 'subtree', 'filtered', 'open', 'refused'] as const;
export type ShareAccess = (typeof SHARE_ACCESS)[number];

/** The longest a grant may last when it expires at all (`expiresInMs`; absent: the default). */
export const MAX_SHARE_EXPIRY_MS = 10 * 365 * 24 * 3600 * 1000;
/** A grant's expiry when none is asked for: a week. */
export const DEFAULT_SHARE_EXPIRY_MS = 7 * 24 * 3600 * 1000;

/** Who made a grant: `cli:<os user>` or `web`. */
export const shareCreatorSchema = z.string().regex(/^(cli:\S{1,100}|web)$/, 'cli:<user> or web');

/** One grant as `share.list` shows it (never its token: only the token's hash is kept). */
export const shareGrantSchema = z.object({
  grantId: z.string(),
  sessionId: z.string(),
  /** The shared session's subagent tree is readable too. */
  descendants: z.boolean(),
  /** ISO time; null: never expires. */
  expiresAt: z.string().nullable(),
  label: z.string().nullable(),
  createdBy: z.string(),
  createdAt: z.string(),
  /** ISO time the grant was revoked; null while it is not. */
  revokedAt: z.string().nullable(),
  status: z.enum(['active', 'expired', 'revoked']),
});
export type ShareGrantView = z.infer<typeof shareGrantSchema>;

const sessionIdParam = z.string();

/** The grant-management methods (refused on a share connection, like every command). */
export const SHARE_METHODS = {
  'share.create': {
    share: 'refused',
    params: z.strictObject({
      id: sessionIdParam,
      descendants: z.boolean().optional(),
      /** Milliseconds from now; `null`: never expires; absent: `DEFAULT_SHARE_EXPIRY_MS`. */
      expiresInMs: z.number().int().min(1000).max(MAX_SHARE_EXPIRY_MS).nullable().optional(),
      label: z.string().min(1).max(200).optional(),
      createdBy: shareCreatorSchema,
    }),
    /** `shareToken` is shown once: the host keeps only its hash. `url` is the page that opens it. */
    result: z.object({
      url: z.string(),
      grantId: z.string(),
      shareToken: z.string(),
      expiresAt: z.string().nullable(),
    }),
  },
  'share.list': {
    share: 'refused',
    /** `id`: only that session's grants. */
    params: z.strictObject({ id: sessionIdParam.optional() }),
    result: z.object({ grants: z.array(shareGrantSchema) }),
  },
  'share.revoke': {
    share: 'refused',
    /** A grant id or the share token itself. */
    params: z.strictObject({ grant: z.string().min(1).max(200) }),
    /** `revoked: false`: it already was. */
    result: z.object({ grantId: z.string(), revoked: z.boolean() }),
  },
} as const;
