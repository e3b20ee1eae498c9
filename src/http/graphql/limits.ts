/**
 * What one GraphQL operation may cost, on every door (HTTP, SSE, graphql-ws: they all run these
 * envelop plugins), refused before anything runs with a GraphQL error whose `extensions.code` says
 * which bound it crossed:
 *
 * - QUERY_TOO_LARGE: more than GRAPHQL_MAX_TOKENS tokens (checked while parsing, so a 1 MiB document
 *   of repeated directives or fragment spreads stops at the limit instead of being parsed whole), or
 *   nesting too deep for the parser;
 * - QUERY_TOO_DEEP: deeper than GRAPHQL_MAX_DEPTH (graphql-armor's rule; a connection adds two
 *   levels, `edges` and `node`);
 * - QUERY_TOO_COSTLY: over GRAPHQL_MAX_COST (graphql-armor's shape cost, with fragments that cannot apply left out: cost.ts), `__schema` asked more than
 *   once or introspection expanded below the first level (`limitIntrospection`), or an answer that
 *   could hold more than GRAPHQL_MAX_RESPONSE_VALUES values (`answerSize`: lists counted at their page size);
 * - QUERY_TOO_MANY_ALIASES, QUERY_TOO_MANY_DIRECTIVES: over GRAPHQL_MAX_ALIASES aliases or
 *   GRAPHQL_MAX_DIRECTIVES directives.
 *
 * Every message says what was found, the limit, the setting that holds it and what to ask instead.
 *
 * Why the introspection rule: the depth limit exempts `__schema` (GraphiQL's and codegen's
 * introspection query is deeper than any application query), and 4,500 aliased `__schema`
 * selections in one document answered 420 MiB. An operation may now ask for `__schema` once (a few
 * `__type(name:)` are fine: each answers one type, and aliases are bounded), and may list a type's members (`fields`, `inputFields`, `enumValues`,
 * `interfaces`, `possibleTypes`) only once along any path: every standard introspection query
 * does (below the first level it asks only `kind`, `name` and `ofType`), and the answer is then
 * bounded by the schema's size. The answer-size bound covers everything else: aliases, nested
 * connections of 100 items each, `nodes(ids:)`.
 */
import {
  GraphQLError,
  Kind,
  visit,
  getNamedType,
  isListType,
  isNonNullType,
  isCompositeType,
  type ASTVisitor,
  type DocumentNode,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLCompositeType,
  type GraphQLOutputType,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionSetNode,
  type ValidationContext,
  type ValueNode,
} from "graphql";
import type { Plugin } from "graphql-yoga";
import { maxDepthPlugin } from "@escape.tech/graphql-armor-max-depth";
import { maxAliasesPlugin } from "@escape.tech/graphql-armor-max-aliases";
import { maxDirectivesPlugin } from "@escape.tech/graphql-armor-max-directives";
import { MaxTokensParserWLexer } from "@escape.tech/graphql-armor-max-tokens";
import { config } from "../../config.ts";
import { MAX_PAGE_SIZE } from "../../domain/shared/inputs.ts";
import { costLimitRule, fragmentScope } from "./cost.ts";

export type LimitCode = "QUERY_TOO_LARGE" | "QUERY_TOO_DEEP" | "QUERY_TOO_COSTLY" | "QUERY_TOO_MANY_ALIASES" | "QUERY_TOO_MANY_DIRECTIVES";

export function limitError(code: LimitCode, message: string): GraphQLError {
  return new GraphQLError(message, { extensions: { code, http: { status: 400 } } });
}

const count = (n: number) => Math.round(n).toLocaleString("en");

/** What each graphql-armor bound says, in our words: what was found, the limit and its setting, and what to ask instead. */
const ARMOR_MESSAGES = {
  QUERY_TOO_DEEP: (found: number, limit: number) =>
    `The operation nests ${count(found)} levels deep; the limit is ${count(limit)} (GRAPHQL_MAX_DEPTH; a connection adds two levels, edges and node). Ask for fewer nested levels.`,
  QUERY_TOO_COSTLY: (found: number, limit: number) =>
    `The operation's estimated cost is ${count(found)}; the limit is ${count(limit)} (GRAPHQL_MAX_COST: a field costs 1 and an object 2, ` +
    `each level of nesting 1.5 times more, a connection's selection times its literal first/last). Ask for fewer fields, fewer nested connections or smaller pages.`,
  QUERY_TOO_MANY_ALIASES: (found: number, limit: number) =>
    `The operation has ${count(found)} aliases; the limit is ${count(limit)} (GRAPHQL_MAX_ALIASES). Ask for the same field under fewer names, or in several operations.`,
  QUERY_TOO_MANY_DIRECTIVES: (found: number, limit: number) =>
    `The operation has ${count(found)} directives; the limit is ${count(limit)} (GRAPHQL_MAX_DIRECTIVES).`,
} satisfies Partial<Record<LimitCode, (found: number, limit: number) => string>>;

/**
 * graphql-armor's refusals ("Syntax Error: Query Cost limit of 50000 exceeded, found 1437500.": not a
 * syntax error, and no code) as our errors: the code and ARMOR_MESSAGES's sentence, from the numbers of
 * the library's message (its own text when it names none).
 */
const reportAs =
  (code: keyof typeof ARMOR_MESSAGES, limit: number) =>
  (context: ValidationContext | null, error: GraphQLError): void => {
    const found = /found (\d+(?:\.\d+)?)/.exec(error.message);
    context?.reportError(
      limitError(code, found ? ARMOR_MESSAGES[code](Number(found[1]), limit) : error.message.replace(/^Syntax Error: /, "")),
    );
  };

const armor = <T>(code: keyof typeof ARMOR_MESSAGES, limit: number, options: T) => ({
  ...options,
  exposeLimits: true,
  propagateOnRejection: false,
  onReject: [reportAs(code, limit)],
});

// ---------------------------------------------------------------------------------------------
// Parsing: a token budget, and nesting the parser cannot recurse through

/**
 * Parses with graphql-armor's token-counting parser: past GRAPHQL_MAX_TOKENS the parse stops there.
 * A document nested deeper than the parser's recursion can go (thousands of `{`) is the same refusal
 * rather than a stack overflow answered INTERNAL_ERROR.
 */
function parseWithinBudget(source: string | { body: string }, options?: object): DocumentNode {
  try {
    return new MaxTokensParserWLexer(source as string, { ...options, n: config.graphql.maxTokens } as never).parseDocument();
  } catch (e) {
    if (e instanceof GraphQLError && /Token limit of \d+ exceeded/.test(e.message)) {
      throw limitError("QUERY_TOO_LARGE", `The document has more than ${config.graphql.maxTokens} tokens (GRAPHQL_MAX_TOKENS).`);
    }
    if (e instanceof RangeError) throw limitError("QUERY_TOO_DEEP", "The document is nested too deeply to be parsed.");
    throw e;
  }
}

const limitTokens: Plugin = {
  onParse({ setParseFn }) {
    setParseFn(parseWithinBudget as never);
  },
};

// ---------------------------------------------------------------------------------------------
// Introspection: once per operation, a type's members listed once along any path

const INTROSPECTION_ROOTS = new Set(["__schema", "__type"]);
const TYPE_MEMBERS = new Set(["fields", "inputFields", "enumValues", "interfaces", "possibleTypes"]);

/** The response keys of the root fields of an operation (fragments at the root followed). */
function rootFields(
  selectionSet: SelectionSetNode,
  fragments: (name: string) => FragmentDefinitionNode | undefined,
  seen = new Set<string>(),
): FieldNode[] {
  const out: FieldNode[] = [];
  for (const s of selectionSet.selections) {
    if (s.kind === Kind.FIELD) out.push(s);
    else if (s.kind === Kind.INLINE_FRAGMENT) out.push(...rootFields(s.selectionSet, fragments, seen));
    else if (!seen.has(s.name.value)) {
      seen.add(s.name.value);
      const f = fragments(s.name.value);
      if (f) out.push(...rootFields(f.selectionSet, fragments, seen));
    }
  }
  return out;
}

/** Whether a selection lists a type's members below a level that already did (fragments followed once per state). */
function expandsTwice(
  selectionSet: SelectionSetNode,
  expanded: boolean,
  fragments: (name: string) => FragmentDefinitionNode | undefined,
  memo: Map<string, boolean>,
): boolean {
  for (const s of selectionSet.selections) {
    if (s.kind === Kind.FIELD) {
      const lists = TYPE_MEMBERS.has(s.name.value);
      if (lists && expanded) return true;
      if (s.selectionSet && expandsTwice(s.selectionSet, expanded || lists, fragments, memo)) return true;
    } else if (s.kind === Kind.INLINE_FRAGMENT) {
      if (expandsTwice(s.selectionSet, expanded, fragments, memo)) return true;
    } else {
      const key = `${s.name.value}:${expanded}`;
      if (!memo.has(key)) {
        memo.set(key, false); // a cycle is another rule's error (NoFragmentCycles)
        const f = fragments(s.name.value);
        memo.set(key, !!f && expandsTwice(f.selectionSet, expanded, fragments, memo));
      }
      if (memo.get(key)) return true;
    }
  }
  return false;
}

const limitIntrospection = (context: ValidationContext): ASTVisitor => ({
  OperationDefinition(operation) {
    const fragments = (name: string) => context.getFragment(name) ?? undefined;
    const introspection = rootFields(operation.selectionSet, fragments).filter((f) => INTROSPECTION_ROOTS.has(f.name.value));
    const schemas = new Set(introspection.filter((f) => f.name.value === "__schema").map((f) => f.alias?.value ?? f.name.value));
    if (schemas.size > 1) {
      context.reportError(
        limitError(
          "QUERY_TOO_COSTLY",
          `An operation may ask for the schema's introspection (__schema) once; this one asks ${schemas.size} times.`,
        ),
      );
      return;
    }
    const memo = new Map<string, boolean>();
    if (introspection.some((f) => f.selectionSet && expandsTwice(f.selectionSet, false, fragments, memo))) {
      context.reportError(
        limitError(
          "QUERY_TOO_COSTLY",
          "Introspection may list a type's members (fields, inputFields, enumValues, interfaces, possibleTypes) once along a path; below that, ask for kind, name and ofType.",
        ),
      );
    }
  },
});

// ---------------------------------------------------------------------------------------------
// The answer's size, before anything runs

/** A list that is not a connection's page nor sized by a list argument: at most a page (every list the schema serves is bounded so). */
const DEFAULT_LIST_SIZE = MAX_PAGE_SIZE;
/** A connection asked without first/last answers Pothos's default page. */
const DEFAULT_PAGE_SIZE = 20;

function valueOf(node: ValueNode, variables: Record<string, unknown>): unknown {
  switch (node.kind) {
    case Kind.VARIABLE:
      return variables[node.name.value];
    case Kind.INT:
      return Number(node.value);
    case Kind.LIST:
      return node.values;
    default:
      return undefined;
  }
}

/** The page a connection field asks for: `first` or `last` (what the connection's own rule allows), else the default page. */
function pageSizeOf(field: FieldNode, variables: Record<string, unknown>): number {
  let size: number | undefined;
  for (const arg of field.arguments ?? []) {
    if (arg.name.value !== "first" && arg.name.value !== "last") continue;
    const v = valueOf(arg.value, variables);
    if (typeof v === "number" && Number.isInteger(v)) size = Math.max(size ?? 0, Math.min(Math.max(v, 0), MAX_PAGE_SIZE));
  }
  return size ?? DEFAULT_PAGE_SIZE;
}

/** How many items a list field may answer: a connection's page for its `edges`, the length of a list argument (`nodes(ids:)`), else a page. */
function listSizeOf(field: FieldNode, parentPage: number | undefined, variables: Record<string, unknown>): number {
  if (field.name.value === "edges" && parentPage !== undefined) return parentPage;
  let size: number | undefined;
  for (const arg of field.arguments ?? []) {
    const v = valueOf(arg.value, variables);
    if (Array.isArray(v)) size = Math.max(size ?? 0, v.length);
  }
  return size ?? DEFAULT_LIST_SIZE;
}

const unwrap = (type: GraphQLOutputType): GraphQLOutputType => (isNonNullType(type) ? type.ofType : type);

/**
 * The most values an operation can answer: every field counts one, a list multiplies what it holds
 * by its size. Fragments are counted where they are spread (each spread once, memoized); a field
 * selected twice under one key counts twice (an over-estimate, never an under-estimate). Introspection
 * counts one (bounded by `limitIntrospection`).
 */
export function answerSize(
  schema: GraphQLSchema,
  document: DocumentNode,
  operation: OperationDefinitionNode,
  variables: Record<string, unknown> = {},
): number {
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const d of document.definitions) if (d.kind === Kind.FRAGMENT_DEFINITION) fragments.set(d.name.value, d);
  const memo = new Map<string, number>();

  const sizeOf = (
    selectionSet: SelectionSetNode,
    parent: GraphQLCompositeType,
    page: number | undefined,
    visiting: Set<string>,
  ): number => {
    let total = 0;
    for (const s of selectionSet.selections) {
      if (s.kind === Kind.FIELD) {
        total += fieldSize(s, parent, page, visiting);
      } else if (s.kind === Kind.INLINE_FRAGMENT) {
        const on = s.typeCondition ? schema.getType(s.typeCondition.name.value) : parent;
        const scope = on && isCompositeType(on) ? fragmentScope(schema, parent, on) : parent;
        if (scope) total += sizeOf(s.selectionSet, scope, page, visiting);
      } else {
        const name = s.name.value;
        const f = fragments.get(name);
        const on = f && schema.getType(f.typeCondition.name.value);
        // A fragment whose type cannot be the parent's never answers anything there.
        const scope = on && isCompositeType(on) ? fragmentScope(schema, parent, on) : null;
        const key = `${name}:${scope?.name ?? ""}:${page ?? ""}`;
        if (!memo.has(key))
          memo.set(key, f && scope && !visiting.has(name) ? sizeOf(f.selectionSet, scope, page, new Set(visiting).add(name)) : 0);
        total += memo.get(key)!;
      }
      if (total > Number.MAX_SAFE_INTEGER / 2) return total;
    }
    return total;
  };

  const fieldSize = (field: FieldNode, parent: GraphQLCompositeType, page: number | undefined, visiting: Set<string>): number => {
    const name = field.name.value;
    if (name.startsWith("__")) return 1; // __typename; __schema/__type: bounded by limitIntrospection
    const def = "getFields" in parent ? parent.getFields()[name] : undefined;
    if (!def || !field.selectionSet) {
      return def && isListType(unwrap(def.type)) ? listSizeOf(field, page, variables) : 1;
    }
    const named = getNamedType(def.type);
    if (!isCompositeType(named)) return 1;
    // A connection passes its page size down to its `edges`.
    const childPage = named.name.endsWith("Connection") ? pageSizeOf(field, variables) : undefined;
    const inner = sizeOf(field.selectionSet, named, childPage, visiting);
    let multiplier = 1;
    let type = unwrap(def.type);
    while (isListType(type)) {
      multiplier *= listSizeOf(field, page, variables);
      type = unwrap(type.ofType);
    }
    return 1 + multiplier * inner;
  };

  const root =
    operation.operation === "query"
      ? schema.getQueryType()
      : operation.operation === "mutation"
        ? schema.getMutationType()
        : schema.getSubscriptionType();
  return root ? sizeOf(operation.selectionSet, root, undefined, new Set()) : 0;
}

function operationOf(document: DocumentNode, operationName?: string | null): OperationDefinitionNode | undefined {
  const operations = document.definitions.filter((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION);
  return operationName ? operations.find((o) => o.name?.value === operationName) : operations.length === 1 ? operations[0] : undefined;
}

/** Sizes of operations without variables, per parsed document (Yoga's parser cache hands the same document to every request with the same text). */
const constantSizes = new WeakMap<OperationDefinitionNode, number>();

/** QUERY_TOO_COSTLY when the operation could answer more than GRAPHQL_MAX_RESPONSE_VALUES values, or null. */
export function answerTooLarge(
  schema: GraphQLSchema,
  document: DocumentNode,
  operationName: string | null | undefined,
  variables: Record<string, unknown> | null | undefined,
): GraphQLError | null {
  const operation = operationOf(document, operationName);
  if (!operation) return null; // graphql-js answers that itself
  let size = constantSizes.get(operation);
  if (size === undefined) {
    size = answerSize(schema, document, operation, variables ?? {});
    if (!operation.variableDefinitions?.length) constantSizes.set(operation, size);
  }
  const max = config.graphql.maxResponseValues;
  if (size <= max) return null;
  return limitError(
    "QUERY_TOO_COSTLY",
    `This operation could answer up to ${size > 1e12 ? "more than 10^12" : size.toLocaleString("en")} values (each list counted at its page size: first/last, or 20); the limit is ${max.toLocaleString("en")} (GRAPHQL_MAX_RESPONSE_VALUES). Ask for smaller pages or fewer nested lists.`,
  );
}

/** The `initialCount` arguments of the document's @stream directives (cached per parsed document). */
const streamCounts = new WeakMap<DocumentNode, ValueNode[]>();
function streamCountsOf(document: DocumentNode): ValueNode[] {
  let found = streamCounts.get(document);
  if (!found) {
    const values: ValueNode[] = [];
    visit(document, {
      Directive(node) {
        if (node.name.value !== "stream") return;
        for (const arg of node.arguments ?? []) if (arg.name.value === "initialCount") values.push(arg.value);
      },
    });
    streamCounts.set(document, (found = values));
  }
  return found;
}

/** `@stream(initialCount:)` below 0 is a VALIDATION_ERROR (the executor's own check threw a plain error: INTERNAL_ERROR). */
function negativeStreamCount(document: DocumentNode, variables: Record<string, unknown> | null | undefined): GraphQLError | null {
  for (const node of streamCountsOf(document)) {
    const v = valueOf(node, variables ?? {});
    if (typeof v === "number" && v < 0) {
      return new GraphQLError("@stream's initialCount must be 0 or more.", {
        extensions: { code: "VALIDATION_ERROR", details: [{ path: "initialCount", message: "must be 0 or more" }] },
      });
    }
  }
  return null;
}

/** What is checked once the variables are known, before anything runs. */
function beforeRunning(args: {
  schema: GraphQLSchema;
  document: DocumentNode;
  operationName?: string | null;
  variableValues?: Record<string, unknown> | null;
}) {
  return (
    negativeStreamCount(args.document, args.variableValues) ??
    answerTooLarge(args.schema, args.document, args.operationName, args.variableValues)
  );
}

const boundAnswerSize: Plugin = {
  onExecute({ args, setResultAndStopExecution }) {
    const error = beforeRunning(args);
    if (error) setResultAndStopExecution({ errors: [error] });
  },
  onSubscribe({ args, setResultAndStopExecution }) {
    const error = beforeRunning(args);
    if (error) setResultAndStopExecution({ errors: [error] });
  },
};

/** The plugins, in the order they run: parse (tokens), validate (depth, cost, aliases, directives, introspection), execute (answer size). */
export function operationLimits(): Plugin[] {
  const g = config.graphql;
  return [
    limitTokens,
    maxDepthPlugin(armor("QUERY_TOO_DEEP", g.maxDepth, { n: g.maxDepth })),
    { onValidate: ({ addValidationRule }) => addValidationRule(costLimitRule(g.maxCost, reportAs("QUERY_TOO_COSTLY", g.maxCost))) },
    maxAliasesPlugin(armor("QUERY_TOO_MANY_ALIASES", g.maxAliases, { n: g.maxAliases })),
    maxDirectivesPlugin(armor("QUERY_TOO_MANY_DIRECTIVES", g.maxDirectives, { n: g.maxDirectives })),
    { onValidate: ({ addValidationRule }) => addValidationRule(limitIntrospection) },
    boundAnswerSize,
  ];
}
