/**
 * The mails the service sends, rendered when they are sent from the data their row keeps
 * (src/domain/mail/outbox.ts). Pure: the same row renders the same mail on every attempt.
 *
 * Every mail has a plain-text part that reads on its own (a text-only client loses nothing: each
 * link is written out in full) and an HTML part with the same words; it names the workspace it is
 * about (a mail about a person's own account names the account's address and its workspaces) and
 * links to the dashboard page it is about (PUBLIC_URL only: ./links.ts). Text that a person or a
 * platform chose (names of workspaces, keys and folders; titles) is shown as data (`quoted`,
 * ./text.ts: one line, cut, between quotes, no clickable address), escaped in HTML, and kept out of
 * subjects but for the workspace's name.
 */
import escapeHtml from "escape-html";
import { serviceLink } from "./links.ts";
import { quoted } from "./text.ts";

export const MAIL_KINDS = [
  "invitation",
  "password_reset",
  "security_notice",
  "member_removed",
  "alert",
  "digest",
  "folder_report",
] as const;
export type MailKind = (typeof MAIL_KINDS)[number];

export interface InvitationData {
  workspaceName: string;
  /** The person who invited (their address); null when an API key or the operator did. */
  inviter: string | null;
  role: "owner" | "member";
  expiresAt: string;
  /** Removed once the mail is sent through SMTP (the dev mailbox keeps it: the operator reads it there). */
  secret?: { acceptPath: string };
}
export interface PasswordResetData {
  expiresInMinutes: number;
  /** The account's address and the workspaces it is a member of (absent in mails queued before they were named). */
  email?: string;
  workspaceNames?: string[];
  secret?: { resetPath: string };
}
/** `by` (who acted) is the people area's label: a person's address, or `the API key “name”` already quoted. */
export interface SecurityNoticeData {
  /** `password_set`: the account's first password (it had none), through a single-use link. */
  what: "password_changed" | "password_reset" | "password_set" | "api_key_created";
  workspaceName?: string;
  keyName?: string;
  by?: string | null;
  at: string;
}
export interface MemberRemovedData {
  workspaceName: string;
  by: string | null;
}
export interface AlertItem {
  title: string;
  /** The dashboard page of the item (a path). */
  path: string;
}
export interface AlertData {
  workspaceName: string;
  rule: string;
  ruleLabel: string;
  /** The first items of the burst (at most a few); `count` says how many there were. */
  items: AlertItem[];
  count: number;
}
export interface DigestLine {
  title: string;
  path: string;
  detail: string;
}
export interface DigestData {
  workspaceName: string;
  weekLabel: string;
  timeZone: string;
  topVideos: DigestLine[];
  topAccounts: DigestLine[];
  newVideos: DigestLine[];
  newVideoCount: number;
  analysesCompleted: number;
  analysesFailed: number;
  creditsUsed: number;
  creditsLeft: number;
}
/** A folder's scheduled report (src/domain/reports/produce.ts). */
export interface FolderReportData {
  workspaceName: string;
  folderName: string;
  frequency: "weekly" | "monthly";
  periodLabel: string;
  timeZone: string;
  viewsGained: number;
  newVideos: number;
  totalVideos: number;
  totalViews: number;
  topVideos: { title: string; viewsGained: number }[];
  /** The shared page's path (its token): removed once the mail is sent through SMTP. */
  secret?: { sharePath: string };
  /** Attach the folder's videos as CSV (made when the mail is sent). */
  attachFolderCsv?: { folderId: string };
  /** The schedule the mail comes from: its one-click unsubscribe takes the address off it. */
  scheduleId?: string;
}

export interface Rendered {
  subject: string;
  text: string;
  html: string;
  links: string[];
}

/** What a rendered mail may add: the one-click unsubscribe page (alerts and digests). */
export interface RenderExtras {
  unsubscribeUrl?: string;
}

interface Block {
  heading: string;
  paragraphs: string[];
  /** A titled list of linked lines. */
  lists?: { title: string; lines: { text: string; url?: string }[] }[];
  action?: { label: string; url: string };
  footer?: string[];
}

/** One layout for every mail: the same words in the text part and the HTML part. */
function layout(block: Block, extras: RenderExtras): Omit<Rendered, "subject"> {
  const links: string[] = [];
  const text: string[] = [block.heading, "", ...block.paragraphs.flatMap((p) => [p, ""])];
  const html: string[] = [
    `<h1 style="font-size:20px">${escapeHtml(block.heading)}</h1>`,
    ...block.paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`),
  ];
  for (const list of block.lists ?? []) {
    text.push(list.title);
    html.push(`<h2 style="font-size:16px">${escapeHtml(list.title)}</h2><ul>`);
    for (const line of list.lines) {
      text.push(`- ${line.text}${line.url ? `\n  ${line.url}` : ""}`);
      html.push(line.url ? `<li><a href="${escapeHtml(line.url)}">${escapeHtml(line.text)}</a></li>` : `<li>${escapeHtml(line.text)}</li>`);
      if (line.url) links.push(line.url);
    }
    text.push("");
    html.push("</ul>");
  }
  if (block.action) {
    text.push(`${block.action.label}: ${block.action.url}`, "");
    html.push(
      `<p><a href="${escapeHtml(block.action.url)}">${escapeHtml(block.action.label)}</a></p>`,
      `<p style="color:#555">${escapeHtml(block.action.url)}</p>`,
    );
    links.push(block.action.url);
  }
  const footer = [...(block.footer ?? [])];
  if (extras.unsubscribeUrl) {
    footer.push(`To stop these mails, open ${extras.unsubscribeUrl}`);
    links.push(extras.unsubscribeUrl);
  }
  if (footer.length) {
    text.push("--", ...footer);
    html.push(`<hr><p style="color:#555;font-size:12px">${footer.map((f) => escapeHtml(f)).join("<br>")}</p>`);
  }
  if (extras.unsubscribeUrl) html.push(`<p style="font-size:12px"><a href="${escapeHtml(extras.unsubscribeUrl)}">Unsubscribe</a></p>`);
  return {
    text: text.join("\n").trimEnd() + "\n",
    html: `<!doctype html><html><body style="font-family:sans-serif;line-height:1.5">${html.join("")}</body></html>`,
    links,
  };
}

const ROLE_WORD = { owner: "an owner", member: "a member" } as const;
const when = (iso: string) => new Date(iso).toUTCString();
const n = (v: number) => v.toLocaleString("en-US");

/** A workspace's name in a subject: quoted, shorter. */
const inSubject = (name: string) => quoted(name, 60);

function invitation(d: InvitationData, x: RenderExtras): Rendered {
  const url = d.secret ? serviceLink(d.secret.acceptPath) : serviceLink("/accept-invitation");
  const ws = quoted(d.workspaceName);
  return {
    subject: `Invitation to the workspace ${inSubject(d.workspaceName)}`,
    ...layout(
      {
        heading: `Join ${ws}`,
        paragraphs: [
          `${d.inviter ?? "An owner of the workspace"} invited you to the workspace ${ws} as ${ROLE_WORD[d.role]}.`,
          `The link works once and until ${when(d.expiresAt)}. If you did not expect this invitation, ignore this mail.`,
        ],
        action: { label: "Accept the invitation", url },
      },
      x,
    ),
  };
}

/** "your account (a@b.c), a member of “A” and “B”": what a mail about a person's own account names. */
function account(email: string | undefined, workspaces: string[] | undefined): string {
  const named = (workspaces ?? []).slice(0, 3).map((w) => quoted(w));
  const more = (workspaces?.length ?? 0) - named.length;
  const list = named.length === 0 ? "" : `, a member of ${[...named, ...(more > 0 ? [`${more} more`] : [])].join(", ")}`;
  return email ? `your account (${email})${list}` : "your account";
}

function passwordReset(d: PasswordResetData, x: RenderExtras): Rendered {
  const url = d.secret ? serviceLink(d.secret.resetPath) : serviceLink("/reset-password");
  return {
    subject: "Set a new password",
    ...layout(
      {
        heading: "Set a new password",
        paragraphs: [
          `Someone asked to set a new password for ${account(d.email, d.workspaceNames)} at ${serviceLink("/")}. The link works once, for ${d.expiresInMinutes} minutes; using it signs you out everywhere.`,
          "If it was not you, ignore this mail: your password stays as it is.",
        ],
        action: { label: "Set a new password", url },
      },
      x,
    ),
  };
}

const NOTICE: Record<Exclude<SecurityNoticeData["what"], "api_key_created">, { subject: string; what: string }> = {
  password_set: {
    subject: "Your password is set",
    what: "A password was set for your account through a single-use link: you can now sign in with it.",
  },
  password_reset: {
    subject: "Security notice: your password was reset",
    what: "Your password was set through a reset link, and your sessions were ended.",
  },
  password_changed: {
    subject: "Security notice: your password was changed",
    what: "Your password was changed, and your other sessions were ended.",
  },
};

function securityNotice(d: SecurityNoticeData, x: RenderExtras): Rendered {
  const key = d.what === "api_key_created";
  const notice = d.what === "api_key_created" ? null : NOTICE[d.what];
  const what = notice
    ? notice.what
    : `A new API key ${quoted(d.keyName ?? "")} was made in the workspace ${quoted(d.workspaceName ?? "")}${d.by ? ` by ${d.by}` : ""}.`;
  const path = key ? "/settings" : "/settings/sessions";
  return {
    subject: notice
      ? notice.subject
      : `Security notice: a new API key in ${d.workspaceName ? inSubject(d.workspaceName) : "your workspace"}`,
    ...layout(
      {
        heading: d.what === "password_set" ? "Your password is set" : "Security notice",
        paragraphs: [what, `When: ${when(d.at)}.`, "If this was not expected, review it now in the dashboard."],
        action: { label: key ? "Review the API keys" : "Review your sessions", url: serviceLink(path) },
      },
      x,
    ),
  };
}

function memberRemoved(d: MemberRemovedData, x: RenderExtras): Rendered {
  const ws = quoted(d.workspaceName);
  return {
    subject: `You were removed from the workspace ${inSubject(d.workspaceName)}`,
    ...layout(
      {
        heading: `You were removed from ${ws}`,
        paragraphs: [`${d.by ? `${d.by} removed you` : "You were removed"} from the workspace ${ws}. You can no longer see its data.`],
        action: { label: "Open the dashboard", url: serviceLink("/") },
      },
      x,
    ),
  };
}

function alert(d: AlertData, x: RenderExtras): Rendered {
  const more = d.count - d.items.length;
  const ws = quoted(d.workspaceName);
  return {
    subject:
      d.count > 1 ? `${d.ruleLabel}: ${d.count} in ${inSubject(d.workspaceName)}` : `${d.ruleLabel} in ${inSubject(d.workspaceName)}`,
    ...layout(
      {
        heading: `${d.ruleLabel} in ${ws}`,
        paragraphs: [d.count > 1 ? `${d.count} alerts of this kind since the last mail.` : "One new alert."],
        lists: [
          {
            title: d.ruleLabel,
            lines: [
              ...d.items.map((i) => ({ text: quoted(i.title), url: serviceLink(i.path) })),
              ...(more > 0 ? [{ text: `and ${more} more` }] : []),
            ],
          },
        ],
        action: { label: "See all notifications", url: serviceLink("/notifications") },
        footer: [
          `You get this mail because you chose mail alerts for "${d.ruleLabel}" in ${ws}; change it at ${serviceLink("/settings/alerts")}`,
        ],
      },
      x,
    ),
  };
}

function digest(d: DigestData, x: RenderExtras): Rendered {
  const lines = (items: DigestLine[]) => items.map((i) => ({ text: `${quoted(i.title)} — ${i.detail}`, url: serviceLink(i.path) }));
  const none = [{ text: "Nothing this week." }];
  const ws = quoted(d.workspaceName);
  return {
    subject: `Your week in ${inSubject(d.workspaceName)} (${d.weekLabel})`,
    ...layout(
      {
        heading: `Your week in ${ws}`,
        paragraphs: [
          `${d.weekLabel} (${d.timeZone}).`,
          `Analyses: ${n(d.analysesCompleted)} completed, ${n(d.analysesFailed)} failed. Credits: ${n(d.creditsUsed)} used, ${n(d.creditsLeft)} left.`,
        ],
        lists: [
          { title: "Top movers: videos", lines: d.topVideos.length ? lines(d.topVideos) : none },
          { title: "Top movers: accounts", lines: d.topAccounts.length ? lines(d.topAccounts) : none },
          { title: `New videos of tracked accounts (${n(d.newVideoCount)})`, lines: d.newVideos.length ? lines(d.newVideos) : none },
        ],
        action: { label: "Open the dashboard", url: serviceLink("/") },
        footer: [`Weekly digest of ${ws}; change its day and time at ${serviceLink("/settings/alerts")}`],
      },
      x,
    ),
  };
}

function folderReport(d: FolderReportData, x: RenderExtras): Rendered {
  const kind = d.frequency === "weekly" ? "Weekly" : "Monthly";
  const folder = quoted(d.folderName);
  const ws = quoted(d.workspaceName);
  return {
    subject: `${kind} folder report from ${inSubject(d.workspaceName)} (${d.periodLabel})`,
    ...layout(
      {
        heading: `${folder}: ${d.periodLabel}`,
        paragraphs: [
          `${kind} report of the folder ${folder} in the workspace ${ws}, ${d.periodLabel} (${d.timeZone}).`,
          `Views gained: ${n(d.viewsGained)}. New videos: ${n(d.newVideos)}. Now ${n(d.totalVideos)} videos with ${n(d.totalViews)} views in all.`,
        ],
        lists: [
          {
            title: "Top videos by views gained",
            lines: d.topVideos.length
              ? d.topVideos.map((v) => ({ text: `${quoted(v.title)} — +${n(v.viewsGained)} views` }))
              : [{ text: "No views gained in this period." }],
          },
        ],
        ...(d.secret ? { action: { label: "Open the full report", url: serviceLink(d.secret.sharePath) } } : {}),
        footer: [`You get this mail because an owner of the workspace ${ws} scheduled this report to your address.`],
      },
      x,
    ),
  };
}

/** The mail a row's kind and data make. */
export function renderMail(kind: string, data: unknown, extras: RenderExtras = {}): Rendered {
  switch (kind as MailKind) {
    case "invitation":
      return invitation(data as InvitationData, extras);
    case "password_reset":
      return passwordReset(data as PasswordResetData, extras);
    case "security_notice":
      return securityNotice(data as SecurityNoticeData, extras);
    case "member_removed":
      return memberRemoved(data as MemberRemovedData, extras);
    case "alert":
      return alert(data as AlertData, extras);
    case "digest":
      return digest(data as DigestData, extras);
    case "folder_report":
      return folderReport(data as FolderReportData, extras);
    default:
      throw new Error(`unknown mail kind ${kind}`);
  }
}

/**
 * Alerts, digests and scheduled reports carry one-click unsubscribe (RFC 8058): a person's alert rule or digest, or a
 * report's recipient address taken off its schedule. The others are what a person must get.
 */
export const UNSUBSCRIBABLE: ReadonlySet<string> = new Set(["alert", "digest", "folder_report"]);
