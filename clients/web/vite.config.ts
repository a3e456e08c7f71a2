import { defineConfig } from "vitest/config";
import react from "@vitejs/plugin-react";

// The build is committed (dist, embedded in the Go binary) and CI rebuilds
// it and compares: output must depend only on the sources and the locked
// packages, so no timestamps, no absolute paths, no source maps.
export default defineConfig({
  plugins: [react()],
  build: {
    outDir: "dist",
    emptyOutDir: true,
    sourcemap: false,
    // Nothing inline: the Content-Security-Policy allows scripts from the
    // app's own origin only (platform/webapp), and images from files.
    assetsInlineLimit: 0,
    modulePreload: { polyfill: false },
    chunkSizeWarningLimit: 800,
  },
  server: {
    // `npm run dev` talks to a propman started on :8080.
    proxy: { "/api": "http://127.0.0.1:8080" },
  },
  test: {
    include: ["src/**/*.test.ts"],
    environment: "node",
  },
});
