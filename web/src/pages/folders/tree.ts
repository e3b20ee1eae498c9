/**
 * The folders' tree from a flat list (each folder names its parent): depth-first, siblings by name, so
 * a folder's sub-folders follow it. The folders page reads the list oldest first, so a page holds its
 * folders' parents (a parent is made before its sub-folders); a folder whose parent is not in the list
 * (moved under a newer folder, and that one not read yet) starts a branch of its own at the top. Plain
 * data, no React.
 */
export interface TreeNode {
  readonly uuid: string;
  readonly name: string;
  readonly parentUuid?: string | null;
}

export interface TreeRow<T extends TreeNode> {
  node: T;
  /** 0 for a top-level folder. */
  depth: number;
  /** "Client / Campaign / Creator": the folder's place, for choosing a folder by name. */
  path: string;
}

export function folderTree<T extends TreeNode>(folders: readonly T[]): TreeRow<T>[] {
  const known = new Set(folders.map((f) => f.uuid));
  const children = new Map<string | null, T[]>();
  for (const f of folders) {
    const parent = f.parentUuid && known.has(f.parentUuid) ? f.parentUuid : null;
    children.set(parent, [...(children.get(parent) ?? []), f]);
  }
  const out: TreeRow<T>[] = [];
  const visit = (parent: string | null, depth: number, path: string) => {
    const kids = [...(children.get(parent) ?? [])].sort((a, b) => a.name.localeCompare(b.name));
    for (const node of kids) {
      const here = path ? `${path} / ${node.name}` : node.name;
      out.push({ node, depth, path: here });
      visit(node.uuid, depth + 1, here);
    }
  };
  visit(null, 0, "");
  return out;
}
