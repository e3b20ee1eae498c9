/** The pages, each loaded on demand (./lazyPage.tsx): the route table renders them, app/preload.ts asks for the first one early. */
import { lazyPage } from "./lazyPage";

export const pages = {
  OverviewPage: lazyPage(() => import("../pages/overview/OverviewPage")),
  VideosPage: lazyPage(() => import("../pages/videos/VideosPage")),
  VideoPage: lazyPage(() => import("../pages/video/VideoPage")),
  SignInPage: lazyPage(() => import("../pages/sign-in/SignInPage")),
  ResetPasswordPage: lazyPage(() => import("../pages/reset-password/ResetPasswordPage")),
  AccountsPage: lazyPage(() => import("../pages/accounts/AccountsPage")),
  AccountPage: lazyPage(() => import("../pages/account/AccountPage")),
  FoldersPage: lazyPage(() => import("../pages/folders/FoldersPage")),
  FolderPage: lazyPage(() => import("../pages/folder/FolderPage")),
  RadarPage: lazyPage(() => import("../pages/radar/RadarPage")),
  AcceptInvitationPage: lazyPage(() => import("../pages/accept-invitation/AcceptInvitationPage")),
  SettingsPage: lazyPage(() => import("../pages/settings/SettingsPage")),
  NotFoundPage: lazyPage(() => import("../pages/coming/NotFoundPage")),
};
