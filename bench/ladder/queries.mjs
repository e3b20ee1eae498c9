// The project's GraphQL queries of the ladder (./ladder.mjs measures them, ./profile.mjs profiles them,
// bench/pothos-prisma.ts measures them against a second schema).
export const VIDEO_FIELDS = `id platformVideoId url type description hashtags viewCount likeCount commentCount shareCount
  bookmarkCount engagementRate postedAt thumbnailUrl username displayName canonicalAccountId musicName musicAuthor
  musicCoverUrl durationSeconds scrapeStatus scrapeError lastScrapedAt dataSource nextRefreshAt views24h outlierScore`;
// The REST id is the GraphQL node's `uuid` (its `id` is the global ID): asked as `id: uuid` so the
// values compare one to one with REST's.
const GQL_VIDEO_FIELDS = VIDEO_FIELDS.replace(/^id /, "id: uuid ");
export const GQL_LIST = `{ videos(first: 20) { totalCount pageInfo { hasNextPage } edges { node { ${GQL_VIDEO_FIELDS} } } } }`.replace(
  /\s+/g,
  " ",
);
export const GQL_NESTED =
  `{ videos(first: 20) { totalCount pageInfo { hasNextPage } edges { node { ${GQL_VIDEO_FIELDS} account { id: uuid username displayName followerCount } } } } }`.replace(
    /\s+/g,
    " ",
  );
