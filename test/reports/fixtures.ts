/** A folder with videos and accounts (and account history) for the reports tests, written straight into PostgreSQL. */
import { prisma } from "../../src/infra/db.js";
import { createAccount, createTrackedVideo, snapshot, trackAccount } from "../folders/fixtures.js";

export async function seedFolder(workspaceId: string, name: string, opts: { videos?: number; prefix?: string } = {}) {
  const folder = await prisma.folder.create({ data: { workspaceId, name } });
  const prefix = opts.prefix ?? name.toLowerCase().replace(/\W+/g, "");
  const account = await createAccount({ username: `${prefix}_creator`, followerCount: 12_345, totalViews: 987_654 });
  const tracked = await trackAccount(workspaceId, account.id);
  await prisma.folderAccount.create({ data: { folderId: folder.id, trackedAccountId: tracked.id } });
  const today = new Date().toISOString().slice(0, 10);
  const weekAgo = new Date(Date.now() - 6 * 86_400_000).toISOString().slice(0, 10);
  await snapshot(account.id, weekAgo, { followers: 10_000, views: 900_000, videos: 8 });
  await snapshot(account.id, today, { followers: 12_345, views: 987_654, videos: 10 });
  const videos = [];
  for (let i = 0; i < (opts.videos ?? 3); i++) {
    const v = await createTrackedVideo(workspaceId, {
      username: `${prefix}_creator`,
      description: `${prefix} clip ${i}`,
      viewCount: 1000 * (i + 1),
      accountId: account.id,
    });
    const tv = await prisma.trackedVideo.findFirstOrThrow({ where: { workspaceId, videoId: v.id } });
    await prisma.folderVideo.create({ data: { folderId: folder.id, trackedVideoId: tv.id } });
    videos.push(v);
  }
  return { folder, account, tracked, videos };
}
