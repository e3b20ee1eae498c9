/**
 * The estimated cost of an operation (GRAPHQL_MAX_COST), graphql-armor's formula with the types known.
 *
 * The formula is graphql-armor's cost limit, unchanged (a leaf costs 1, an object 2 plus 1.5 times
 * what it selects, a selection times its literal `first`/`last`, a fragment spread 1 plus 1.5 times
 * the fragment, `__schema` nothing: it has its own rule). What armor cannot know, having no schema in
 * its walk, is which fragments apply: it adds every branch of `... on Video { … } ... on Account { … }`
 * wherever it is spread, although on a Video only the first ever runs. This walk carries the type in
 * scope and leaves out a fragment whose type cannot overlap it, so one fragment on `Node` with a
 * branch per type (the dashboard's history chart) costs on a Video what the Video branch costs.
 * Nothing that can run is left out: a branch is skipped only when graphql-js's own `doTypesOverlap`
 * says no object can be of both types.
 */
import {
  GraphQLError,
  Kind,
  doTypesOverlap,
  getNamedType,
  isCompositeType,
  isObjectType,
  TypeMetaFieldDef,
  type ASTVisitor,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLCompositeType,
  type GraphQLSchema,
  type SelectionNode,
  type ValidationContext,
} from "graphql";

const SCALAR_COST = 1;
const OBJECT_COST = 2;
const DEPTH_FACTOR = 1.5;
/**
 * Past this many levels the walk stops and calls the operation as costly as can be: the depth rule
 * refuses it anyway (GRAPHQL_MAX_DEPTH is far lower), and a walk of thousands of levels would run out
 * of stack before it could say so.
 */
const MAX_WALK_DEPTH = 200;

/** The type a fragment's selections are read in: the narrower of the scope and the condition, or null when they cannot overlap. */
export function fragmentScope(
  schema: GraphQLSchema,
  scope: GraphQLCompositeType | null,
  condition: GraphQLCompositeType | undefined,
): GraphQLCompositeType | null {
  if (!condition) return scope;
  if (!scope) return condition; // the type in scope is not known: nothing is left out
  if (!doTypesOverlap(schema, scope, condition)) return null;
  // A concrete scope stays (a Video spread with a fragment on Node is read as a Video).
  return isObjectType(scope) ? scope : condition;
}

/** The page a connection asks for by literal (graphql-armor's rule: variables count 1). */
function literalPage(field: FieldNode): number {
  for (const arg of field.arguments ?? []) {
    if (arg.name.value !== "first" && arg.name.value !== "last") continue;
    return arg.value.kind === Kind.INT ? Math.max(parseInt(arg.value.value, 10) || 1, 1) : 1;
  }
  return 1;
}

export function operationCost(
  schema: GraphQLSchema,
  fragments: (name: string) => FragmentDefinitionNode | undefined | null,
  selections: readonly SelectionNode[],
  root: GraphQLCompositeType,
): number {
  const spreadCost = new Map<string, number>(); // per fragment and scope; -1 while it is being read (a cycle is another rule's error)

  const selectionCost = (s: SelectionNode, scope: GraphQLCompositeType | null, depth: number): number => {
    if (depth > MAX_WALK_DEPTH) return Number.MAX_SAFE_INTEGER;
    if (s.kind === Kind.FIELD) return fieldCost(s, scope, depth);
    if (s.kind === Kind.INLINE_FRAGMENT) {
      const on = s.typeCondition ? schema.getType(s.typeCondition.name.value) : undefined;
      const inner = on && isCompositeType(on) ? fragmentScope(schema, scope, on) : scope;
      if (!inner && scope && on) return 0; // a branch that cannot apply here
      return OBJECT_COST + s.selectionSet.selections.reduce((sum, c) => sum + DEPTH_FACTOR * selectionCost(c, inner, depth + 1), 0);
    }
    const fragment = fragments(s.name.value);
    const on = fragment && schema.getType(fragment.typeCondition.name.value);
    const inner = on && isCompositeType(on) ? fragmentScope(schema, scope, on) : null;
    if (!fragment || !inner) return fragment ? 0 : SCALAR_COST;
    const key = `${s.name.value}@${inner.name}`;
    const known = spreadCost.get(key);
    if (known !== undefined) return SCALAR_COST + DEPTH_FACTOR * Math.max(known, 0);
    spreadCost.set(key, -1);
    const cost =
      OBJECT_COST + fragment.selectionSet.selections.reduce((sum, c) => sum + DEPTH_FACTOR * selectionCost(c, inner, depth + 1), 0);
    spreadCost.set(key, cost);
    return SCALAR_COST + DEPTH_FACTOR * cost;
  };

  const fieldCost = (field: FieldNode, scope: GraphQLCompositeType | null, depth: number): number => {
    if (field.name.value === "__schema") return 0;
    if (!field.selectionSet) return SCALAR_COST;
    // Meta fields are not among a type's fields (`__type` answers a __Type).
    const def =
      field.name.value === "__type" ? TypeMetaFieldDef : scope && "getFields" in scope ? scope.getFields()[field.name.value] : undefined;
    const named = def ? getNamedType(def.type) : undefined;
    // An unknown field is the validation rules' error; its selection is then counted with no fragment left out.
    const inner = named && isCompositeType(named) ? named : null;
    const children = field.selectionSet.selections.reduce((sum, c) => sum + DEPTH_FACTOR * selectionCost(c, inner, depth + 1), 0);
    return (OBJECT_COST + children) * literalPage(field);
  };

  return selections.reduce((sum, s) => sum + selectionCost(s, root, 0), 0);
}

/** The validation rule: over `maxCost`, `report` is handed graphql-armor's error text (its "found N" read by the caller's message). */
export const costLimitRule =
  (maxCost: number, report: (context: ValidationContext, error: GraphQLError) => void) =>
  (context: ValidationContext): ASTVisitor => ({
    OperationDefinition(operation) {
      const schema = context.getSchema();
      const root =
        operation.operation === "query"
          ? schema.getQueryType()
          : operation.operation === "mutation"
            ? schema.getMutationType()
            : schema.getSubscriptionType();
      if (!root) return;
      const cost = operationCost(schema, (name) => context.getFragment(name), operation.selectionSet.selections, root);
      if (cost > maxCost) report(context, new GraphQLError(`Query Cost limit of ${maxCost} exceeded, found ${cost}.`));
    },
  });
