/**
 * The dashboard's conventions keep themselves (web/eslint.config.js, run by `npm test` through
 * `npm run lint -w web`): a file that fetches while rendering, writes a table outside the list kit, formats a
 * number or a date by hand, writes a platform's enum value, cuts a description mid-word, commits a mutation
 * outside useAction or draws a paged list's footer by hand fails with a message that says what to do instead;
 * the kit's own files may do what they are for. (That web/src itself passes is `npm run lint -w web`.)
 */
import { fileURLToPath } from "node:url";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ESLint } from "eslint";

const WEB = fileURLToPath(new URL("../../web", import.meta.url));
const eslint = new ESLint({ cwd: WEB });

/** The messages of the dashboard's own rules for `code` written at `path` (under web/src). */
async function problems(path: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: join(WEB, "src", path) });
  return result!.messages.filter((m) => m.ruleId?.startsWith("no-restricted")).map((m) => m.message);
}

describe("the dashboard's lint rules", () => {
  it("fail a fetch while rendering, and a page reading a query its route did not load", async () => {
    const lazy = await problems(
      "pages/folder/FolderReports.tsx",
      'import { useLazyLoadQuery } from "react-relay";\nexport const x = useLazyLoadQuery;\n',
    );
    expect(lazy).toEqual([expect.stringMatching(/route's loader .*useQueryOnOpen/)]);
    const preloaded = await problems(
      "pages/tags/BulkTag.tsx",
      'import { usePreloadedQuery } from "react-relay";\nexport const x = usePreloadedQuery;\n',
    );
    expect(preloaded).toEqual([expect.stringMatching(/useRouteQuery/)]);
    // The kit itself reads the preloaded queries.
    expect(await problems("relay/on-open.ts", 'import { useQueryLoader } from "react-relay";\nexport const x = useQueryLoader;\n')).toEqual(
      [],
    );
  });

  it("fail a table outside the list kit, and a paged list's footer drawn by hand", async () => {
    const table = "export const T = () => <table><tbody /></table>;\n";
    expect(await problems("pages/shared-report/SharedReportPage.tsx", table)).toEqual([
      expect.stringMatching(/^Every table is a DataTable/),
    ]);
    expect(await problems("components/DataTable.tsx", table)).toEqual([]);
    const footer = 'import { ShowMore } from "../../components/ShowMore";\nexport const x = ShowMore;\n';
    expect(await problems("pages/creators/CreatorsPage.tsx", footer)).toEqual([expect.stringMatching(/DataTable or PagedList/)]);
  });

  it("fail numbers and dates formatted by hand, a platform written out, a description cut mid-word", async () => {
    const code = [
      "export const a = (n: number) => n.toLocaleString('en-US');",
      "export const b = (d: Date) => d.toLocaleDateString();",
      "export const c = new Intl.NumberFormat('en');",
      "export const d = 'PLATFORM_A';",
      "export const e = (v: { description: string }) => v.description.slice(0, 80);",
      "declare const videoTitle: (v: object) => string;",
      "export const f = (v: object) => videoTitle(v).slice(0, 80);",
      "",
    ].join("\n");
    const found = await problems("pages/folder/FolderReports.tsx", code);
    expect(found.filter((m) => m.startsWith("Numbers and dates read through lib/format.ts"))).toHaveLength(3);
    expect(found.filter((m) => m.startsWith("Platforms are written once"))).toHaveLength(1);
    expect(found.filter((m) => m.startsWith("Cut text for people"))).toHaveLength(2);
    // lib/format.ts is where they are written once.
    expect(await problems("lib/format.ts", "export const c = new Intl.NumberFormat('en');\nexport const d = 'PLATFORM_A';\n")).toEqual([]);
  });

  it("fail a mutation committed outside useAction", async () => {
    const found = await problems(
      "pages/settings/ApiKeysSection.tsx",
      'import { useMutation } from "react-relay";\nexport const x = useMutation;\n',
    );
    expect(found).toEqual([expect.stringMatching(/Run a mutation through useAction/)]);
  });
});
