/**
 * The route table: one line per page. Pages load on demand (React.lazy), so the first load carries
 * only the shell and the page opened. URLs are built with ./paths.ts; a new top-level segment goes
 * into DASHBOARD_SEGMENTS there as well.
 */
import { lazy } from "react";
import { Route, Routes } from "react-router";
import { Shell } from "./Shell";
import { SignedIn } from "./SignedIn";

const OverviewPage = lazy(() => import("../pages/overview/OverviewPage"));
const VideosPage = lazy(() => import("../pages/videos/VideosPage"));
const VideoPage = lazy(() => import("../pages/video/VideoPage"));
const SignInPage = lazy(() => import("../pages/sign-in/SignInPage"));
const ResetPasswordPage = lazy(() => import("../pages/reset-password/ResetPasswordPage"));
const AccountsPage = lazy(() => import("../pages/accounts/AccountsPage"));
const AccountPage = lazy(() => import("../pages/account/AccountPage"));
const FoldersPage = lazy(() => import("../pages/folders/FoldersPage"));
const FolderPage = lazy(() => import("../pages/folder/FolderPage"));
const RadarPage = lazy(() => import("../pages/radar/RadarPage"));
const AcceptInvitationPage = lazy(() => import("../pages/accept-invitation/AcceptInvitationPage"));
const SettingsPage = lazy(() => import("../pages/settings/SettingsPage"));
const NotFoundPage = lazy(() => import("../pages/coming/NotFoundPage"));

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
