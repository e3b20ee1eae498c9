/**
 * The route table: each page's code (loaded on demand, `lazy`) and its data (`loader`: the page's
 * queries, started with `loadQuery` before the page renders; relay/route-query.ts). On a navigation
 * React Router runs the loaders of every route it matches, parent and child, at once and in parallel
 * with their code: the first load (the viewer, the page's code, the page's queries) and a child
 * route's query (a radar search under /radar, a settings section) never wait for each other.
 *
 * URLs are built with lib/paths.ts; a new top-level segment goes into DASHBOARD_SEGMENTS there as well.
 */
import { redirect, useRouteError, type LoaderFunctionArgs, type RouteObject } from "react-router";
import { fetchQuery, type ConcreteRequest, type Environment } from "relay-runtime";
import ShellQuery from "../__generated__/ShellQuery.graphql";
import type { ShellQuery as ShellQueryType } from "../__generated__/ShellQuery.graphql";
import OverviewPageQuery from "../__generated__/OverviewPageQuery.graphql";
import VideosPageQuery from "../__generated__/VideosPageQuery.graphql";
import VideoPageQuery from "../__generated__/VideoPageQuery.graphql";
import AccountsPageQuery from "../__generated__/AccountsPageQuery.graphql";
import AccountPageQuery from "../__generated__/AccountPageQuery.graphql";
import FoldersPageQuery from "../__generated__/FoldersPageQuery.graphql";
import FolderPageQuery from "../__generated__/FolderPageQuery.graphql";
import AddToFolderQuery from "../__generated__/AddToFolderQuery.graphql";
import RadarPageQuery from "../__generated__/RadarPageQuery.graphql";
import RadarSearchViewQuery from "../__generated__/RadarSearchViewQuery.graphql";
import SettingsPageQuery from "../__generated__/SettingsPageQuery.graphql";
import ApiKeysSectionQuery from "../__generated__/ApiKeysSectionQuery.graphql";
import WebhooksSectionQuery from "../__generated__/WebhooksSectionQuery.graphql";
import WebhookSectionQuery from "../__generated__/WebhookSectionQuery.graphql";
import MembersSectionQuery from "../__generated__/MembersSectionQuery.graphql";
import MembersSectionInvitationsQuery from "../__generated__/MembersSectionInvitationsQuery.graphql";
import SessionsSectionQuery from "../__generated__/SessionsSectionQuery.graphql";
import AuditLogSectionQuery from "../__generated__/AuditLogSectionQuery.graphql";
import AcceptInvitationPageQuery from "../__generated__/AcceptInvitationPageQuery.graphql";
import NotificationsPageQuery from "../__generated__/NotificationsPageQuery.graphql";
import AlertsSectionQuery from "../__generated__/AlertsSectionQuery.graphql";
import ShareLinksSectionQuery from "../__generated__/ShareLinksSectionQuery.graphql";
import CampaignsPageQuery from "../__generated__/CampaignsPageQuery.graphql";
import CampaignPageQuery from "../__generated__/CampaignPageQuery.graphql";
import CreatorsPageQuery from "../__generated__/CreatorsPageQuery.graphql";
import TagFilterQuery from "../__generated__/TagFilterQuery.graphql";
import BulkTagQuery from "../__generated__/BulkTagQuery.graphql";
import CampaignMembersQuery from "../__generated__/CampaignMembersQuery.graphql";
import VideosByHandQuery from "../__generated__/VideosByHandQuery.graphql";
import { ErrorMessage } from "../components/ErrorMessage";
import { Loading } from "../components/Loading";
import { forgetSignedIn, maybeSignedIn } from "../lib/auth";
import { apiErrorOf } from "../lib/errors";
import { accountListOptions } from "../pages/accounts/list-options";
import { folderVideoOptions } from "../pages/folder/list-options";
import { videoListOptions } from "../pages/videos/list-options";
import { loadRouteQueries, type RouteQuery } from "../relay/route-query";
import { paths } from "../lib/paths";
import { Root } from "./Root";
import { SignedIn } from "./SignedIn";
import { chooseWorkspace, currentEnvironment, currentWorkspaceId } from "../relay/workspace";

type Loader = (args: LoaderFunctionArgs) => RouteQuery[] | Promise<RouteQuery[]>;

/** Where a signed-out visit goes, coming back here after signing in. */
const signInFor = (request: Request) => {
  const url = new URL(request.url);
  return redirect(paths.signIn(url.pathname + url.search));
};

/**
 * A signed-in page's loader: known signed out (lib/auth.ts `maybeSignedIn`) → the sign-in page
 * before any query is sent; otherwise the page's queries, in parallel with the viewer's (./SignedIn.tsx).
 */
const signedIn = (queries: Loader) => async (args: LoaderFunctionArgs) => {
  if (!maybeSignedIn()) throw signInFor(args.request);
  return loadRouteQueries(currentEnvironment(), await queries(args));
};

/** A signed-out page's loader (the invitation is read with its token). */
const open = (queries: Loader) => async (args: LoaderFunctionArgs) => loadRouteQueries(currentEnvironment(), await queries(args));

const search = (request: Request) => new URL(request.url).searchParams;

/**
 * The viewer (who is signed in, in which workspaces): signed out → the sign-in page; a remembered
 * workspace the person no longer belongs to (NOT_FOUND) is forgotten and the route read again with
 * the server's choice. Any other error is the gate's to show in words (./SignedIn.tsx).
 */
async function viewerLoader({ request }: LoaderFunctionArgs) {
  if (!maybeSignedIn()) throw signInFor(request);
  const environment = currentEnvironment();
  // One request: the query's ref joins the answer asked for here (Relay dedupes requests in flight).
  const answer = viewerOf(environment).then(
    (data) => (data.viewer ? null : "UNAUTHORIZED"),
    (error: unknown) => apiErrorOf(error)?.code ?? null,
  );
  const refs = await loadRouteQueries(environment, [[ShellQuery, {}, { fetchPolicy: "store-or-network" }]]);
  const code = await answer;
  if (code === "UNAUTHORIZED") {
    forgetSignedIn();
    throw signInFor(request);
  }
  if (code === "NOT_FOUND" && currentWorkspaceId()) {
    chooseWorkspace(null);
    throw redirect(new URL(request.url).pathname + new URL(request.url).search);
  }
  return refs;
}

/** The viewer's answer, from the store or joining the request in flight. */
const viewerOf = (environment: Environment) =>
  fetchQuery<ShellQueryType>(environment, ShellQuery, {}, { fetchPolicy: "store-or-network" })
    .toPromise()
    .then((d) => d!);

/** Queries only an owner may run (a member's section says so instead): skipped for members. */
async function ifOwner(queries: RouteQuery[]): Promise<RouteQuery[]> {
  const data = await viewerOf(currentEnvironment()).catch(() => null);
  return data?.viewer?.currentWorkspace?.role === "OWNER" ? queries : [];
}

/** A list's query and its tag filter's (pages/tags/TagFilter.tsx: the tags to choose from, and the URL's named). */
const withTagFilter = (list: ConcreteRequest, options: { tagIds: string[] | null }): RouteQuery[] => [
  [list, options],
  [TagFilterQuery, { chosen: options.tagIds ?? [] }],
];

const page = (load: () => Promise<{ default: React.ComponentType }>) => () => load().then((m) => ({ Component: m.default }));
const section = (name: keyof typeof import("../pages/settings/sections")) => () =>
  import("../pages/settings/sections").then((m) => ({ Component: m[name] }));

export const routes: RouteObject[] = [
  {
    id: "root",
    // The Relay environment of this router state: it changes with the workspace (./workspace.ts).
    loader: () => ({ environment: currentEnvironment() }),
    shouldRevalidate: () => true,
    element: <Root />,
    hydrateFallbackElement: <Loading what="Loading the dashboard" />,
    errorElement: <RouteError />,
    children: [
      { path: "sign-in", lazy: page(() => import("../pages/sign-in/SignInPage")) },
      { path: "reset-password", lazy: page(() => import("../pages/reset-password/ResetPasswordPage")) },
      // A folder's shared report: signed out, outside the shell; it reads POST /graphql/shared, not Relay.
      { path: "r/:token", lazy: page(() => import("../pages/shared-report/SharedReportPage")) },
      {
        path: "accept-invitation",
        loader: open(({ request }) => {
          const token = search(request).get("token");
          // The token is the only credential of a signed-out invitee (x-invitation-token).
          return token
            ? [
                [
                  AcceptInvitationPageQuery,
                  { token },
                  { fetchPolicy: "network-only", networkCacheConfig: { metadata: { headers: { "x-invitation-token": token } } } },
                ],
              ]
            : [];
        }),
        lazy: page(() => import("../pages/accept-invitation/AcceptInvitationPage")),
      },
      {
        id: "signed-in",
        loader: viewerLoader,
        element: <SignedIn />,
        children: [
          { index: true, loader: signedIn(() => [[OverviewPageQuery, {}]]), lazy: page(() => import("../pages/overview/OverviewPage")) },
          {
            path: "videos",
            loader: signedIn(({ request }) => withTagFilter(VideosPageQuery, videoListOptions.read(search(request)))),
            lazy: page(() => import("../pages/videos/VideosPage")),
          },
          {
            path: "videos/:id",
            loader: signedIn(({ params }) => [[VideoPageQuery, { id: params.id }]]),
            lazy: page(() => import("../pages/video/VideoPage")),
          },
          {
            path: "accounts",
            loader: signedIn(({ request }) => withTagFilter(AccountsPageQuery, accountListOptions.read(search(request)))),
            lazy: page(() => import("../pages/accounts/AccountsPage")),
          },
          {
            path: "accounts/:id",
            // The tags to choose from (pages/account/AccountTags.tsx) start with the account's query.
            loader: signedIn(({ params }) => [
              [AccountPageQuery, { id: params.id }],
              [BulkTagQuery, {}],
            ]),
            lazy: page(() => import("../pages/account/AccountPage")),
          },
          { path: "folders", loader: signedIn(() => [[FoldersPageQuery, {}]]), lazy: page(() => import("../pages/folders/FoldersPage")) },
          {
            path: "folders/:id",
            // The "add to this folder" pickers' query starts with the folder's, not after it renders.
            loader: signedIn(({ params, request }) => {
              const { sort, order } = folderVideoOptions.read(search(request));
              // ?sub=1: the analytics include the sub-folders (pages/folder/FolderPage.tsx).
              const includeDescendants = search(request).get("sub") === "1";
              return [
                [FolderPageQuery, { id: params.id, sort, order, includeDescendants }],
                [AddToFolderQuery, {}],
              ];
            }),
            lazy: page(() => import("../pages/folder/FolderPage")),
          },
          {
            path: "radar",
            loader: signedIn(() => [[RadarPageQuery, {}]]),
            lazy: page(() => import("../pages/radar/RadarPage")),
            // A search is a child route: its query starts with the page's, and the page (the search
            // form and what is typed in it) stays mounted when another search is opened.
            children: [
              { index: true },
              {
                path: ":id",
                loader: signedIn(({ params }) => [[RadarSearchViewQuery, { id: params.id }]]),
                lazy: page(() => import("../pages/radar/RadarSearchRoute")),
              },
            ],
          },
          {
            path: "settings",
            loader: signedIn(() => [[SettingsPageQuery, {}]]),
            lazy: page(() => import("../pages/settings/SettingsPage")),
            children: [
              { index: true, loader: signedIn(() => ifOwner([[ApiKeysSectionQuery, {}]])), lazy: section("ApiKeys") },
              { path: "api-keys", loader: signedIn(() => ifOwner([[ApiKeysSectionQuery, {}]])), lazy: section("ApiKeys") },
              { path: "webhooks", loader: signedIn(() => ifOwner([[WebhooksSectionQuery, {}]])), lazy: section("Webhooks") },
              {
                path: "webhooks/:id",
                loader: signedIn(({ params }) => ifOwner([[WebhookSectionQuery, { id: params.id }]])),
                lazy: section("Webhook"),
              },
              {
                path: "members",
                loader: signedIn(async () => [[MembersSectionQuery, {}], ...(await ifOwner([[MembersSectionInvitationsQuery, {}]]))]),
                lazy: section("Members"),
              },
              { path: "sessions", loader: signedIn(() => [[SessionsSectionQuery, {}]]), lazy: section("Sessions") },
              { path: "alerts", loader: signedIn(() => [[AlertsSectionQuery, {}]]), lazy: section("Alerts") },
              { path: "audit-log", loader: signedIn(() => ifOwner([[AuditLogSectionQuery, {}]])), lazy: section("AuditLog") },
              { path: "share-links", loader: signedIn(() => ifOwner([[ShareLinksSectionQuery, {}]])), lazy: section("ShareLinks") },
              { path: "*", lazy: section("NoSuchSection") },
            ],
          },
          {
            path: "notifications",
            loader: signedIn(() => [[NotificationsPageQuery, {}]]),
            lazy: page(() => import("../pages/notifications/NotificationsPage")),
          },
          // Campaigns and creators.
          {
            path: "campaigns",
            loader: signedIn(() => [[CampaignsPageQuery, {}]]),
            lazy: page(() => import("../pages/campaigns/CampaignsPage")),
          },
          {
            path: "campaigns/:id",
            // The owners' pickers (members, videos by hand) start with the campaign's query.
            loader: signedIn(async ({ params }) => [
              [CampaignPageQuery, { id: params.id }],
              ...(await ifOwner([
                [CampaignMembersQuery, {}],
                [VideosByHandQuery, {}],
              ])),
            ]),
            lazy: page(() => import("../pages/campaigns/CampaignPage")),
          },
          {
            path: "creators",
            loader: signedIn(() => [[CreatorsPageQuery, {}]]),
            lazy: page(() => import("../pages/creators/CreatorsPage")),
          },
          { path: "*", lazy: page(() => import("../pages/coming/NotFoundPage")) },
        ],
      },
    ],
  },
];

/** What a loader or a page's code failed with (a chunk that did not load, a network error), in words. */
function RouteError() {
  return <ErrorMessage error={useRouteError()} title="Could not load the dashboard" onRetry={() => window.location.reload()} />;
}
