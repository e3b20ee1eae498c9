/**
 * Settings: one page with a sub-navigation (a `navigation` landmark named "Settings") and a
 * sub-route per section: API keys (/settings, as the contract's "API keys page"), webhooks (and a
 * webhook's delivery log), members and invitations, sessions, audit log.
 *
 * The viewer's role only decides what is shown (an owner's forms and buttons); the server decides
 * what is allowed (src/domain/people/roles.ts): a member who reaches an owner's operation anyway
 * gets FORBIDDEN, shown in words.
 */
import { Suspense } from "react";
import { graphql, useLazyLoadQuery } from "react-relay";
import { NavLink, Route, Routes } from "react-router";
import type { SettingsPageQuery } from "../../__generated__/SettingsPageQuery.graphql";
import { paths } from "../../app/paths";
import { ErrorBoundary } from "../../components/ErrorBoundary";
import { Loading } from "../../components/Loading";
import { PageHeader } from "../../components/PageHeader";
import { ApiKeysSection } from "./ApiKeysSection";
import { AuditLogSection } from "./AuditLogSection";
import { MembersSection } from "./MembersSection";
import { SessionsSection } from "./SessionsSection";
import { WebhookSection } from "./WebhookSection";
import { WebhooksSection } from "./WebhooksSection";

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
  { to: paths.settingsSection("audit-log"), label: "Audit log", ownersOnly: true },
];

export default function SettingsPage() {
  const data = useLazyLoadQuery<SettingsPageQuery>(query, {}, { fetchPolicy: "store-and-network" });
  const workspace = data.viewer?.currentWorkspace;
  const isOwner = workspace?.role === "OWNER";
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
      <Routes>
        <Route index element={<Section what="the API keys" element={<ApiKeysSection isOwner={isOwner} />} />} />
        <Route path="api-keys" element={<Section what="the API keys" element={<ApiKeysSection isOwner={isOwner} />} />} />
        <Route path="webhooks" element={<Section what="the webhooks" element={<WebhooksSection isOwner={isOwner} />} />} />
        <Route path="webhooks/:id" element={<Section what="the webhook" element={<WebhookSection isOwner={isOwner} />} />} />
        <Route path="members" element={<Section what="the members" element={<MembersSection isOwner={isOwner} viewerId={data.viewer?.id ?? null} />} />} />
        <Route path="sessions" element={<Section what="your sessions" element={<SessionsSection />} />} />
        <Route path="audit-log" element={<Section what="the audit log" element={<AuditLogSection isOwner={isOwner} />} />} />
        <Route path="*" element={<p className="notice">There is no such settings page: choose one above.</p>} />
      </Routes>
    </>
  );
}

/** Each section loads and fails by itself: the sub-navigation stays usable. */
function Section({ what, element }: { what: string; element: React.ReactNode }) {
  return (
    <ErrorBoundary what={what}>
      <Suspense fallback={<Loading what={`Loading ${what}`} />}>{element}</Suspense>
    </ErrorBoundary>
  );
}
