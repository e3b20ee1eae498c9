import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { RouterProvider } from "react-router/dom";
import { createDashboardRouter } from "./app/router";
import { apiErrorOf } from "./lib/errors";
import "./styles/global.css";

// An API error caught by an error boundary is shown on the page in words; only other errors are
// worth the console (React logs every caught error by default).
const onCaughtError = (error: unknown, info: { componentStack?: string }) => {
  if (!apiErrorOf(error)) console.error(error, info.componentStack);
};

// The router starts the first page's code and queries (with the viewer's) before its first render
// (app/routes.tsx); meanwhile the root route's fallback says "Loading the dashboard…".
createRoot(document.getElementById("root")!, { onCaughtError }).render(
  <StrictMode>
    <RouterProvider router={createDashboardRouter()} />
  </StrictMode>,
);
