import { StrictMode, Suspense } from "react";
import { createRoot } from "react-dom/client";
import { BrowserRouter } from "react-router";
import { AppRoutes } from "./app/routes";
import { preloadFirstPage } from "./app/preload";
import { firstEnvironment, WorkspaceEnvironment } from "./app/workspace";
import { Loading } from "./components/Loading";
import { apiErrorOf } from "./lib/errors";
import "./styles/global.css";

// An API error caught by an error boundary is shown on the page in words; only other errors are
// worth the console (React logs every caught error by default).
const onCaughtError = (error: unknown, info: { componentStack?: string }) => {
  if (!apiErrorOf(error)) console.error(error, info.componentStack);
};

// The first page's code and data are asked for before the app's first render (app/preload.ts);
// meanwhile the root shows the same loading status as the app's own outer fallback. A plain render,
// not a Suspense fallback: it does not hold back the app's reveal by React's throttle.
const root = createRoot(document.getElementById("root")!, { onCaughtError });
root.render(<Loading what="Loading the dashboard" />);
void preloadFirstPage(firstEnvironment().environment, window.location).then(() =>
  root.render(
    <StrictMode>
      <BrowserRouter>
        <WorkspaceEnvironment>
          <Suspense fallback={<Loading what="Loading the dashboard" />}>
            <AppRoutes />
          </Suspense>
        </WorkspaceEnvironment>
      </BrowserRouter>
    </StrictMode>,
  ),
);
