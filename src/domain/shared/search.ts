/**
 * The text search of every list, one rule and one name on every door: `q` (REST query parameter, GraphQL
 * argument, MCP tool argument). Its words must each appear, case-insensitively and anywhere (a part of a
 * word counts), in the text the list searches (a video's description or username, a folder's name …).
 */
import { Prisma } from "../../generated/prisma/client.ts";
import { z } from "zod";

/** The most words of `q` a search uses; the rest are ignored. */
const MAX_WORDS = 10;

/** `q`, described with what the list searches ("the folder's name"). */
export const searchText = (searched: string) =>
  z
    .string({ message: "q must be a string" })
    .max(200, "q is at most 200 characters")
    .optional()
    .meta({
      description:
        `Words (separated by spaces, at most ${MAX_WORDS} used) that must each appear, case-insensitively and anywhere (a part of a ` +
        `word counts: \`cook\` finds \`cooking\`), in ${searched}. Empty: no filter.`,
    });

/** The words of `q`: lower-cased, at most MAX_WORDS, LIKE's special characters escaped. */
function searchWords(q: string): string[] {
  return q
    .toLowerCase()
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, MAX_WORDS)
    .map((w) => w.replace(/[\\%_]/g, (c) => `\\${c}`));
}

/**
 * One predicate per word of `q` over `text`, a lower-cased SQL expression fixed by the code (e.g.
 * `lower(f.name)`); none for an empty or missing `q`.
 */
export const wordsIn = (text: Prisma.Sql, q: string | null | undefined): Prisma.Sql[] =>
  searchWords(q ?? "").map((word) => Prisma.sql`${text} LIKE ${`%${word}%`}`);

/** `AND …` of every word of `q` over `text` (Prisma.empty without words). */
export function searchSql(text: Prisma.Sql, q: string | null | undefined): Prisma.Sql {
  const parts = wordsIn(text, q);
  return parts.length ? Prisma.sql`AND ${Prisma.join(parts, " AND ")}` : Prisma.empty;
}
