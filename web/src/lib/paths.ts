/**
 * The dashboard's URLs, in one place: links use these builders, the router (routes.tsx) uses the
 * patterns, and the build writes the first segments into dist/routes.json so the server answers
 * index.html for these paths only (src/http/dashboard.ts), never for /api/v1, /graphql and the rest.
 * Plain data, no React: vite.config.ts imports it.
 */
export const paths = {
  overview: () => "/",
  videos: () => "/videos",
  video: (id: string) => `/videos/${encodeURIComponent(id)}`,
  accounts: () => "/accounts",
  account: (id: string) => `/accounts/${encodeURIComponent(id)}`,
  folders: () => "/folders",
  folder: (id: string) => `/folders/${encodeURIComponent(id)}`,
  radar: () => "/radar",
  radarSearch: (id: string) => `/radar/${encodeURIComponent(id)}`,
  settings: () => "/settings",
  /** A Settings sub-page: "webhooks", "webhooks/<id>", "members", "sessions", "alerts", "audit-log" (API keys is /settings itself). */
  settingsSection: (section: string) => `/settings/${section}`,
  signIn: (next?: string) => (next && next !== "/" ? `/sign-in?next=${encodeURIComponent(next)}` : "/sign-in"),
  acceptInvitation: (token?: string) => (token ? `/accept-invitation?token=${encodeURIComponent(token)}` : "/accept-invitation"),
  resetPassword: () => "/reset-password",
  notifications: () => "/notifications",
  /** A folder's shared report: signed out, the token is the credential. */
  sharedReport: (token: string) => `/r/${encodeURIComponent(token)}`,
  // Campaigns and creators.
  campaigns: () => "/campaigns",
  campaign: (id: string) => `/campaigns/${encodeURIComponent(id)}`,
  creators: () => "/creators",
} as const;

/**
 * First path segments that belong to the dashboard ("" is `/`). A new top-level page adds its
 * segment here, or the server answers 404 when the page is reloaded.
 */
export const DASHBOARD_SEGMENTS = [
  "",
  "videos",
  "accounts",
  "folders",
  "radar",
  "settings",
  "sign-in",
  "accept-invitation",
  "reset-password",
  "notifications",
  "r",
  "campaigns",
  "creators",
] as const;
