/** The three platforms, written neutrally as in the spec (platform option, `type`, etc.). */
export const PLATFORMS = ["platformA", "platformB", "platformC"] as const;
export type Platform = (typeof PLATFORMS)[number];
