/**
 * A webhook receiver on loopback for the tests: records every request (headers, raw body, time)
 * and answers as the test says; and an independent check of the Standard Webhooks signature
 * (node:crypto, not the `standardwebhooks` package the service signs with).
 */
import { createHmac, timingSafeEqual } from "node:crypto";
import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  at: number;
}

/** How to answer the n-th request (from 1) to a path: a status, or a function that answers itself. */
export type Answer = number | ((res: ServerResponse, n: number) => void);

export interface Receiver {
  url: (path?: string) => string;
  received: Received[];
  /** Requests to `path`. */
  at: (path: string) => Received[];
  /** How `path` answers its n-th request; default 200. */
  answer: (path: string, fn: (n: number) => Answer) => void;
  close(): Promise<void>;
}

export async function startReceiver(): Promise<Receiver> {
  const received: Received[] = [];
  const answers = new Map<string, (n: number) => Answer>();
  const counts = new Map<string, number>();
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const path = (req.url ?? "/").split("?")[0]!;
      received.push({ path, headers: req.headers, body: Buffer.concat(chunks).toString("utf8"), at: Date.now() });
      const n = (counts.get(path) ?? 0) + 1;
      counts.set(path, n);
      const a = answers.get(path)?.(n) ?? 200;
      if (typeof a === "number") res.writeHead(a, { "content-type": "text/plain" }).end(a < 300 ? "ok" : "no");
      else a(res, n);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: (path = "/hook") => `http://127.0.0.1:${port}${path}`,
    received,
    at: (path) => received.filter((r) => r.path === path),
    answer: (path, fn) => answers.set(path, fn),
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * The Standard Webhooks scheme, written here from the specification: `v1,` + base64 of
 * HMAC-SHA256(key, `${id}.${timestamp}.${body}`), the key being the base64-decoded secret after
 * `whsec_`; the header may hold several space-separated signatures.
 */
export function verifySignature(secret: string, r: Pick<Received, "headers" | "body">): boolean {
  const id = r.headers["webhook-id"];
  const ts = r.headers["webhook-timestamp"];
  const sigs = r.headers["webhook-signature"];
  if (typeof id !== "string" || typeof ts !== "string" || typeof sigs !== "string" || !secret.startsWith("whsec_")) return false;
  const key = Buffer.from(secret.slice("whsec_".length), "base64");
  const expected = Buffer.from(createHmac("sha256", key).update(`${id}.${ts}.${r.body}`).digest("base64"));
  return sigs.split(" ").some((s) => {
    const [version, sig] = s.split(",");
    const given = Buffer.from(sig ?? "");
    return version === "v1" && given.length === expected.length && timingSafeEqual(given, expected);
  });
}

export { waitFor } from "../helpers/wait.js";
