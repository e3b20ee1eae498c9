/**
 * Revocation in one step: a key's tombstone (Redis) and its row's revocation
 * (PostgreSQL) take effect together (src/domain/keys/service.ts, revokeKey). Failures are injected in
 * the real database with triggers: one refuses the row's UPDATE (before the tombstone), one refuses the
 * audit entry written after the tombstone was set.
 * Either way the key stays usable AND listed active with its slot; without them, the revocation is whole.
 */
import { afterAll, describe, expect, it } from "vitest";
import { newWorkspace, stopAll } from "../helpers/api.js";
import { prisma } from "../../src/infra/db.js";
import { authenticate } from "../../src/domain/keys/access.js";
import { createKey, listKeys, revokeKey } from "../../src/domain/keys/service.js";

afterAll(() => stopAll());

async function keyState(workspaceId: string, keyId: string, secret: string) {
  const row = await prisma.apiKey.findUniqueOrThrow({ where: { id: keyId } });
  const listed = (await listKeys(workspaceId)).find((k) => k.id === keyId);
  return {
    admitted: (await authenticate(secret)) !== null,
    revokedAt: row.revokedAt,
    slot: row.slot,
    listedRevoked: listed ? listed.revokedAt !== null : null,
  };
}

describe("revoking a key", () => {
  it("a failed UPDATE leaves the key usable and listed active (no tombstone without the row)", async () => {
    const ws = await newWorkspace();
    const { key, secret } = await createKey(ws.workspaceId, "doomed");
    expect(await authenticate(secret)).not.toBeNull(); // registered in Redis
    await prisma.$executeRawUnsafe(`
      CREATE FUNCTION refuse_revocation() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN IF NEW.revoked_at IS NOT NULL AND OLD.revoked_at IS NULL THEN RAISE EXCEPTION 'injected: the UPDATE fails'; END IF; RETURN NEW; END $$`);
    await prisma.$executeRawUnsafe(
      `CREATE TRIGGER refuse_revocation BEFORE UPDATE ON api_keys FOR EACH ROW WHEN (OLD.id = '${key.id}') EXECUTE FUNCTION refuse_revocation()`,
    );
    try {
      await expect(revokeKey(ws.workspaceId, key.id)).rejects.toThrow(/injected/);
      expect(await keyState(ws.workspaceId, key.id, secret)).toEqual({
        admitted: true,
        revokedAt: null,
        slot: expect.any(Number),
        listedRevoked: false,
      });
    } finally {
      await prisma.$executeRawUnsafe(`DROP TRIGGER refuse_revocation ON api_keys`);
    }
    await revokeKey(ws.workspaceId, key.id);
    expect(await keyState(ws.workspaceId, key.id, secret)).toEqual({
      admitted: false,
      revokedAt: expect.any(Date),
      slot: null,
      listedRevoked: true,
    });
  });

  it("a failure after the tombstone was set (the audit entry) rolls the row back and takes the tombstone back", async () => {
    const ws = await newWorkspace();
    const { key, secret } = await createKey(ws.workspaceId, "half-revoked");
    expect(await authenticate(secret)).not.toBeNull();
    await prisma.$executeRawUnsafe(`
      CREATE FUNCTION refuse_revocation_audit() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN IF NEW.action = 'api_key.revoked' THEN RAISE EXCEPTION 'injected: the audit entry fails'; END IF; RETURN NEW; END $$`);
    await prisma.$executeRawUnsafe(
      `CREATE TRIGGER refuse_revocation_audit BEFORE INSERT ON audit_log FOR EACH ROW EXECUTE FUNCTION refuse_revocation_audit()`,
    );
    try {
      await expect(revokeKey(ws.workspaceId, key.id)).rejects.toThrow(/injected/);
      expect(await keyState(ws.workspaceId, key.id, secret)).toEqual({
        admitted: true,
        revokedAt: null,
        slot: expect.any(Number),
        listedRevoked: false,
      });
    } finally {
      await prisma.$executeRawUnsafe(`DROP TRIGGER refuse_revocation_audit ON audit_log`);
    }
    await revokeKey(ws.workspaceId, key.id);
    expect(await keyState(ws.workspaceId, key.id, secret)).toEqual({
      admitted: false,
      revokedAt: expect.any(Date),
      slot: null,
      listedRevoked: true,
    });
  });
});
