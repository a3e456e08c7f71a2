#!/usr/bin/env bash
# clients/web: its Node packages (npm ci, from package-lock.json, with no
# browser download) and Debian's Chromium, which the Playwright journeys
# drive through executablePath. Node.js 20 and npm come with the machine.
set -euo pipefail
cd "$(dirname "$0")/../../clients/web"
command -v node >/dev/null 2>&1 || { echo "clients/web needs Node.js 20 or later (node not found)"; exit 1; }
if [ ! -x /usr/bin/chromium ]; then
  echo "installing Debian's chromium with apt-get"
  export DEBIAN_FRONTEND=noninteractive
  apt-get install -y -qq chromium >/dev/null 2>&1 || { apt-get update -qq; apt-get install -y -qq chromium >/dev/null; }
fi
# npm ci again only when the lock file changed since the last install.
want=$(sha256sum package-lock.json | cut -d' ' -f1)
if [ "$(cat node_modules/.propman-lock 2>/dev/null)" != "$want" ]; then
  PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci --no-audit --no-fund
  echo "$want" >node_modules/.propman-lock
fi
/usr/bin/chromium --version
