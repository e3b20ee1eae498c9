/**
 * One-click unsubscribe tokens (RFC 8058): `<mail id>.<HMAC-SHA256(mail secret, mail id)>`, so the
 * token names one mail, and through it one rule of one person in one workspace (or their digest),
 * and nothing else; nothing about it is stored but the mail's row. The mail secret is generated on
 * first use and kept in PostgreSQL (`service_secrets`, name `mail`), shared by every process.
 */
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { prisma } from "../../infra/db.ts";
import { serviceLink } from "./links.ts";

let secret: Promise<Buffer> | null = null;

function mailSecret(): Promise<Buffer> {
  secret ??= (async () => {
    await prisma.serviceSecret.createMany({ data: [{ name: "mail", value: randomBytes(32).toString("base64url") }], skipDuplicates: true });
    return Buffer.from((await prisma.serviceSecret.findUniqueOrThrow({ where: { name: "mail" } })).value, "base64url");
  })();
  secret.catch(() => (secret = null));
  return secret;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const sign = (key: Buffer, mailId: string) => createHmac("sha256", key).update(`unsubscribe:${mailId}`).digest();

export async function unsubscribeToken(mailId: string): Promise<string> {
  return `${mailId}.${sign(await mailSecret(), mailId).toString("base64url")}`;
}

/** The page (and RFC 8058 POST target) of a mail's one-click unsubscribe. */
export async function unsubscribeUrl(mailId: string): Promise<string> {
  return serviceLink(`/unsubscribe/${await unsubscribeToken(mailId)}`);
}

/** The mail id a token names, or null for a token this service did not make. */
export async function mailOfToken(token: string): Promise<string | null> {
  const dot = token.indexOf(".");
  const mailId = token.slice(0, dot);
  if (dot < 0 || !UUID.test(mailId)) return null;
  const given = Buffer.from(token.slice(dot + 1), "base64url");
  const expected = sign(await mailSecret(), mailId);
  return given.length === expected.length && timingSafeEqual(given, expected) ? mailId : null;
}
