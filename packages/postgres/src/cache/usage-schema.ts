/**
 * Cache schema step 3 (its own file, so merging another step only renumbers it): per-session
 * usage beside the list index, as in the SQLite engine (packages/projection-cache,
 * list-index/usage-schema.ts). `list_rows.usage_as_of` is the cut the hours are at (NULL: unknown);
 * `usage_hours` holds the `usage` unit's own tokens per UTC hour and model, written in the list
 * row's transaction.
 */
export const USAGE_DDL = `
ALTER TABLE list_rows ADD COLUMN usage_as_of bigint;
CREATE TABLE usage_hours (
  session_id     text COLLATE "C" NOT NULL,
  hour           bigint  NOT NULL,
  provider       text,
  model          text,
  long_context   boolean NOT NULL,
  input          bigint  NOT NULL,
  output         bigint  NOT NULL,
  cache_creation bigint  NOT NULL,
  cache_read     bigint  NOT NULL,
  reasoning      bigint  NOT NULL,
  reported_usd   double precision
);
CREATE INDEX usage_hours_by_session ON usage_hours (session_id, hour);
`;
