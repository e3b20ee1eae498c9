/** The admin CLI as an operator runs it: `npm run cli -- ...args --json`; stdout must be one JSON object. */
import { execFile } from "node:child_process";
import { promisify } from "node:util";

const run = promisify(execFile);

export async function cli(...args: string[]): Promise<{ code: number; json: any }> {
  try {
    const { stdout } = await run("npm", ["run", "--silent", "cli", "--", ...args, "--json"], { env: process.env });
    return { code: 0, json: JSON.parse(stdout) };
  } catch (e) {
    const err = e as { code: number; stdout: string };
    return { code: err.code, json: JSON.parse(err.stdout) };
  }
}
