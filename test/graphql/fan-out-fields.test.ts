/**
 * Subscription answers are shared between the subscribers of one workspace and role (src/http/graphql/fan-out.ts):
 * a field whose answer depends on the person asking must be in PERSONAL_FIELDS, or one person's answer would reach
 * another. Nothing in the schema says which resolvers read the person, so every field reachable from a subscription
 * is listed in subscription-fields.txt, reviewed for that; a field that becomes reachable fails this test until
 * someone has looked at its resolver and either added it to PERSONAL_FIELDS or to the list.
 */
import { readFileSync } from "node:fs";
import { getNamedType, type GraphQLNamedType, isInterfaceType, isObjectType, isUnionType } from "graphql";
import { describe, expect, it } from "vitest";
import { PERSONAL_FIELDS } from "../../src/http/graphql/fan-out.js";
import { schema } from "../../src/http/graphql/schema.js";

const LIST = new URL("./subscription-fields.txt", import.meta.url);
const reviewed = new Set(
  readFileSync(LIST, "utf8")
    .split("\n")
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith("#")),
);

/** Every `Type.field` a subscription's selection can reach (through objects, interfaces and unions). */
function reachableFields(): Set<string> {
  const fields = new Set<string>();
  const seen = new Set<string>();
  const queue: GraphQLNamedType[] = [schema.getSubscriptionType()!];
  while (queue.length) {
    const type = queue.pop()!;
    if (seen.has(type.name)) continue;
    seen.add(type.name);
    if (isUnionType(type)) queue.push(...type.getTypes());
    if (isInterfaceType(type)) queue.push(...schema.getPossibleTypes(type));
    if (!isObjectType(type) && !isInterfaceType(type)) continue;
    for (const field of Object.values(type.getFields())) {
      fields.add(`${type.name}.${field.name}`);
      queue.push(getNamedType(field.type));
    }
  }
  return fields;
}

describe("fields a shared subscription answer can hold", () => {
  const reachable = reachableFields();

  it("are each reviewed for whether they depend on the person asking", () => {
    const unreviewed = [...reachable].filter((f) => !reviewed.has(f) && !PERSONAL_FIELDS.has(f)).sort();
    expect(
      unreviewed,
      `these fields are reachable from a subscription: check whether each one's resolver reads the person (not only the workspace and role); if so add it to PERSONAL_FIELDS in src/http/graphql/fan-out.ts, otherwise to ${LIST.pathname}`,
    ).toEqual([]);
  });

  it("lists no field that is no longer reachable", () => {
    expect([...reviewed].filter((f) => !reachable.has(f)).sort()).toEqual([]);
  });
});
