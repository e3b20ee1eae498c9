/**
 * The dashboard's build (`npm run build:web`, run by the root postinstall) and its dev server
 * (`npm run dev:web`): React, Relay's babel plugin (turns graphql`…` into imports of the artifacts
 * relay-compiler writes to src/__generated__), and a proxy of the API's paths to a running service.
 */
import { readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import { brotliCompress, constants, gzip } from "node:zlib";
import { defineConfig, type Plugin } from "vite";
import react from "@vitejs/plugin-react";
import babel from "@rolldown/plugin-babel";
import { DASHBOARD_SEGMENTS } from "./src/lib/paths.ts";

/** Writes dist/routes.json: the first path segments the server answers with index.html. */
function dashboardRoutes(): Plugin {
  return {
    name: "dashboard-routes",
    apply: "build",
    generateBundle() {
      this.emitFile({ type: "asset", fileName: "routes.json", source: JSON.stringify({ segments: DASHBOARD_SEGMENTS }) + "\n" });
    },
  };
}

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/**
 * Writes a `.br` (quality 11) and a `.gz` (level 9) next to each JavaScript and CSS asset: the server
 * sends the one the browser accepts (src/http/dashboard.ts), compressed once here at the strongest
 * levels (brotli: ~16 % fewer bytes than gzip) instead of on every response.
 */
function precompress(): Plugin {
  let outDir = "dist";
  return {
    name: "precompress",
    apply: "build",
    configResolved(config) {
      outDir = config.build.outDir;
    },
    async writeBundle() {
      const dir = join(outDir, "assets");
      const files = (await readdir(dir)).filter((f) => /\.(js|css)$/.test(f));
      await Promise.all(
        files.map(async (file) => {
          const raw = await readFile(join(dir, file));
          if (raw.length < 1024) return; // the server's threshold: smaller files go as they are
          const br = await brotli(raw, {
            params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: raw.length },
          });
          await writeFile(join(dir, `${file}.br`), br);
          await writeFile(join(dir, `${file}.gz`), await gzipAsync(raw, { level: 9 }));
        }),
      );
    },
  };
}

// The running API the dev server forwards to (npm start listens on 4000).
const api = process.env.API_URL ?? "http://127.0.0.1:4000";

export default defineConfig({
  plugins: [react(), babel({ plugins: ["relay"] }), dashboardRoutes(), precompress()],
  build: {
    outDir: "dist",
    emptyOutDir: true,
    // Hashed file names under assets/: the server sends them with a year-long immutable cache.
    assetsDir: "assets",
    sourcemap: false,
    // The budget that matters is gzipped JavaScript on first load (≤ 250 KB, bench/dashboard.ts);
    // React, Relay and the router make one ~540 KB (160 KB gzipped) vendor-and-shell chunk.
    chunkSizeWarningLimit: 700,
    // No "[PLUGIN_TIMINGS]" report on every build (the root postinstall runs one in `npm ci`, which prints no
    // warnings): Relay's babel transform is most of the build's time, as expected. Profile with `node --cpu-prof`.
    rolldownOptions: { checks: { bundlerTimings: false } },
  },
  server: {
    port: 5173,
    strictPort: false,
    // The Host header is kept (changeOrigin false): the service checks that a cookie-authenticated
    // WebSocket comes from its own origin, which through this proxy is the dev server's.
    proxy: {
      "/graphql": { target: api, ws: true, changeOrigin: false },
      "/auth": { target: api },
      "/api": { target: api },
      "/graphiql": { target: api },
    },
  },
});
