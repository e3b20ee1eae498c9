/** `npm run schema:print`: writes schema.graphql from the code. A test fails when they differ. */
import { writeFileSync } from "node:fs";
import { printedSchema } from "../http/graphql/schema.ts";
import { closeDb } from "../infra/db.ts";

writeFileSync(new URL("../../schema.graphql", import.meta.url), printedSchema());
await closeDb();
console.log("schema.graphql written");
