/**
 * A real SMTP server on loopback for the mail tests (smtp-server receiving, mailparser reading):
 * every accepted mail is kept parsed with its envelope; `failNext(n)` answers the next n mails
 * with a temporary refusal (451), as a busy server would; `user`/`pass` require that login.
 */
import { afterAll } from "vitest";
import { SMTPServer } from "smtp-server";
import { simpleParser, type ParsedMail } from "mailparser";

export interface Received {
  mail: ParsedMail;
  raw: string;
  envelope: { from: string; to: string[] };
  user: string | null;
}

export interface Inbox {
  url: string;
  received: Received[];
  failNext(n: number): void;
  /** Waits until `count` mails matching `match` arrived (10 s at most). */
  waitFor(match: (r: Received) => boolean, count?: number, timeoutMs?: number): Promise<Received[]>;
  close(): Promise<void>;
}

export async function startSmtp(login?: { user: string; pass: string }): Promise<Inbox> {
  const received: Received[] = [];
  let refusals = 0;
  const server = new SMTPServer({
    logger: false,
    secure: false,
    disabledCommands: ["STARTTLS"],
    authOptional: !login,
    allowInsecureAuth: true,
    onAuth(auth, _session, callback) {
      if (login && auth.username === login.user && auth.password === login.pass) return callback(null, { user: auth.username });
      callback(new Error("Invalid username or password"));
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (c: Buffer) => chunks.push(c));
      stream.on("end", () => {
        if (refusals > 0) {
          refusals--;
          return callback(Object.assign(new Error("Try again later"), { responseCode: 451 }));
        }
        const raw = Buffer.concat(chunks).toString("utf8");
        simpleParser(raw).then(
          (mail) => {
            received.push({
              mail,
              raw,
              envelope: {
                from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
                to: session.envelope.rcptTo.map((r) => r.address),
              },
              user: (session.user as string | undefined) ?? null,
            });
            callback();
          },
          (e: Error) => callback(e),
        );
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.server.address() as { port: number }).port;
  return {
    url: login ? `smtp://${login.user}:${login.pass}@127.0.0.1:${port}` : `smtp://127.0.0.1:${port}`,
    received,
    failNext: (n) => (refusals = n),
    async waitFor(match, count = 1, timeoutMs = 10_000) {
      const until = Date.now() + timeoutMs;
      for (;;) {
        const found = received.filter(match);
        if (found.length >= count) return found;
        if (Date.now() > until)
          throw new Error(`timed out waiting for ${count} mail(s); received: ${received.map((r) => r.mail.subject).join(" | ")}`);
        await new Promise((r) => setTimeout(r, 50));
      }
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The links of a mail's text part. */
export const linksOf = (r: Received) => [...(r.mail.text ?? "").matchAll(/https?:\/\/\S+/g)].map((m) => m[0]);

/** A header of the mail as it came over the wire (unfolded), or undefined. */
export const headerOf = (r: { raw: string }, name: string) =>
  new RegExp(`^${name}: *(.*?)\r?$`, "mi").exec(r.raw.split(/\r?\n\r?\n/)[0]!.replace(/\r?\n[ \t]+/g, " "))?.[1];

/**
 * A test file's mail harness: a real SMTP server on loopback, the service pointed at it (SMTP_URL, PUBLIC_URL and `env`,
 * set before any of the service's modules is imported: call it first), an API server and the mail worker in this
 * process, all closed after the file.
 */
export async function startMailHarness(publicUrl: string, env: Record<string, string> = {}, login?: { user: string; pass: string }) {
  const inbox = await startSmtp(login);
  Object.assign(process.env, { SMTP_URL: inbox.url, PUBLIC_URL: publicUrl }, env);
  const { startTestApi, stopAll } = await import("../helpers/api.js");
  const { startWorkers } = await import("../../src/jobs/worker.js");
  const { mailQueue } = await import("../../src/jobs/registry.js");
  const { createMailTransport, lazy } = await import("../../src/main/providers.js");
  const api = await startTestApi();
  const workers = await startWorkers([mailQueue(lazy(() => createMailTransport()))]);
  afterAll(async () => {
    await workers.close();
    await inbox.close();
    await stopAll(api);
  });
  return { inbox, api };
}
