/**
 * ESLint for the dashboard (part of `npm test`): TypeScript's recommended rules, React's hooks rules
 * (rules of hooks, exhaustive dependencies), Relay's rules (documents that parse, operation and
 * fragment names, typed hooks, fragments spread where they are used), and the dashboard's own
 * conventions (web/README.md) wherever a rule can say them: each message says what to do instead.
 * test/web/lint.test.ts proves each of those fails on a file that breaks it.
 */
import js from "@eslint/js";
import tseslint from "typescript-eslint";
import reactHooks from "eslint-plugin-react-hooks";
import relay from "eslint-plugin-relay";

const FORMAT = "Numbers and dates read through lib/format.ts (formatWhole, formatCount, formatDay, formatExact …) and <Time>.";
const ACTION = "Run a mutation through useAction (relay/action.ts): its outcome is then said in words with <Outcome>.";

/** Imports that break a convention, by the files allowed to make them. */
const imports = {
  fetchWhileRendering: {
    name: "react-relay",
    importNames: ["useLazyLoadQuery"],
    message:
      "A query started while rendering waits for the render: a page's data comes from its route's loader (useRouteQuery, " +
      "app/routes.tsx), a part shown on demand starts its query when it opens (useQueryOnOpen, relay/on-open.ts, and <Opened>).",
  },
  preloaded: {
    name: "react-relay",
    importNames: ["usePreloadedQuery", "loadQuery", "useQueryLoader"],
    message: "Read the route's query with useRouteQuery (relay/route-query.ts); open a part's own with useQueryOnOpen and <Opened>.",
  },
  mutation: { name: "react-relay", importNames: ["useMutation", "commitMutation"], message: ACTION },
  runtimeMutation: {
    name: "relay-runtime",
    importNames: ["commitMutation", "ConnectionHandler"],
    message: `${ACTION} Lists change through relay/connections.ts.`,
  },
};
const listFooter = {
  group: ["**/components/ShowMore"],
  message: "A paged list's footer comes with the list kit: DataTable or PagedList (or a Picker) with `paging`.",
};

/** Syntax that breaks a convention, by the files allowed to write it. */
const syntax = {
  table: {
    selector: "JSXOpeningElement[name.name='table']",
    message:
      "Every table is a DataTable (components/DataTable.tsx): caption, th scope, aria-sort, the paged footer and the empty state come with it.",
  },
  localeString: { selector: "CallExpression[callee.property.name=/^toLocale(Date|Time)?String$/]", message: FORMAT },
  intlFormat: {
    selector: "NewExpression[callee.object.name='Intl'][callee.property.name=/^(NumberFormat|DateTimeFormat)$/]",
    message: FORMAT,
  },
  platform: {
    selector: "Literal[value=/^PLATFORM_[A-Z]+$/]",
    message: "Platforms are written once: PLATFORMS and platformName() (lib/format.ts).",
  },
  cutText: {
    selector:
      "CallExpression[callee.property.name=/^(slice|substring|substr)$/]:matches([callee.object.callee.name='videoTitle'], [callee.object.property.name=/^(description|title|name)$/])",
    message: "Cut text for people with truncate() or shortTitle() (lib/format.ts): at a word, with an ellipsis.",
  },
};

/** The rules of `files`, each allowed only where `except` says. */
function conventions(except = {}) {
  const keep = (all, skip = []) => Object.entries(all).flatMap(([name, rule]) => (skip.includes(name) ? [] : [rule]));
  return {
    "no-restricted-imports": ["error", { paths: keep(imports, except.imports), patterns: except.listFooter ? [] : [listFooter] }],
    "no-restricted-syntax": ["error", ...keep(syntax, except.syntax)],
  };
}

export default tseslint.config(
  { ignores: ["dist/**", "src/__generated__/**"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ["src/**/*.{ts,tsx}"],
    plugins: { "react-hooks": reactHooks, relay },
    rules: {
      ...reactHooks.configs.recommended.rules,
      "relay/graphql-syntax": "error",
      "relay/graphql-naming": "error",
      "relay/generated-typescript-types": "error",
      // Off: it counts a field as used only where the same file reads it by name, and the list kit
      // reads fields elsewhere by design (usePagedConnection reads edges and totalCount, VideoCell a
      // video's title fields). TypeScript's generated types keep the reads honest instead.
      "relay/unused-fields": "off",
      "relay/must-colocate-fragment-spreads": "error",
      "relay/hook-required-argument": "error",
      "relay/function-required-argument": "error",
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_" }],
      ...conventions(),
    },
  },
  // Where the kit itself does what the rules send everyone else to.
  { files: ["src/components/DataTable.tsx"], rules: conventions({ syntax: ["table"], listFooter: true }) },
  { files: ["src/components/{PagedList,Picker}.tsx"], rules: conventions({ listFooter: true }) },
  { files: ["src/components/Opened.tsx", "src/relay/{route-query,on-open}.ts"], rules: conventions({ imports: ["preloaded"] }) },
  { files: ["src/relay/{mutations,connections,credits}.ts"], rules: conventions({ imports: ["mutation", "runtimeMutation"] }) },
  { files: ["src/lib/format.ts"], rules: conventions({ syntax: ["localeString", "intlFormat", "platform"] }) },
  { files: ["src/lib/time-axis.ts", "src/pages/campaigns/money.ts"], rules: conventions({ syntax: ["localeString", "intlFormat"] }) },
);
