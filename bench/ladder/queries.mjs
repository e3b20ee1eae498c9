// The ladder's GraphQL queries, shared with bench/pothos-prisma.ts (which measures the same two rungs
// against a second schema): the Video fields REST answers, the list `videos(first: 20)` and the same
// list with each video's account.
export const VIDEO_FIELDS = `id platformVideoId url type description hashtags viewCount likeCount commentCount shareCount
  bookmarkCount engagementRate postedAt thumbnailUrl username displayName canonicalAccountId musicName musicAuthor
  musicCoverUrl durationSeconds scrapeStatus scrapeError lastScrapedAt dataSource nextRefreshAt views24h outlierScore`;
// The REST id is the GraphQL node's `uuid` (its `id` is the global ID): asked as `id: uuid` so the
// values compare one to one with REST's.
export const GQL_VIDEO_FIELDS = VIDEO_FIELDS.replace(/^id /, "id: uuid ");
export const GQL_LIST = `{ videos(first: 20) { totalCount pageInfo { hasNextPage } edges { node { ${GQL_VIDEO_FIELDS} } } } }`.replace(/\s+/g, " ");
export const GQL_NESTED = `{ videos(first: 20) { totalCount pageInfo { hasNextPage } edges { node { ${GQL_VIDEO_FIELDS} account { id: uuid username displayName followerCount } } } } }`.replace(/\s+/g, " ");
