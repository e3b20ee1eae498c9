/**
 * Settings: one page with a sub-navigation (a `navigation` landmark named "Settings") and a child
 * route per section (app/routes.tsx; ./sections.tsx): API keys (/settings, as the contract's "API keys
 * page"), webhooks (and a webhook's delivery log), members and invitations, sessions, audit log.
 * Each section's queries start with this page's, from its route.
 *
 * The viewer's role only decides what is shown (an owner's forms and buttons); the server decides
 * what is allowed (src/domain/actors/roles.ts): a member who reaches an owner's operation anyway
 * gets FORBIDDEN, shown in words.
 */
import { graphql } from "react-relay";
import { NavLink, Outlet, useOutletContext } from "react-router";
import type { SettingsPageQuery } from "../../__generated__/SettingsPageQuery.graphql";
import { paths } from "../../lib/paths";
import { PageHeader } from "../../components/PageHeader";
import { useRouteQuery } from "../../relay/route-query";

const query = graphql`
  query SettingsPageQuery {
    viewer {
      id
      currentWorkspace {
        id
        name
        role
      }
    }
  }
`;

const SECTIONS = [
  { to: paths.settings(), label: "API keys", end: true },
  { to: paths.settingsSection("webhooks"), label: "Webhooks", ownersOnly: true },
  { to: paths.settingsSection("members"), label: "Members" },
  { to: paths.settingsSection("sessions"), label: "Sessions" },
  { to: paths.settingsSection("alerts"), label: "Alerts" },
  { to: paths.settingsSection("audit-log"), label: "Audit log", ownersOnly: true },
  { to: paths.settingsSection("share-links"), label: "Share links", ownersOnly: true },
];

/** What every section knows of the viewer. */
export interface SettingsContext {
  isOwner: boolean;
  viewerId: string | null;
}

export const useSettings = () => useOutletContext<SettingsContext>();

export default function SettingsPage() {
  const data = useRouteQuery<SettingsPageQuery>(query);
  const workspace = data.viewer?.currentWorkspace;
  const isOwner = workspace?.role === "OWNER";
  const context: SettingsContext = { isOwner, viewerId: data.viewer?.id ?? null };
  return (
    <>
      <PageHeader title="Settings">
        {workspace && (
          <span className="muted">
            {workspace.name}: you are {isOwner ? "an owner" : "a member"}
          </span>
        )}
      </PageHeader>
      <nav aria-label="Settings" className="subnav">
        <ul>
          {SECTIONS.filter((s) => isOwner || !("ownersOnly" in s)).map((s) => (
            <li key={s.to}>
              <NavLink to={s.to} end={s.end}>
                {s.label}
              </NavLink>
            </li>
          ))}
        </ul>
      </nav>
      <Outlet context={context} />
    </>
  );
}
