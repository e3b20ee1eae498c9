-- Radar catalog search: a generated, language-aware tsvector over every video the service knows,
-- with a GIN index. Hand-written, because Prisma's schema language cannot express generated columns
-- or the functions below. The Video model declares the column as Unsupported("tsvector") with
-- @default(dbgenerated()) and the GIN index, so `prisma migrate diff` agrees with this file.
--
-- NO SEMICOLON may appear in this file except at the end of a statement, not even in a comment or
-- a function body: the driver adapter's executeScript splits the script on every semicolon
-- (and runs the pieces one by one, outside a transaction).
--
-- Language handling
--   * Each video is stemmed in the text-search configuration of its own `language` column (a code
--     such as "en", "pt-BR" or a name such as "Spanish", see video_search_config), 'simple' when the
--     language is unknown or has no PostgreSQL configuration.
--   * Weights: A = hashtags (deliberate topic labels), B = description, C = username and display
--     name (always 'simple': handles are not words), D = an unstemmed 'simple' copy of description
--     and hashtags, only for videos with a language-specific configuration.
--   * The query side (src/providers/search/catalog.ts) ORs the query parsed in the searcher's
--     language configuration with the query parsed in 'simple'. So an English search for "running"
--     finds English videos saying "runs" (stems) and, through the weight-D copy, videos in another
--     language or with an unknown language that contain the exact word.

-- Text-search configuration for a language code or name. IMMUTABLE is true in practice: the result
-- depends only on the argument and on built-in configurations (schema-qualified), which do not
-- change. Generated columns accept only IMMUTABLE expressions.
CREATE FUNCTION "video_search_config"(lang text) RETURNS regconfig
LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$
  SELECT CASE lower(split_part(split_part(btrim(coalesce(lang, '')), '-', 1), '_', 1))
    WHEN 'en' THEN 'pg_catalog.english'::regconfig    WHEN 'english' THEN 'pg_catalog.english'::regconfig
    WHEN 'es' THEN 'pg_catalog.spanish'::regconfig    WHEN 'spanish' THEN 'pg_catalog.spanish'::regconfig
    WHEN 'español' THEN 'pg_catalog.spanish'::regconfig
    WHEN 'de' THEN 'pg_catalog.german'::regconfig     WHEN 'german' THEN 'pg_catalog.german'::regconfig
    WHEN 'deutsch' THEN 'pg_catalog.german'::regconfig
    WHEN 'fr' THEN 'pg_catalog.french'::regconfig     WHEN 'french' THEN 'pg_catalog.french'::regconfig
    WHEN 'français' THEN 'pg_catalog.french'::regconfig
    WHEN 'pt' THEN 'pg_catalog.portuguese'::regconfig WHEN 'portuguese' THEN 'pg_catalog.portuguese'::regconfig
    WHEN 'português' THEN 'pg_catalog.portuguese'::regconfig
    WHEN 'it' THEN 'pg_catalog.italian'::regconfig    WHEN 'italian' THEN 'pg_catalog.italian'::regconfig
    WHEN 'nl' THEN 'pg_catalog.dutch'::regconfig      WHEN 'dutch' THEN 'pg_catalog.dutch'::regconfig
    WHEN 'sv' THEN 'pg_catalog.swedish'::regconfig    WHEN 'swedish' THEN 'pg_catalog.swedish'::regconfig
    WHEN 'da' THEN 'pg_catalog.danish'::regconfig     WHEN 'danish' THEN 'pg_catalog.danish'::regconfig
    WHEN 'no' THEN 'pg_catalog.norwegian'::regconfig  WHEN 'nb' THEN 'pg_catalog.norwegian'::regconfig
    WHEN 'nn' THEN 'pg_catalog.norwegian'::regconfig  WHEN 'norwegian' THEN 'pg_catalog.norwegian'::regconfig
    WHEN 'fi' THEN 'pg_catalog.finnish'::regconfig    WHEN 'finnish' THEN 'pg_catalog.finnish'::regconfig
    WHEN 'ru' THEN 'pg_catalog.russian'::regconfig    WHEN 'russian' THEN 'pg_catalog.russian'::regconfig
    WHEN 'tr' THEN 'pg_catalog.turkish'::regconfig    WHEN 'turkish' THEN 'pg_catalog.turkish'::regconfig
    WHEN 'hu' THEN 'pg_catalog.hungarian'::regconfig  WHEN 'hungarian' THEN 'pg_catalog.hungarian'::regconfig
    WHEN 'ro' THEN 'pg_catalog.romanian'::regconfig   WHEN 'romanian' THEN 'pg_catalog.romanian'::regconfig
    WHEN 'id' THEN 'pg_catalog.indonesian'::regconfig WHEN 'indonesian' THEN 'pg_catalog.indonesian'::regconfig
    WHEN 'ar' THEN 'pg_catalog.arabic'::regconfig     WHEN 'arabic' THEN 'pg_catalog.arabic'::regconfig
    WHEN 'el' THEN 'pg_catalog.greek'::regconfig      WHEN 'greek' THEN 'pg_catalog.greek'::regconfig
    WHEN 'ga' THEN 'pg_catalog.irish'::regconfig      WHEN 'irish' THEN 'pg_catalog.irish'::regconfig
    WHEN 'lt' THEN 'pg_catalog.lithuanian'::regconfig WHEN 'lithuanian' THEN 'pg_catalog.lithuanian'::regconfig
    WHEN 'ne' THEN 'pg_catalog.nepali'::regconfig     WHEN 'nepali' THEN 'pg_catalog.nepali'::regconfig
    WHEN 'ta' THEN 'pg_catalog.tamil'::regconfig      WHEN 'tamil' THEN 'pg_catalog.tamil'::regconfig
    WHEN 'hy' THEN 'pg_catalog.armenian'::regconfig   WHEN 'armenian' THEN 'pg_catalog.armenian'::regconfig
    WHEN 'eu' THEN 'pg_catalog.basque'::regconfig     WHEN 'basque' THEN 'pg_catalog.basque'::regconfig
    WHEN 'ca' THEN 'pg_catalog.catalan'::regconfig    WHEN 'catalan' THEN 'pg_catalog.catalan'::regconfig
    WHEN 'hi' THEN 'pg_catalog.hindi'::regconfig      WHEN 'hindi' THEN 'pg_catalog.hindi'::regconfig
    WHEN 'sr' THEN 'pg_catalog.serbian'::regconfig    WHEN 'serbian' THEN 'pg_catalog.serbian'::regconfig
    WHEN 'yi' THEN 'pg_catalog.yiddish'::regconfig    WHEN 'yiddish' THEN 'pg_catalog.yiddish'::regconfig
    ELSE 'pg_catalog.simple'::regconfig
  END
$$;

-- array_to_string is only STABLE (it is polymorphic over element types whose output may depend on
-- settings). For text[] it is immutable, which this wrapper declares so the generated column may use it.
CREATE FUNCTION "video_hashtags_text"(tags text[]) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$ SELECT coalesce(array_to_string(tags, ' '), '') $$;

ALTER TABLE "videos" ADD COLUMN "search_vector" tsvector GENERATED ALWAYS AS (
  setweight(to_tsvector(video_search_config("language"), video_hashtags_text("hashtags")), 'A')
  || setweight(to_tsvector(video_search_config("language"), "description"), 'B')
  || setweight(to_tsvector('pg_catalog.simple'::regconfig, "username" || ' ' || "display_name"), 'C')
  || CASE
       WHEN video_search_config("language") = 'pg_catalog.simple'::regconfig THEN ''::tsvector
       ELSE setweight(to_tsvector('pg_catalog.simple'::regconfig, "description" || ' ' || video_hashtags_text("hashtags")), 'D')
     END
) STORED;

CREATE INDEX "videos_search_vector_idx" ON "videos" USING GIN ("search_vector");
