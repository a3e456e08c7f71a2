import { defineConfig } from "vitest/config";
import react from "@vitejs/plugin-react";
import { readFileSync } from "node:fs";
import type { Plugin } from "vite";

// `./locales/xx.json?first`: the words of the first page, that is the
// locale file without the landlord's screens' words (but their navigation,
// which the shell shows), and the same of the office's and the desk's. Those come with
// their chunks (src/landlord/words.ts, src/office/words.ts, src/desk/words.ts), keeping the first page's JavaScript small.
function firstPageWords(): Plugin {
  const prefix = "\0first-page-words:";
  return {
    name: "first-page-words",
    enforce: "pre",
    async resolveId(source, importer) {
      if (!source.endsWith(".json?first")) return null;
      const found = await this.resolve(source.slice(0, -"?first".length), importer);
      // Not ending in .json: the JSON plugin leaves the module to load() below.
      return found ? prefix + found.id + ".js" : null;
    },
    load(id) {
      if (!id.startsWith(prefix)) return null;
      const words = JSON.parse(readFileSync(id.slice(prefix.length, -".js".length), "utf8"));
      if (words.landlord) words.landlord = { nav: words.landlord.nav, shell: words.landlord.shell };
      if (words.office) words.office = { nav: words.office.nav };
      if (words.desk) words.desk = { nav: words.desk.nav };
      return `export default ${JSON.stringify(words)};`;
    },
  };
}

// The build is committed (dist, embedded in the Go binary) and CI rebuilds
// it and compares: output must depend only on the sources and the locked
// packages, so no timestamps, no absolute paths, no source maps.
export default defineConfig({
  plugins: [firstPageWords(), react()],
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
