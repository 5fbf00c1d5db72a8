/**
 * Sessions are grouped in buckets of 2^14 consecutive `sid`s for the text index: `search_events`'
 * GIN index is over (bucket, tsv) (`btree_gin`), so a window — the newest matching rows — is read
 * one bucket at a time, newest first, each a few index entries and heap rows, instead of walking
 * the primary key backwards and testing every row's `tsv` (docs/scale.md, "Search on PostgreSQL").
 * The expression is written once here: the index and the queries must spell it alike.
 */
export const BUCKET_SHIFT = 14;

/** The bucket of a sid-valued SQL expression, spelled as the index spells it. */
export const bucketSqlOf = (sid: string): string => `((${sid} >> ${BUCKET_SHIFT})::integer)`;

/** The bucket of a row, as the index and the queries write it. */
export const BUCKET_SQL = bucketSqlOf('sid');

/** The bucket holding `sid`. */
export const bucketOf = (sid: number): number => Math.floor(sid / 2 ** BUCKET_SHIFT);

/** The first sid of a bucket. */
export const bucketStart = (bucket: number): number => bucket * 2 ** BUCKET_SHIFT;
