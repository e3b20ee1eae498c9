/** Documents that use @defer or @stream (incremental delivery): graphql-jit cannot run them, and their subscription answers are not shared. */
import { type DocumentNode, visit } from "graphql";

const incremental = new WeakMap<DocumentNode, boolean>();

export function isIncremental(document: DocumentNode): boolean {
  let found = incremental.get(document);
  if (found === undefined) {
    found = false;
    visit(document, {
      Directive(node) {
        if (node.name.value === "defer" || node.name.value === "stream") found = true;
      },
    });
    incremental.set(document, found);
  }
  return found;
}
