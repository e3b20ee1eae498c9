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
const AcceptInvitationPage = lazy(() => import("../pages/accept-invitation/AcceptInvitationPage"));
const SettingsPage = lazy(() => import("../pages/settings/SettingsPage"));
const ComingPage = lazy(() => import("../pages/coming/ComingPage"));
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
        <Route path="accounts/*" element={<ComingPage title="Accounts" what="Track creator accounts with a video limit, and see their follower and view history." />} />
        <Route path="folders/*" element={<ComingPage title="Folders" what="Group accounts and videos, with analytics cards and top videos." />} />
        <Route path="radar/*" element={<ComingPage title="Radar" what="Search the platforms for videos on a topic (100 credits a search)." />} />
        <Route path="settings/*" element={<SettingsPage />} />
        <Route path="*" element={<NotFoundPage />} />
      </Route>
    </Routes>
  );
}
