import { StrictMode, Suspense } from "react";
import { createRoot } from "react-dom/client";
import { BrowserRouter } from "react-router";
import { AppRoutes } from "./app/routes";
import { WorkspaceEnvironment } from "./app/workspace";
import { Loading } from "./components/Loading";
import "./styles/global.css";

createRoot(document.getElementById("root")!).render(
  <StrictMode>
    <BrowserRouter>
      <WorkspaceEnvironment>
        <Suspense fallback={<Loading what="Loading the dashboard" />}>
          <AppRoutes />
        </Suspense>
      </WorkspaceEnvironment>
    </BrowserRouter>
  </StrictMode>,
);
