/**
 * The route table: one line per page. Pages load on demand (./pages.ts), so the first load carries
 * only the shell and the page opened. URLs are built with ./paths.ts; a new top-level segment goes
 * into DASHBOARD_SEGMENTS there as well.
 */
import { Route, Routes } from "react-router";
import { Shell } from "./Shell";
import { SignedIn } from "./SignedIn";
import { pages } from "./pages";

const { OverviewPage, VideosPage, VideoPage, SignInPage, ResetPasswordPage, AccountsPage, AccountPage, FoldersPage, FolderPage, RadarPage, AcceptInvitationPage, SettingsPage, NotFoundPage } = pages;

export function AppRoutes() {
  return (
    <Routes>
      <Route path="sign-in" element={<SignInPage />} />
      <Route path="reset-password" element={<ResetPasswordPage />} />
      <Route path="accept-invitation" element={<AcceptInvitationPage />} />
      <Route element={<SignedIn>{(viewer) => <Shell viewer={viewer} />}</SignedIn>}>
        <Route index element={<OverviewPage />} />
        <Route path="videos" element={<VideosPage />} />
        <Route path="videos/:id" element={<VideoPage />} />
        <Route path="accounts" element={<AccountsPage />} />
        <Route path="accounts/:id" element={<AccountPage />} />
        <Route path="folders" element={<FoldersPage />} />
        <Route path="folders/:id" element={<FolderPage />} />
        <Route path="radar" element={<RadarPage />} />
        <Route path="radar/:id" element={<RadarPage />} />
        <Route path="settings/*" element={<SettingsPage />} />
        <Route path="*" element={<NotFoundPage />} />
      </Route>
    </Routes>
  );
}
