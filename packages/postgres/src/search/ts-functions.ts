/*
 * The SQL functions that turn text into a `tsvector` and a query term into a `tsquery`, created
 * with the search schema (7) and the only place either is spelled.
 *
 * Why pairs: a GIN index over a `tsvector` keeps which rows hold a word, not where. A phrase
 * (`'new' <-> 'york'`) is therefore looked up as "both words", and every row holding both is read
 * and rechecked: at ten million events a phrase of two common words rechecked ~14,000 rows to keep
 * 134 (docs/scale.md, "Search on PostgreSQL"). So each row's vector also holds every pair of
 * adjacent words as one lexeme (`new_york`, at the first word's position), and a phrase's query
 * also requires each of its pairs: the index finds just the rows where the words are adjacent.
 *
 * The pairs only narrow; the phrase itself is still checked on positions, so a match is exactly
 * what `phraseto_tsquery` alone matches (ts-functions.int.test.ts pins this). `_` joins the two
 * words because no word holds it (`ts-text.ts` hands the parser runs of letters, numbers and
 * marks), so a pair is never taken for a word, nor a word for a pair.
 *
 * A vector may not exceed 1 MB: a row whose pairs would not fit (256 K characters of unique short
 * tokens, such as a list of ids) gets the lexeme `_` instead, which every phrase query accepts in
 * place of its pairs. Such a row is found by its words and rechecked, as before pairs, never lost.
 */

/** A lexeme as tsvector/tsquery input text: quoted, its quotes and backslashes doubled. */
const QUOTE_FUNCTION = `
CREATE OR REPLACE FUNCTION strand_search_quote(lexeme text) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT AS $fn$
  SELECT '''' || replace(replace(lexeme, '\\', '\\\\'), '''', '''''') || ''''
$fn$;`;

// A pair is `a_b` at a's position for every a at p and b at p + 1: exactly the adjacency `<->`
// tests (past 16,383 every position is 16,383: a word at 16,382 pairs with each word there, as
// `<->` matches each). A lexeme is at most 2,046 bytes: a longer pair is left out, of a phrase
// query's pairs alike (they come from this same function). 10 bytes per pair bound its entry,
// alignment and position in the vector. Words and pairs are written out and read back as one
// vector: `words || pairs` would move every pair past the last word (`||` offsets its right side's
// positions), and ranking by cover density would then see each phrase as spread over the whole text.
const WITH_PAIRS_FUNCTION = `
CREATE OR REPLACE FUNCTION strand_search_with_pairs(words tsvector) RETURNS tsvector
LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT AS $fn$
  SELECT CASE
    WHEN pair.lexemes IS NULL THEN words
    WHEN pg_column_size(words) + pair.bytes > 1000000 THEN words || '_'::tsvector
    ELSE (words::text || ' ' || pair.lexemes)::tsvector
  END
  FROM (
    SELECT string_agg(strand_search_quote(a.lexeme || '_' || b.lexeme) || ':' || a.pos, ' ') AS lexemes,
      sum(octet_length(a.lexeme) + octet_length(b.lexeme) + 10) AS bytes
    FROM (SELECT u.lexeme, p AS pos FROM unnest(words) u, unnest(u.positions) p) a
    JOIN (SELECT u.lexeme, p AS pos FROM unnest(words) u, unnest(u.positions) p) b ON b.pos = a.pos + 1
    WHERE octet_length(a.lexeme) + octet_length(b.lexeme) < 2046
  ) AS pair
$fn$;`;

/** An event's or label's vector: its words (`ts-text.ts`'s source) and their adjacent pairs. */
const TSV_FUNCTION = `
CREATE OR REPLACE FUNCTION strand_search_tsv(source text) RETURNS tsvector
LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT AS $fn$
  SELECT strand_search_with_pairs(to_tsvector('simple', source))
$fn$;`;

// A term's query: its words as a phrase, and its pairs — the lexemes with a `_` in the term's own
// vector — or a row's `_`. A one-word term has no pairs: it is the plain word, and matches and
// ranks as before pairs.
const PHRASE_FUNCTION = `
CREATE OR REPLACE FUNCTION strand_search_phrase(term text) RETURNS tsquery
LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT AS $fn$
  SELECT CASE WHEN p.pairs IS NULL THEN phrase ELSE phrase && (p.pairs::tsquery || '_'::tsquery) END
  FROM phraseto_tsquery('simple', term) AS phrase,
    LATERAL (
      SELECT string_agg(strand_search_quote(lexeme), ' & ') AS pairs
      FROM unnest(strand_search_with_pairs(to_tsvector('simple', term)))
      WHERE strpos(lexeme, '_') > 0
    ) AS p
$fn$;`;

/** Creates or replaces the functions, in dependency order; part of the search schema's DDL. */
export const TEXT_FUNCTIONS_DDL = [QUOTE_FUNCTION, WITH_PAIRS_FUNCTION, TSV_FUNCTION, PHRASE_FUNCTION].join(
  '\n',
);
