/**
 * Download links of finished exports: `/api/v1/exports/<id>/download?token=<expiry>.<HMAC>`, where the
 * HMAC-SHA256 (the exports secret, generated on first use and kept in PostgreSQL `service_secrets`, name
 * `exports`, shared by every process) covers the export's id, its workspace and the link's expiry
 * (EXPORT_URL_TTL_MINUTES, 15 by default). The link needs no other credential, so it can be handed to a
 * browser or a spreadsheet program; it names one file of one workspace and stops working at its expiry,
 * when the file expires, or when the token is altered (all answered 404 NOT_FOUND, like an unknown id).
 */
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { prisma } from "../../infra/db.ts";
import { config } from "../../config.ts";

let secret: Promise<Buffer> | null = null;

function exportsSecret(): Promise<Buffer> {
  secret ??= (async () => {
    await prisma.serviceSecret.createMany({
      data: [{ name: "exports", value: randomBytes(32).toString("base64url") }],
      skipDuplicates: true,
    });
    return Buffer.from((await prisma.serviceSecret.findUniqueOrThrow({ where: { name: "exports" } })).value, "base64url");
  })();
  secret.catch(() => (secret = null));
  return secret;
}

const sign = (key: Buffer, exportId: string, workspaceId: string, expiresAtMs: number) =>
  createHmac("sha256", key).update(`export-download:${exportId}:${workspaceId}:${expiresAtMs}`).digest();

/** The path (under PUBLIC_URL or the API's origin) of a signed download link, and when it stops working. */
export async function downloadLink(
  e: { id: string; workspaceId: string; expiresAt: Date | null },
  now = new Date(),
): Promise<{ path: string; expiresAt: Date }> {
  const until = Math.min(now.getTime() + config.exports.urlTtlMs, e.expiresAt?.getTime() ?? Infinity);
  const token = `${until}.${sign(await exportsSecret(), e.id, e.workspaceId, until).toString("base64url")}`;
  return { path: `/api/v1/exports/${e.id}/download?token=${encodeURIComponent(token)}`, expiresAt: new Date(until) };
}

/** The full URL of a download link at PUBLIC_URL. */
export async function downloadUrl(
  e: { id: string; workspaceId: string; expiresAt: Date | null },
  now = new Date(),
): Promise<{ url: string; expiresAt: Date }> {
  const link = await downloadLink(e, now);
  return { url: `${config.people.publicUrl}${link.path}`, expiresAt: link.expiresAt };
}

/** Whether `token` is a valid, unexpired link to this export of this workspace. */
export async function tokenAllows(token: string, e: { id: string; workspaceId: string }, now = new Date()): Promise<boolean> {
  const dot = token.indexOf(".");
  if (dot < 1) return false;
  const until = Number(token.slice(0, dot));
  if (!Number.isSafeInteger(until) || until <= now.getTime()) return false;
  const given = Buffer.from(token.slice(dot + 1), "base64url");
  const expected = sign(await exportsSecret(), e.id, e.workspaceId, until);
  return given.length === expected.length && timingSafeEqual(given, expected);
}
