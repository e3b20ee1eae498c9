/** The DateTime scalar (graphql-scalars' DateTimeISO, src/http/graphql/builder.ts) answers the ISO strings it always did. */
import { describe, expect, it } from "vitest";
import type { GraphQLScalarType } from "graphql";
import { schema } from "../../src/http/graphql/schema.js";

const dateTime = schema.getType("DateTime") as GraphQLScalarType;

describe("DateTime", () => {
  it("serializes Dates and timestamps as ISO 8601 UTC with milliseconds", () => {
    expect(dateTime.serialize(new Date("2026-11-22T10:15:00.123Z"))).toBe("2026-11-22T10:15:00.123Z");
    // History points arrive as the database wrote them: passed as they are.
    expect(dateTime.serialize("2026-11-22T10:15:00.000Z")).toBe("2026-11-22T10:15:00.000Z");
    expect(dateTime.serialize("2026-11-22T11:15:00+01:00")).toBe("2026-11-22T10:15:00.000Z");
    expect(() => dateTime.serialize("yesterday")).toThrow(/DateTime/);
    expect(() => dateTime.serialize(new Date(Number.NaN))).toThrow(/DateTime/);
  });

  it("reads RFC 3339 date-times as Dates and refuses anything else", () => {
    expect(dateTime.parseValue("2026-11-22T10:15:00Z")).toEqual(new Date("2026-11-22T10:15:00.000Z"));
    expect(() => dateTime.parseValue("2026-11-22")).toThrow(/DateTime/);
  });
});
