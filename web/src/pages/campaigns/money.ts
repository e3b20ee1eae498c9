/**
 * Money as the API gives it: integer minor units with an ISO 4217 currency (docs/contract/decisions.md: rounding
 * half-up per row, totals the sum of the rounded rows). Shown with the browser's currency format; typed
 * in major units ("12.50") and turned into minor units by text, never through a float.
 */

/** How many minor units a currency's major unit has, as digits (EUR 2, JPY 0, KWD 3). */
export function minorDigits(currency: string): number {
  try {
    return new Intl.NumberFormat("en", { style: "currency", currency }).resolvedOptions().maximumFractionDigits ?? 2;
  } catch {
    return 2;
  }
}

/** 123456 EUR → "€1,234.56". */
export function formatMoney(minor: number | null | undefined, currency: string): string {
  if (minor == null) return "—";
  const digits = minorDigits(currency);
  try {
    return new Intl.NumberFormat(undefined, {
      style: "currency",
      currency,
      minimumFractionDigits: digits,
      maximumFractionDigits: digits,
    }).format(minor / 10 ** digits);
  } catch {
    return `${(minor / 10 ** digits).toFixed(digits)} ${currency}`;
  }
}

/** Minor units as the text a form field holds ("1234.56"); "" for none. */
export function minorToInput(minor: number | null | undefined, currency: string): string {
  if (minor == null) return "";
  const digits = minorDigits(currency);
  if (digits === 0) return String(minor);
  const s = String(minor).padStart(digits + 1, "0");
  return `${s.slice(0, -digits)}.${s.slice(-digits)}`;
}

/**
 * What a money field holds, in minor units: null when empty, undefined when it is not an amount
 * (the form says so). At most the currency's digits after the point; no rounding happens here.
 */
export function inputToMinor(text: string, currency: string): number | null | undefined {
  const t = text.trim().replace(/[\s,]/g, "");
  if (t === "") return null;
  const digits = minorDigits(currency);
  const m = /^(\d+)(?:\.(\d*))?$/.exec(t);
  if (!m || (m[2] ?? "").length > digits) return undefined;
  const value = Number(m[1]) * 10 ** digits + Number((m[2] ?? "").padEnd(digits, "0") || "0");
  return Number.isSafeInteger(value) ? value : undefined;
}
