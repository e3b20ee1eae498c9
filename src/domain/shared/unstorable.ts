/**
 * Strings PostgreSQL cannot store (NUL, lone UTF-16 surrogates): one rule for every door. `parseInput`
 * (./inputs.ts) applies it to every input, cursors (./pages.ts) to what they carry; REST's router and
 * GraphQL's `refuseUnstorableStrings` plugin to what arrives outside a schema.
 */
import { DomainError, validationError } from "./errors.ts";

/** Where an unstorable string was found: its dotted path and the object keys leading to it. */
export interface UnstorableString {
  path: string;
  keys: string[];
  reason: string;
}

const NUL_REASON = "must not contain the NUL character (\\u0000)";
/** In a `u` regular expression a surrogate pair is one code point, so only a lone surrogate is `\p{Cs}`. */
const LONE_SURROGATE = /\p{Cs}/u;
const SURROGATE_REASON = "must not contain a lone UTF-16 surrogate (it is not valid Unicode)";

/** Why `s` cannot be stored as PostgreSQL text (NUL, or a lone surrogate that has no UTF-8 form), or null. */
export function unstorableReason(s: string): string | null {
  if (s.includes("\u0000")) return NUL_REASON;
  if (LONE_SURROGATE.test(s)) return SURROGATE_REASON;
  return null;
}

/** `s` without what PostgreSQL text cannot hold (NUL, lone surrogates): for text providers produce (OCR, models), never for input. */
export function storableText(s: string): string {
  return s.replace(/\u0000|\p{Cs}/gu, "");
}

/**
 * PostgreSQL text cannot hold NUL, and a lone UTF-16 surrogate (JSON `"\ud800"`) has no UTF-8 form:
 * the first would fail in the database (a 500), the second would be stored silently replaced. Every
 * input is checked here first, keys included: where the first such string is, or null. Iterative,
 * so a deeply nested body cannot exhaust the stack.
 */
export function findUnstorableString(value: unknown, keys: string[] = []): UnstorableString | null {
  // Each entry knows its key and its parent's entry: a path is only built for what is found, so a
  // body nested 100 000 deep costs linear time.
  interface At {
    key: string;
    parent: At | null;
  }
  const root: At | null = keys.reduce<At | null>((parent, key) => ({ key, parent }), null);
  const found = (at: At | null, reason: string): UnstorableString => {
    const path: string[] = [];
    for (let a = at; a; a = a.parent) path.push(a.key);
    path.reverse();
    return { path: path.join(".") || "(input)", keys: path, reason };
  };
  if (typeof value === "string") {
    const reason = unstorableReason(value);
    return reason ? found(root, reason) : null;
  }
  // Strings are checked where they are met; only arrays and objects wait on the stack.
  const stack: [object, At | null][] = value && typeof value === "object" ? [[value, root]] : [];
  while (stack.length > 0) {
    const [v, at] = stack.pop()!;
    const visit = (key: string, child: unknown): UnstorableString | null => {
      if (typeof child === "string") {
        const reason = unstorableReason(child);
        return reason ? found({ key, parent: at }, reason) : null;
      }
      if (child && typeof child === "object") stack.push([child, { key, parent: at }]);
      return null;
    };
    if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) {
        const hit = visit(String(i), v[i]);
        if (hit) return hit;
      }
    } else {
      for (const k of Object.keys(v)) {
        const reason = unstorableReason(k);
        if (reason) return found({ key: "(key)", parent: at }, reason);
        const hit = visit(k, (v as Record<string, unknown>)[k]);
        if (hit) return hit;
      }
    }
  }
  return null;
}

/** A field that holds a link (`url`): its refusal is URL intake's INVALID_URL, as for any other bad link. */
export const isUrlField = (keys: readonly string[]) => keys.length > 0 && keys[keys.length - 1] === "url";

/** The refusal of an unstorable string: 400 VALIDATION_ERROR naming the field, or INVALID_URL in a `url` field. */
export function unstorableStringError(found: UnstorableString, urlField = isUrlField(found.keys)): DomainError {
  if (urlField)
    return new DomainError("INVALID_URL", `Invalid URL: ${found.path}: ${found.reason}.`, [{ path: found.path, message: found.reason }]);
  return validationError(`Invalid input: ${found.path}: ${found.reason}.`, [{ path: found.path, message: found.reason }]);
}

/** Throws the refusal of the first unstorable string of `value` (paths start with `prefix`). */
export function rejectUnstorableStrings(value: unknown, prefix?: string): void {
  const found = findUnstorableString(value, prefix ? [prefix] : []);
  if (found) throw unstorableStringError(found);
}
