/**
 * The cost rule (src/http/graphql/cost.ts): graphql-armor's formula, with the types known. On every
 * document the dashboard sends, it finds armor's figure exactly, except where a fragment cannot apply
 * to the type it is spread on (then less, by what that branch would have cost); and the branch of the
 * one history fragment that a video page cannot run is not counted there.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parse, validate, type DocumentNode, type GraphQLError } from "graphql";
import { costLimitRule as armorCostRule } from "@escape.tech/graphql-armor-cost-limit";
import { schema } from "../../src/http/graphql/schema.js";
import { costLimitRule } from "../../src/http/graphql/cost.js";
import { answerSize } from "../../src/http/graphql/limits.js";

const GENERATED = join(import.meta.dirname, "../../web/src/__generated__");

/** The figure a rule reports ("found N") with a limit of 0, so that it always reports. */
function found(rule: "ours" | "armor", document: DocumentNode): number {
  const errors: GraphQLError[] = [];
  const report = (_: unknown, e: GraphQLError) => void errors.push(e);
  const r =
    rule === "ours"
      ? costLimitRule(0, report)
      : armorCostRule({ maxCost: 0, ignoreIntrospection: true, propagateOnRejection: false, onReject: [report] } as never);
  validate(schema, document, [r as never]);
  const m = /found (\d+(?:\.\d+)?)/.exec(errors[0]?.message ?? "");
  return m ? Number(m[1]) : 0;
}

/** Each operation's text in relay-compiler's artifacts (what the dashboard sends). */
function dashboardDocuments(): { name: string; document: DocumentNode }[] {
  return readdirSync(GENERATED)
    .filter((f) => /(Query|Mutation|Subscription)\.graphql\.ts$/.test(f))
    .map((f) => {
      const source = readFileSync(join(GENERATED, f), "utf8");
      const text = /"text": ("(?:[^"\\]|\\.)*")/.exec(source);
      return text ? { name: f, document: parse(JSON.parse(text[1]!) as string) } : null;
    })
    .filter((d): d is { name: string; document: DocumentNode } => d !== null);
}

describe("the operation's cost", () => {
  it("is armor's on every dashboard document, but for branches that cannot apply", () => {
    const documents = dashboardDocuments();
    expect(documents.length).toBeGreaterThan(40);
    const lower: string[] = [];
    for (const { name, document } of documents) {
      const [ours, armor] = [found("ours", document), found("armor", document)];
      expect(ours, name).toBeLessThanOrEqual(armor);
      if (ours < armor) lower.push(name.replace(".graphql.ts", ""));
    }
    // Only the documents that spread the history fragment on a video or an account drop a branch.
    expect(lower.sort()).toEqual(["AccountPageQuery", "AccountPageRefetchQuery", "VideoPageQuery"]);
  });

  it("leaves out the branch a video cannot run, and counts both where the type is not known", () => {
    const branches = `fragment H on Node {
      ... on Video { history(last: 100) { edges { node { capturedAt viewCount } } } }
      ... on Account { history(last: 100) { edges { node { capturedAt followerCount } } } }
    }`;
    const onVideo = parse(`query($id: ID!) { video(id: $id) { id ...H } } ${branches}`);
    const videoOnly = parse(
      `query($id: ID!) { video(id: $id) { id ...H } } fragment H on Node { ... on Video { history(last: 100) { edges { node { capturedAt viewCount } } } } }`,
    );
    const onNode = parse(`query($id: ID!) { node(id: $id) { id ...H } } ${branches}`);
    expect(found("ours", onVideo)).toBe(found("ours", videoOnly));
    expect(found("ours", onVideo)).toBeLessThan(found("armor", onVideo));
    expect(found("ours", onNode)).toBe(found("armor", onNode));
    // The answer-size bound reads fragments the same way.
    const op = (d: DocumentNode) => d.definitions[0] as never;
    expect(answerSize(schema, onVideo, op(onVideo))).toBe(answerSize(schema, videoOnly, op(videoOnly)));
    expect(answerSize(schema, onNode, op(onNode))).toBeGreaterThan(answerSize(schema, videoOnly, op(videoOnly)));
  });

  it("counts what is asked below a meta field (__type answers a __Type) as armor does", () => {
    const introspection = parse(
      `{ __type(name: "Video") { name ... on __Type { fields { name type { name ... on __Type { kind } } } } ...T } } fragment T on __Type { enumValues { name } }`,
    );
    expect(found("ours", introspection)).toBe(found("armor", introspection));
    expect(found("ours", introspection)).toBeGreaterThan(10);
  });

  it("still refuses what is costly through a fragment that applies", () => {
    const costly = parse(
      `{ videos(first: 100) { edges { node { ...V } } } } fragment V on Node { ... on Video { history(last: 100) { edges { node { capturedAt viewCount likeCount commentCount } } } } }`,
    );
    expect(found("ours", costly)).toBe(found("armor", costly));
    expect(found("ours", costly)).toBeGreaterThan(50_000);
  });
});
