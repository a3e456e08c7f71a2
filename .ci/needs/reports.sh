#!/usr/bin/env bash
# modules/reports' tests read the files it writes with real readers:
# openpyxl (XLSX), rsvg-convert (the SVG chart) and pdftotext (the owner
# statement). Debian's packages, since PyPI is not reachable everywhere.
set -euo pipefail
missing=()
python3 -c 'import openpyxl' 2>/dev/null || missing+=(python3-openpyxl)
command -v rsvg-convert >/dev/null || missing+=(librsvg2-bin)
command -v pdftotext >/dev/null || missing+=(poppler-utils)
[ ${#missing[@]} -eq 0 ] && exit 0
if ! apt-get install -y -qq "${missing[@]}" >/dev/null 2>&1; then
  apt-get update -qq >/dev/null
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
fi
# Fall back to pip for openpyxl where the Debian package is unavailable.
python3 -c 'import openpyxl' 2>/dev/null || pip install --quiet openpyxl
