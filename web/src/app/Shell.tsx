/**
 * The frame of every signed-in page: a skip link, the header (name, workspace switcher), the main
 * navigation landmark and the page itself inside one Suspense (loading) and one ErrorBoundary
 * (errors in words; signed out → sign-in page).
 */
import { Suspense } from "react";
import { Link, NavLink, Outlet, useLocation } from "react-router";
import { ErrorBoundary } from "../components/ErrorBoundary";
import { Loading } from "../components/Loading";
import { paths } from "./paths";

const NAV = [
  { to: paths.overview(), label: "Overview", end: true },
  { to: paths.videos(), label: "Videos" },
  { to: paths.accounts(), label: "Accounts" },
  { to: paths.folders(), label: "Folders" },
  { to: paths.radar(), label: "Radar" },
  { to: paths.settings(), label: "Settings" },
];

export function Shell() {
  const location = useLocation();
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
          <a href="/graphql" className="muted-link">
            GraphQL explorer
          </a>
        </div>
      </header>
      <main id="main" tabIndex={-1}>
        {/* A new ErrorBoundary per path: an error on one page does not stick to the next. */}
        <ErrorBoundary key={location.pathname}>
          <Suspense fallback={<Loading what="Loading the page" />}>
            <Outlet />
          </Suspense>
        </ErrorBoundary>
      </main>
    </div>
  );
}
