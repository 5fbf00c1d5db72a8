/*
 * The SQL functions that turn text into a `tsvector` and a query term into a `tsquery`, created
 * with the search schema (7) and the only place either is spelled.
 *
 * Why pairs: a GIN index over a `tsvector` keeps which rows hold a word, not where. A phrase
 * (`'new' <-> 'york'`) is therefore looked up as "both words", and every row holding both is read
 * and rechecked: at ten million events a phrase of two common words rechecked ~14,000 rows to keep
 * 134 (docs/scale.md, "Search on PostgreSQL"). So each row's vector also holds every pair of
 * adjacent words, hashed to one of 65,536 lexemes (`_` and 4 hex digits, at the first word's
 * position), and a phrase's query also requires each of its pairs: the index finds the rows where
 * the words are adjacent, and the few that share a pair's hash by chance.
 *
 * The pairs only narrow; the phrase itself is still checked on positions, so a match is exactly
 * what `phraseto_tsquery` alone matches (ts-functions.int.test.ts pins this). A pair starts with
 * `_`, which no word holds (`ts-text.ts` hands the parser runs of letters, numbers and marks), so a
 * pair is never taken for a word, nor a word for a pair.
 *
 * A vector may not exceed 1 MB: a row whose pairs would not fit (256 K characters of unique short
 * tokens, such as a list of ids) gets the lexeme `_` instead, which every phrase query accepts in
 * place of its pairs. Such a row is found by its words and rechecked, as before pairs, never lost.
 */

// A pair is `_` + the first 4 hex digits of md5("a b") at a's position, for every a at p and b at
// p + 1: exactly the adjacency `<->` tests (past 16,383 every position is 16,383: a word at 16,382
// pairs with each word there, as `<->` matches each). Hashed because nearly every pair in a corpus
// is distinct: as lexemes of their own they made the index 5.5× the words-only one, hashed 1.44×
// (docs/scale.md). 14 bytes per pair bound its entry, alignment and position in the vector. Words
// and pairs are written out and read back as one vector: `words || pairs` would move every pair
// past the last word (`||` offsets its right side's positions), and ranking by cover density would
// then see each phrase as spread over the whole text.
const WITH_PAIRS_FUNCTION = `
CREATE OR REPLACE FUNCTION strand_search_with_pairs(words tsvector) RETURNS tsvector
LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT AS $fn$
  SELECT CASE
    WHEN pair.lexemes IS NULL THEN words
    WHEN pg_column_size(words) + pair.bytes > 1000000 THEN words || '_'::tsvector
    ELSE (words::text || ' ' || pair.lexemes)::tsvector
  END
  FROM (
    SELECT string_agg('''_' || left(md5(a.lexeme || ' ' || b.lexeme), 4) || ''':' || a.pos, ' ') AS lexemes,
      count(*) * 14 AS bytes
    FROM (SELECT u.lexeme, p AS pos FROM unnest(words) u, unnest(u.positions) p) a
    JOIN (SELECT u.lexeme, p AS pos FROM unnest(words) u, unnest(u.positions) p) b ON b.pos = a.pos + 1
  ) AS pair
$fn$;`;

/** An event's or label's vector: its words (`ts-text.ts`'s source) and their adjacent pairs. */
const TSV_FUNCTION = `
CREATE OR REPLACE FUNCTION strand_search_tsv(source text) RETURNS tsvector
LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT AS $fn$
  SELECT strand_search_with_pairs(to_tsvector('simple', source))
$fn$;`;

// A term's query: its words as a phrase, and its pairs — the lexemes starting with `_` in the
// term's own vector (hex: nothing to quote) — or a row's `_`. A one-word term has no pairs: it is
// the plain word, and matches and ranks as before pairs.
const PHRASE_FUNCTION = `
CREATE OR REPLACE FUNCTION strand_search_phrase(term text) RETURNS tsquery
LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT AS $fn$
  SELECT CASE WHEN p.pairs IS NULL THEN phrase ELSE phrase && (p.pairs::tsquery || '_'::tsquery) END
  FROM phraseto_tsquery('simple', term) AS phrase,
    LATERAL (
      SELECT string_agg('''' || lexeme || '''', ' & ') AS pairs
      FROM unnest(strand_search_with_pairs(to_tsvector('simple', term)))
      WHERE left(lexeme, 1) = '_'
    ) AS p
$fn$;`;

/** Creates or replaces the functions, in dependency order; part of the search schema's DDL. */
export const TEXT_FUNCTIONS_DDL = [WITH_PAIRS_FUNCTION, TSV_FUNCTION, PHRASE_FUNCTION].join('\n');
