/*
 * GraphiQL's page script, run by the browser (not by the service): served by src/http/graphql/graphiql.ts
 * under a name carrying its hash, after @graphql-yoga/render-graphiql's bundle (both `defer`). A file, so
 * that the page's Content-Security-Policy allows scripts of this origin only (src/http/pages.ts): the
 * page's options arrive as a JSON data block (`#graphiql-options`), which the browser does not run.
 *
 * It starts GraphiQL with those options, sends the workspace chosen in the dashboard (signed in), and
 * guards a link's document: GraphiQL pre-fills its editor from `?query=` in the address, so a link (or
 * a page of another port of the same host) can hand a person a mutation one click on Run away from
 * running with their session. When the address carried a document with a mutation, every mutation
 * this page sends is first shown in words (its operation and the fields it runs) and runs only once
 * the person confirms. GraphiQL offers no hook before it sends, so the page's `fetch` is wrapped: the
 * bundle's executor calls `globalThis.fetch` at each request.
 *
 * The document is read with a small GraphQL lexer (the bundle's graphql-js is not exposed): enough to
 * find the operations, their kind, their name and their root fields, skipping strings, comments,
 * arguments and directives.
 */
(function () {
  "use strict";
  const page = JSON.parse(document.getElementById("graphiql-options").textContent);
  const options = page.options;

  // Monaco (the editor) runs its workers from this origin's files.
  self.MonacoEnvironment = { globalAPI: false, getWorkerUrl: (_moduleId, label) => page.workers[label] };

  // Signed in: the workspace chosen in the dashboard, as the dashboard sends it (only one of the person's own).
  try {
    const chosen = window.localStorage.getItem(page.workspaceStorageKey);
    if (options.additionalHeaders && chosen && page.workspaces.includes(chosen)) options.additionalHeaders["x-workspace-id"] = chosen;
  } catch {
    // storage refused: the session's last choice applies
  }

  /** The tokens of a GraphQL document that matter here: names and punctuators (strings, numbers and comments dropped). */
  function tokens(source) {
    const out = [];
    const punct = /^(?:\.\.\.|[!$&():=@[\]{|}])/;
    let i = 0;
    while (i < source.length) {
      const rest = source.slice(i);
      const space = /^[\s,\uFEFF]+|^#[^\n\r]*/.exec(rest);
      if (space) {
        i += space[0].length;
        continue;
      }
      const block = /^"""(?:\\"""|[^])*?"""/.exec(rest);
      const string = block || /^"(?:\\.|[^"\\\n\r])*"/.exec(rest);
      if (string) {
        i += string[0].length;
        continue;
      }
      const name = /^[_A-Za-z][_0-9A-Za-z]*/.exec(rest);
      if (name) {
        out.push({ name: name[0] });
        i += name[0].length;
        continue;
      }
      const p = punct.exec(rest);
      if (p) out.push({ punct: p[0] });
      i += p ? p[0].length : 1; // a number's characters, or anything unreadable: skipped
    }
    return out;
  }

  /** The document's operations: `{ kind, name, fields }`, fields being the root fields each runs. */
  function operations(source) {
    const ops = [];
    const list = tokens(String(source || ""));
    let depth = 0;
    let parens = 0;
    let current = null;
    for (let i = 0; i < list.length; i++) {
      const t = list[i];
      if (t.punct === "(") parens++;
      else if (t.punct === ")") parens--;
      if (parens > 0 || t.punct === ")") continue;
      if (depth === 0 && t.name !== undefined) {
        if (t.name === "query" || t.name === "mutation" || t.name === "subscription") {
          current = { kind: t.name, name: list[i + 1] && list[i + 1].name !== undefined ? list[i + 1].name : null, fields: [] };
          ops.push(current);
        } else if (t.name === "fragment") current = { kind: "fragment", name: null, fields: [] }; // not an operation: not listed
      } else if (t.punct === "{") {
        if (depth === 0 && !current) ops.push((current = { kind: "query", name: null, fields: [] }));
        depth++;
      } else if (t.punct === "}") {
        depth--;
        if (depth === 0) current = null;
      } else if (depth === 1 && current) {
        if (t.punct === "@")
          i++; // a directive's name
        else if (t.punct === "...") {
          current.fields.push("(the fields of a fragment)");
          i += list[i + 1] && list[i + 1].name === "on" ? 2 : 1; // `... on Type { … }` or `...Name`
        } else if (t.name !== undefined && t.name !== "on") {
          const aliased = list[i + 1] && list[i + 1].punct === ":";
          current.fields.push(aliased && list[i + 2] ? list[i + 2].name : t.name);
          if (aliased) i += 2;
        }
      }
    }
    return ops;
  }

  /** The operation a request runs, as GraphQL picks it: by name, or the only one. */
  function operationRun(params) {
    const ops = operations(params && params.query);
    if (params && params.operationName) return ops.find((o) => o.name === params.operationName) || null;
    if (ops.length === 1) return ops[0];
    return ops.find((o) => o.kind === "mutation") || null; // several and no name: GraphQL refuses it; ask anyway
  }

  function inWords(op) {
    const fields = op.fields.length ? op.fields.join(", ") : "(none it could read)";
    return (
      "This GraphQL document came from a link (?query= in this explorer's address, now or on an earlier visit), and this operation changes data:\n\n" +
      `mutation ${op.name || "(unnamed)"}, which runs: ${fields}\n\n` +
      "Run it with your session? Cancel unless you wrote it or expected it."
    );
  }

  /**
   * Documents with a mutation that arrived by link, kept in this browser: GraphiQL saves a linked document as a
   * tab (localStorage), so a link's mutation dismissed today could be run from that tab on a later visit with no
   * link in the address. A mutation shaped as one of these asks first, on any visit, until the
   * person confirms it once; a document the person edited is theirs and runs at once.
   */
  const LINKED_KEY = "service:graphiql-linked-mutations"; // not under "graphiql:", which GraphiQL manages (and may clear)
  // GraphiQL sends a document compacted (no spaces or commas): compared by its names and punctuators
  // (strings and numbers aside, so a document shaped like a linked one asks too: never fewer questions).
  const normal = (q) =>
    tokens(String(q || ""))
      .map((t) => t.name || t.punct)
      .join(" ");
  const fromLinks = (() => {
    try {
      const kept = JSON.parse(window.localStorage.getItem(LINKED_KEY) || "[]");
      return Array.isArray(kept) ? kept.filter((q) => typeof q === "string") : [];
    } catch {
      return [];
    }
  })();
  const keep = () => {
    try {
      window.localStorage.setItem(LINKED_KEY, JSON.stringify(fromLinks.slice(-20)));
    } catch {
      // storage refused (private mode): this visit still asks
    }
  };
  const linked = new URL(window.location.href).searchParams.get("query");
  if (linked && operations(linked).some((o) => o.kind === "mutation") && !fromLinks.includes(normal(linked))) {
    fromLinks.push(normal(linked));
    keep();
  }
  if (fromLinks.length > 0) {
    const send = window.fetch.bind(window);
    const endpoint = new URL(options.endpoint || window.location.pathname, window.location.href).href;
    window.fetch = async function (input, init) {
      const request = input instanceof Request ? input : null;
      const url = new URL(request ? request.url : String(input), window.location.href);
      const method = String((init && init.method) || (request && request.method) || "GET").toUpperCase();
      if (method === "POST" && url.origin + url.pathname === new URL(endpoint).origin + new URL(endpoint).pathname) {
        let params = null;
        try {
          params = JSON.parse(init && typeof init.body === "string" ? init.body : request ? await request.clone().text() : "null");
        } catch {
          params = null;
        }
        const op = operationRun(params);
        const at = op && op.kind === "mutation" ? fromLinks.indexOf(normal(params.query)) : -1;
        if (at >= 0) {
          if (!window.confirm(inWords(op))) {
            const refused = { errors: [{ message: `Not run: the mutation ${op.name || "(unnamed)"} from the link was not confirmed.` }] };
            return new Response(JSON.stringify(refused), { status: 200, headers: { "content-type": "application/json" } });
          }
          fromLinks.splice(at, 1);
          keep();
        }
      }
      return send(input, init);
    };
  }

  YogaGraphiQL.renderYogaGraphiQL(document.getElementById("root"), options);
})();
