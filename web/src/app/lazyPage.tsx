/**
 * A page loaded on demand (React.lazy) that can also be asked for ahead of its render: on the
 * first load the opened page's code is fetched with the viewer query (app/preload.ts). A page
 * already loaded renders at once; React.lazy would suspend on its first render even then, and a
 * fallback shown for an instant delays the page by React's Suspense reveal throttle (300 ms).
 */
import { lazy, useState, type ComponentType } from "react";

export interface LazyPage {
  (): React.JSX.Element;
  /** Starts loading the page's code (again: the browser and the module map keep the first). */
  preload(): Promise<unknown>;
}

export function lazyPage(load: () => Promise<{ default: ComponentType }>): LazyPage {
  let loaded: ComponentType | null = null;
  const preload = () =>
    load().then((module) => {
      loaded = module.default;
      return module;
    });
  const Lazy = lazy(preload);
  function Page() {
    // Chosen once per mount: switching from Lazy to the loaded component later would remount the page.
    const [Component] = useState<ComponentType>(() => loaded ?? Lazy);
    return <Component />;
  }
  return Object.assign(Page, { preload });
}
