/**
 * The settings sections as child routes of the Settings page (app/routes.tsx): each loads and fails
 * by itself (its own Suspense and ErrorBoundary), so the sub-navigation stays usable.
 */
import { Suspense, type ReactNode } from "react";
import { ErrorBoundary } from "../../components/ErrorBoundary";
import { Loading } from "../../components/Loading";
import { ApiKeysSection } from "./ApiKeysSection";
import { AuditLogSection } from "./AuditLogSection";
import { AlertsSection } from "./AlertsSection";
import { MembersSection } from "./MembersSection";
import { SessionsSection } from "./SessionsSection";
import { ShareLinksSection } from "./ShareLinksSection";
import { useSettings } from "./SettingsPage";
import { WebhookSection } from "./WebhookSection";
import { WebhooksSection } from "./WebhooksSection";

function Section({ what, children }: { what: string; children: ReactNode }) {
  return (
    <ErrorBoundary what={what}>
      <Suspense fallback={<Loading what={`Loading ${what}`} />}>{children}</Suspense>
    </ErrorBoundary>
  );
}

export function ApiKeys() {
  const { isOwner } = useSettings();
  return <Section what="the API keys">{<ApiKeysSection isOwner={isOwner} />}</Section>;
}

export function Webhooks() {
  const { isOwner } = useSettings();
  return <Section what="the webhooks">{<WebhooksSection isOwner={isOwner} />}</Section>;
}

export function Webhook() {
  const { isOwner } = useSettings();
  return <Section what="the webhook">{<WebhookSection isOwner={isOwner} />}</Section>;
}

export function Members() {
  const { isOwner, viewerId } = useSettings();
  return <Section what="the members">{<MembersSection isOwner={isOwner} viewerId={viewerId} />}</Section>;
}

export function Sessions() {
  return <Section what="your sessions">{<SessionsSection />}</Section>;
}

export function Alerts() {
  const { isOwner } = useSettings();
  return <Section what="your alerts">{<AlertsSection isOwner={isOwner} />}</Section>;
}

export function AuditLog() {
  const { isOwner } = useSettings();
  return <Section what="the audit log">{<AuditLogSection isOwner={isOwner} />}</Section>;
}

export function ShareLinks() {
  const { isOwner } = useSettings();
  return <Section what="the share links">{<ShareLinksSection isOwner={isOwner} />}</Section>;
}

export function NoSuchSection() {
  return <p className="notice">There is no such settings page: choose one above.</p>;
}
