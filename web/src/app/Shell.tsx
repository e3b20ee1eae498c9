/**
 * The frame of every signed-in page: a skip link, the header (name, workspace switcher), the main
 * navigation landmark and the page itself inside one Suspense (loading) and one ErrorBoundary
 * (errors in words; signed out → sign-in page). While the router loads the next page's data the
 * current one stays, marked busy.
 */
import { Suspense } from "react";
import { graphql } from "react-relay";
import { Link, NavLink, Outlet, useLocation, useNavigate, useNavigation } from "react-router";
import { ErrorBoundary } from "../components/ErrorBoundary";
import { Loading } from "../components/Loading";
import { signOut } from "../lib/auth";
import { paths } from "../lib/paths";
import type { ShellQuery } from "../__generated__/ShellQuery.graphql";
import { useRouteQuery } from "../relay/route-query";
import { startOver } from "../relay/workspace";
import { WorkspaceSwitcher } from "./WorkspaceSwitcher";
import { NotificationBell } from "./NotificationBell";

/** Who is signed in, in which workspaces (the route's loader also reads the role: ./routes.tsx). */
const query = graphql`
  query ShellQuery {
    viewer {
      name
      email
      currentWorkspace {
        id
        role
      }
      ...WorkspaceSwitcher_viewer
    }
    unreadNotificationCount
  }
`;

const NAV = [
  { to: paths.overview(), label: "Overview", end: true },
  { to: paths.videos(), label: "Videos" },
  { to: paths.accounts(), label: "Accounts" },
  { to: paths.folders(), label: "Folders" },
  { to: paths.radar(), label: "Radar" },
  { to: paths.campaigns(), label: "Campaigns" },
  { to: paths.creators(), label: "Creators" },
  { to: paths.settings(), label: "Settings" },
];

export function Shell() {
  const { viewer, unreadNotificationCount } = useRouteQuery<ShellQuery>(query);
  const location = useLocation();
  const loading = useNavigation().state !== "idle";
  return (
    <div className="shell">
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="topbar">
        <Link className="brand" to={paths.overview()}>
          Video tracker
        </Link>
        <nav aria-label="Main" className="nav">
          <ul>
            {NAV.map((item) => (
              <li key={item.to}>
                <NavLink to={item.to} end={item.end}>
                  {item.label}
                </NavLink>
              </li>
            ))}
          </ul>
        </nav>
        <div className="topbar-end">
          {viewer?.currentWorkspace && unreadNotificationCount != null && <NotificationBell initial={unreadNotificationCount} />}
          {viewer && <WorkspaceSwitcher viewer={viewer} />}
          <a href="/graphql" className="muted-link">
            GraphQL explorer
          </a>
          {viewer && <SignOutButton name={viewer.name || viewer.email} />}
        </div>
      </header>
      <main id="main" tabIndex={-1} aria-busy={loading}>
        {/* An error on one page does not stick to the next; moving within a page keeps what it holds. */}
        <ErrorBoundary resetKey={location.pathname}>
          <Suspense fallback={<Loading what="Loading the page" />}>
            <Outlet />
          </Suspense>
        </ErrorBoundary>
      </main>
    </div>
  );
}

/** Ends the session (POST /auth/sign-out), empties the store and goes to the sign-in page. */
function SignOutButton({ name }: { name: string }) {
  const navigate = useNavigate();
  async function click() {
    // Signed out even if the request fails (the session may be gone already): the next query says so.
    await signOut().catch(() => undefined);
    startOver();
    navigate(paths.signIn(), { replace: true });
  }
  return (
    <button type="button" className="button-link" onClick={() => void click()} title={`Signed in as ${name}`}>
      Sign out
    </button>
  );
}
