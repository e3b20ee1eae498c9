/**
 * Input validation shared by every door (REST, GraphQL, the CLI): the zod pieces that several
 * areas' inputs are made of (ids, pages, days, id lists), one way to parse (`parseInput`) and one
 * error shape (400 VALIDATION_ERROR with `details`). Each area composes its own inputs from these in
 * `domain/<area>/inputs.ts`; REST adds only query-string coercion and OpenAPI metadata
 * (src/http/rest/schemas.ts), GraphQL only maps its arguments onto the same schemas; MCP uses them as they are.
 */
import { z } from "zod";
import { validationError, type ErrorDetail } from "./errors.ts";
import { rejectUnstorableStrings } from "./unstorable.ts";
import { SORT_ORDERS } from "./pages.ts";

/** Zod's issues as the contract's `details` (a dotted path after `prefix`, and the message): the one mapping of zod issues. */
export function issuesToDetails(error: z.ZodError, prefix?: string): ErrorDetail[] {
  return error.issues.map((issue) => ({
    path: [prefix, ...issue.path.map(String)].filter(Boolean).join("."),
    message: issue.message,
  }));
}

/** Details on one line: `path: message; …` (`(input)` for the value itself). */
export function describeDetails(details: readonly ErrorDetail[]): string {
  return details.map((d) => `${d.path || "(input)"}: ${d.message}`).join("; ");
}

/**
 * Parses `value` with `schema` or throws 400 VALIDATION_ERROR naming every problem. Strings that
 * cannot be stored (NUL, lone surrogates: `rejectUnstorableStrings`) are refused first.
 */
export function parseInput<S extends z.ZodType>(schema: S, value: unknown, prefix?: string): z.output<S> {
  rejectUnstorableStrings(value, prefix);
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const details = issuesToDetails(result.error, prefix);
  throw validationError(`Invalid input: ${describeDetails(details)}`, details);
}

// ---------------------------------------------------------------------------------------------
// Shared pieces

/** Any UUID (the service's ids). PostgreSQL compares them case-insensitively. */
export const uuid = z.guid({ message: "must be a UUID" });

export const MAX_PAGE_SIZE = 100;
/** The largest offset a page may start at (a bound, so no client can ask PostgreSQL to skip billions of rows). */
export const MAX_OFFSET = 1_000_000_000;

const LIMIT_MESSAGE = `limit must be an integer from 1 to ${MAX_PAGE_SIZE}`;
const OFFSET_MESSAGE = "offset must be a non-negative integer";

/** `limit`: 1 to 100, with the endpoint's default. */
export const pageLimit = (defaultLimit: number) =>
  z
    .number({ message: LIMIT_MESSAGE })
    .int(LIMIT_MESSAGE)
    .min(1, LIMIT_MESSAGE)
    .max(MAX_PAGE_SIZE, LIMIT_MESSAGE)
    .default(defaultLimit)
    .meta({ description: `Page size, 1 to ${MAX_PAGE_SIZE} (default ${defaultLimit}).` });

/** `offset`: 0 or more (default 0), at most MAX_OFFSET. */
export const pageOffset = z
  .number({ message: OFFSET_MESSAGE })
  .int(OFFSET_MESSAGE)
  .min(0, OFFSET_MESSAGE)
  .max(MAX_OFFSET, "offset is too large")
  .default(0)
  .meta({ description: "Number of items to skip (default 0)." });

/** An offset page: `{limit, offset}`. */
export const page = (defaultLimit: number) => z.object({ limit: pageLimit(defaultLimit), offset: pageOffset });

/** A list's direction, `asc` or `desc`, named `field` in messages (the default is the list's). */
export const sortOrder = (field: string) => z.enum(SORT_ORDERS, { message: `${field} must be asc or desc` });

/** `YYYY-MM-DD`, a real calendar day, parsed to the UTC midnight that starts it. */
export const day = z
  .string({ message: "must be a date written YYYY-MM-DD" })
  .meta({ format: "date", example: "2026-11-01" })
  .regex(/^\d{4}-\d{2}-\d{2}$/, "must be a date written YYYY-MM-DD")
  .refine((s) => {
    const d = new Date(`${s}T00:00:00.000Z`);
    return !Number.isNaN(d.getTime()) && d.toISOString().startsWith(s);
  }, "must be a real calendar date (YYYY-MM-DD)")
  // Bounded so that every range built from it (a default 30-day window before it, the day after it)
  // stays a date PostgreSQL can hold: year 0 and year 10000 were a 500.
  .refine((s) => s >= "1970-01-01" && s <= "9998-12-31", "must be between 1970-01-01 and 9998-12-31")
  .transform((s) => new Date(`${s}T00:00:00.000Z`));

export const DAY_MS = 86_400_000;

/** Both days are included: `start` must not be after `end` (400 VALIDATION_ERROR on `start_date`). */
export function checkDayRange(start?: Date, end?: Date): void {
  if (start && end && start.getTime() > end.getTime()) {
    throw validationError("start_date must not be after end_date.", [{ path: "start_date", message: "must not be after end_date" }]);
  }
}

/** A window of posting days (a video's `posted_at`), both inclusive UTC days; checked with checkDayRange where it is read. */
export const postedDays = z.object({
  start_date: day.optional().meta({ description: "YYYY-MM-DD: videos posted on or after this UTC day." }),
  end_date: day
    .optional()
    .meta({ description: "YYYY-MM-DD: videos posted on or before this UTC day (the whole day). Not before start_date." }),
});
export type PostedDays = z.output<typeof postedDays>;

/** The most ids one request may name (bulk untrack, folder membership). */
const MAX_IDS_PER_REQUEST = 50;

/** The outcome of one id of a bulk request over an id list (the HTTP status stays 200): `error` says why it failed. */
export interface BulkItemResult {
  id: string;
  success: boolean;
  error?: string;
}

/** 1 to 50 UUIDs. Duplicates are allowed and each is reported on its own. */
export const idList = (field: string, min = 1) =>
  z
    .array(uuid, { message: `${field} must be an array of UUIDs` })
    .min(min, `${field} must hold at least one id`)
    .max(MAX_IDS_PER_REQUEST, `${field} holds at most ${MAX_IDS_PER_REQUEST} ids`);

// ---------------------------------------------------------------------------------------------
// Cursor connections (GraphQL lists)

const FIRST_MESSAGE = `first must be an integer from 0 to ${MAX_PAGE_SIZE}`;
const LAST_MESSAGE = `last must be an integer from 0 to ${MAX_PAGE_SIZE}`;

/**
 * The arguments of a cursor connection: a page of `first` items after the cursor `after`, or of
 * `last` items before `before`; the same bound as `limit` (100), answered with VALIDATION_ERROR
 * beyond it rather than clamped. Cursors are checked when they are read (src/domain/shared/pages.ts).
 */
export const connectionArgs = z.object({
  first: z.number({ message: FIRST_MESSAGE }).int(FIRST_MESSAGE).min(0, FIRST_MESSAGE).max(MAX_PAGE_SIZE, FIRST_MESSAGE).nullish(),
  last: z.number({ message: LAST_MESSAGE }).int(LAST_MESSAGE).min(0, LAST_MESSAGE).max(MAX_PAGE_SIZE, LAST_MESSAGE).nullish(),
  after: z.string().max(2000, "after is not a cursor of this list").nullish(),
  before: z.string().max(2000, "before is not a cursor of this list").nullish(),
});
