/**
 * Runs once per `npm test`: builds this run's template database with every migration applied
 * (through the real `prisma migrate deploy`, as `npm start` does) and removes databases left by
 * earlier runs. Test files learn the template's name through vitest's provide/inject.
 */
import { execFileSync } from "node:child_process";
import type { TestProject } from "vitest/node";
import { dropDatabase, dropStaleDatabases, templateName, urlFor, withAdmin } from "./db-admin.js";

declare module "vitest" {
  export interface ProvidedContext {
    templateDb: string;
    runPid: number;
  }
}

export default async function setup(project: TestProject) {
  await dropStaleDatabases();
  const template = templateName(process.pid);
  await dropDatabase(template);
  await withAdmin((c) => c.query(`CREATE DATABASE "${template}"`));
  try {
    execFileSync("npx", ["prisma", "migrate", "deploy"], {
      env: { ...process.env, DATABASE_URL: urlFor(template) },
      stdio: ["ignore", "pipe", "pipe"],
    });
  } catch (e) {
    const err = e as { stdout?: Buffer; stderr?: Buffer };
    throw new Error(`prisma migrate deploy failed on the test template:\n${err.stdout?.toString() ?? ""}\n${err.stderr?.toString() ?? ""}`);
  }
  project.provide("templateDb", template);
  project.provide("runPid", process.pid);
  return async () => {
    await dropDatabase(template);
  };
}
