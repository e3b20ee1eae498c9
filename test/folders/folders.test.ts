/** Folder CRUD, membership, validation, tenant isolation (REST, real PostgreSQL). */
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { client, newWorkspace, startTestApi, stopAll } from "../helpers/api.js";
import type { RunningApi } from "../../src/main/server.js";
import { prisma } from "../../src/infra/db.js";
import { createAccount, createTrackedVideo, createVideo, trackAccount } from "./fixtures.js";

let api: RunningApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(() => stopAll(api));

const P = "/api/v1";

async function setup() {
  const ws = await newWorkspace("pro");
  return { ws, c: client(api.url, ws.key) };
}

describe("folders: create, read, rename, delete", () => {
  it("creates with 201, trims the name, lists newest first with counts, reads, renames and deletes", async () => {
    const { c } = await setup();
    const created = await c.post(`${P}/folders`, { name: "  Summer campaign  " });
    expect(created.status).toBe(201);
    expect(created.body.data).toEqual({
      id: expect.any(String),
      name: "Summer campaign",
      parentId: null,
      createdAt: expect.stringMatching(/\.\d{3}Z$/),
    });
    expect(created.body.message).toMatch(/created/i);
    const second = await c.post(`${P}/folders`, { name: "B".repeat(255) });
    expect(second.status).toBe(201);

    const list = await c.get(`${P}/folders`);
    expect(list.status).toBe(200);
    expect(list.body.pagination).toEqual({ total: 2, limit: 20, offset: 0, has_more: false });
    expect(list.body.data.map((f: any) => f.id)).toEqual([second.body.data.id, created.body.data.id]);
    expect(list.body.data[1]).toEqual({ ...created.body.data, videoCount: 0, accountCount: 0, childCount: 0 });

    const page = await c.get(`${P}/folders?limit=1&offset=1`);
    expect(page.body.data.map((f: any) => f.id)).toEqual([created.body.data.id]);
    expect(page.body.pagination).toEqual({ total: 2, limit: 1, offset: 1, has_more: false });

    const id = created.body.data.id;
    const one = await c.get(`${P}/folders/${id}`);
    expect(one.body.data).toEqual({ ...created.body.data, videoCount: 0, accountCount: 0, childCount: 0, ancestors: [] });

    const renamed = await c.patch(`${P}/folders/${id}`, { name: "Autumn" });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toEqual({ data: { id, name: "Autumn", parentId: null }, message: expect.any(String) });
    expect((await c.get(`${P}/folders/${id}`)).body.data.name).toBe("Autumn");

    const deleted = await c.delete(`${P}/folders/${id}`);
    expect(deleted.status).toBe(200);
    expect(deleted.body.data).toEqual({ id, movedUp: 0, deletedDescendants: 0 });
    expect(deleted.body.message).toMatch(/deleted/i);
    expect((await c.get(`${P}/folders/${id}`)).status).toBe(404);
    expect((await c.delete(`${P}/folders/${id}`)).status).toBe(404);
  });

  it("refuses bad names with 400 VALIDATION_ERROR: 256 characters, empty, only spaces, missing, not a string, unknown fields", async () => {
    const { c } = await setup();
    const folder = (await c.post(`${P}/folders`, { name: "ok" })).body.data;
    for (const body of [{ name: "x".repeat(256) }, { name: "" }, { name: "   " }, {}, { name: 42 }, { name: "a", color: "red" }]) {
      const r = await c.post(`${P}/folders`, body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.body.code).toBe("VALIDATION_ERROR");
      const p = await c.patch(`${P}/folders/${folder.id}`, body);
      expect(p.status, JSON.stringify(body)).toBe(400);
      expect(p.body.code).toBe("VALIDATION_ERROR");
    }
    expect((await c.get(`${P}/folders/${folder.id}`)).body.data.name).toBe("ok");
    expect(
      await prisma.folder.count({
        where: { workspaceId: (await prisma.folder.findUniqueOrThrow({ where: { id: folder.id } })).workspaceId },
      }),
    ).toBe(1);
  });
});

describe("folder membership", () => {
  it("adds videos and accounts per item, counts the union of direct and account videos, removes without untracking", async () => {
    const { ws, c } = await setup();
    const other = await newWorkspace();
    const folder = (await c.post(`${P}/folders`, { name: "mix" })).body.data;

    const account = await createAccount({ username: `acc_${randomUUID().slice(0, 6)}` });
    await trackAccount(ws.workspaceId, account.id);
    const accountVideos = [];
    for (let i = 0; i < 3; i++) accountVideos.push(await createTrackedVideo(ws.workspaceId, { accountId: account.id, viewCount: 100 + i }));
    // A video of the account that this workspace does not track (another workspace does): not in the folder.
    const untracked = await createVideo({ accountId: account.id });
    await prisma.trackedVideo.create({ data: { workspaceId: other.workspaceId, videoId: untracked.id } });
    const direct = [await createTrackedVideo(ws.workspaceId), await createTrackedVideo(ws.workspaceId)];
    const foreignVideo = await createTrackedVideo(other.workspaceId);
    const unknown = randomUUID();

    // Videos: one of the account's videos is also added directly (counted once).
    const addV = await c.post(`${P}/folders/${folder.id}/videos`, {
      video_ids: [direct[0]!.id, direct[1]!.id, accountVideos[0]!.id, foreignVideo.id, unknown, direct[0]!.id],
    });
    expect(addV.status).toBe(200);
    expect(addV.body.data).toEqual([
      { id: direct[0]!.id, success: true },
      { id: direct[1]!.id, success: true },
      { id: accountVideos[0]!.id, success: true },
      { id: foreignVideo.id, success: false, error: "Video not found" },
      { id: unknown, success: false, error: "Video not found" },
      { id: direct[0]!.id, success: true },
    ]);
    expect((await c.get(`${P}/folders/${folder.id}`)).body.data).toMatchObject({ videoCount: 3, accountCount: 0 });
    // UUIDs are case-insensitive: an id sent in upper case is the same video, answered as sent.
    const upper = direct[1]!.id.toUpperCase();
    expect((await c.post(`${P}/folders/${folder.id}/videos`, { video_ids: [upper] })).body.data).toEqual([{ id: upper, success: true }]);

    const foreignAccount = await createAccount();
    await trackAccount(other.workspaceId, foreignAccount.id);
    const addA = await c.post(`${P}/folders/${folder.id}/accounts`, { account_ids: [account.id, foreignAccount.id, account.id] });
    expect(addA.status).toBe(200);
    expect(addA.body.data).toEqual([
      { id: account.id, success: true },
      { id: foreignAccount.id, success: false, error: "Account not found" },
      { id: account.id, success: true },
    ]);
    expect((await c.post(`${P}/folders/${folder.id}/accounts`, { account_ids: [account.id.toUpperCase()] })).body.data).toEqual([
      { id: account.id.toUpperCase(), success: true },
    ]);
    // 2 direct + 3 account videos (one of them also direct); the untracked video of the account is not counted.
    expect((await c.get(`${P}/folders/${folder.id}`)).body.data).toMatchObject({ videoCount: 5, accountCount: 1 });
    const listed = await c.get(`${P}/folders/${folder.id}/videos?limit=100`);
    expect(listed.body.total).toBe(5);
    expect(new Set(listed.body.data.map((v: any) => v.id))).toEqual(new Set([...direct, ...accountVideos].map((v) => v.id)));

    const accounts = await c.get(`${P}/folders/${folder.id}/accounts`);
    expect(accounts.status).toBe(200);
    expect(accounts.body.pagination).toEqual({ total: 1, limit: 30, offset: 0, has_more: false });
    expect(accounts.body.data[0]).toMatchObject({
      id: account.id,
      type: "platformA",
      username: account.username,
      displayName: account.displayName,
      followerCount: 1000,
      videoCount: 10,
      totalViews: 50000,
      videoLimit: 50,
      scrapeStatus: "ready",
    });

    // Removing videos: only direct memberships; an account's video stays through the account.
    const remV = await c.delete(`${P}/folders/${folder.id}/videos`, {
      video_ids: [direct[0]!.id, accountVideos[0]!.id, unknown, foreignVideo.id],
    });
    expect(remV.status).toBe(200);
    expect(remV.body).toEqual({ data: { removed: 2 } });
    expect((await c.get(`${P}/folders/${folder.id}`)).body.data.videoCount).toBe(4);
    expect((await c.delete(`${P}/folders/${folder.id}/videos`, { video_ids: [direct[0]!.id] })).body.data.removed).toBe(0);

    const otherTracked = await createAccount();
    await trackAccount(ws.workspaceId, otherTracked.id);
    const remA = await c.delete(`${P}/folders/${folder.id}/accounts`, {
      account_ids: [account.id, otherTracked.id, foreignAccount.id, account.id],
    });
    expect(remA.body.data).toEqual([
      { id: account.id, success: true },
      { id: otherTracked.id, success: false, error: "Account is not in this folder" },
      { id: foreignAccount.id, success: false, error: "Account not found" },
      { id: account.id, success: false, error: "Account is not in this folder" },
    ]);
    expect((await c.get(`${P}/folders/${folder.id}`)).body.data).toMatchObject({ videoCount: 1, accountCount: 0 });

    // Nothing was untracked, by removal or by deleting the folder.
    expect((await c.delete(`${P}/folders/${folder.id}`)).status).toBe(200);
    expect(await prisma.trackedVideo.count({ where: { workspaceId: ws.workspaceId } })).toBe(5);
    expect(await prisma.trackedAccount.count({ where: { workspaceId: ws.workspaceId } })).toBe(2);
    expect(await prisma.folderVideo.count({ where: { folderId: folder.id } })).toBe(0);
  });

  it("refuses 51 ids, empty lists, bad UUIDs and missing fields with 400 VALIDATION_ERROR", async () => {
    const { c } = await setup();
    const folder = (await c.post(`${P}/folders`, { name: "v" })).body.data;
    const ids51 = Array.from({ length: 51 }, () => randomUUID());
    const ids50 = ids51.slice(0, 50);
    for (const [path, field] of [
      ["videos", "video_ids"],
      ["accounts", "account_ids"],
    ] as const) {
      for (const body of [{ [field]: ids51 }, { [field]: [] }, { [field]: ["not-a-uuid"] }, {}, { [field]: "x" }, { ids: ids50 }]) {
        for (const method of ["post", "delete"] as const) {
          const r = await c[method](`${P}/folders/${folder.id}/${path}`, body);
          expect(r.status, `${method} ${path} ${JSON.stringify(body).slice(0, 60)}`).toBe(400);
          expect(r.body.code).toBe("VALIDATION_ERROR");
        }
      }
      const ok = await c.post(`${P}/folders/${folder.id}/${path}`, { [field]: ids50 });
      expect(ok.status).toBe(200);
      expect(ok.body.data).toHaveLength(50);
      expect(ok.body.data.every((d: any) => d.success === false && typeof d.error === "string")).toBe(true);
    }
  });
});

describe("tenant isolation", () => {
  it("every folder route answers 404 NOT_FOUND for another workspace's folder and for unknown ids", async () => {
    const owner = await setup();
    const intruder = await setup();
    const folder = (await owner.c.post(`${P}/folders`, { name: "private" })).body.data;
    const video = await createTrackedVideo(intruder.ws.workspaceId);
    const account = await createAccount();
    await trackAccount(intruder.ws.workspaceId, account.id);
    for (const id of [folder.id, randomUUID()]) {
      const calls = [
        () => intruder.c.get(`${P}/folders/${id}`),
        () => intruder.c.patch(`${P}/folders/${id}`, { name: "mine" }),
        () => intruder.c.delete(`${P}/folders/${id}`),
        () => intruder.c.get(`${P}/folders/${id}/videos`),
        () => intruder.c.post(`${P}/folders/${id}/videos`, { video_ids: [video.id] }),
        () => intruder.c.delete(`${P}/folders/${id}/videos`, { video_ids: [video.id] }),
        () => intruder.c.get(`${P}/folders/${id}/accounts`),
        () => intruder.c.post(`${P}/folders/${id}/accounts`, { account_ids: [account.id] }),
        () => intruder.c.delete(`${P}/folders/${id}/accounts`, { account_ids: [account.id] }),
        () => intruder.c.get(`${P}/folders/${id}/analytics`),
      ];
      for (const call of calls) {
        const r = await call();
        expect(r.status).toBe(404);
        expect(r.body.code).toBe("NOT_FOUND");
        expect(typeof r.body.message).toBe("string");
      }
    }
    // The owner's folder is untouched and holds nothing of the intruder's.
    const still = await owner.c.get(`${P}/folders/${folder.id}`);
    expect(still.body.data).toMatchObject({ name: "private", videoCount: 0, accountCount: 0 });
    expect((await intruder.c.get(`${P}/folders`)).body.data).toEqual([]);
    // A malformed folder id is a validation error, not a 404 or 500.
    expect((await owner.c.get(`${P}/folders/not-a-uuid`)).body.code).toBe("VALIDATION_ERROR");
  });
});
