#!/usr/bin/env bash
# modules/reports' tests read the files it writes with real readers:
# openpyxl (XLSX), rsvg-convert (the SVG chart) and pdftotext (the owner
# statement). Debian's packages: the tests use whichever of python3 and
# /usr/bin/python3 imports openpyxl (a pyenv python3 may shadow Debian's).
set -euo pipefail
openpyxl() { python3 -c 'import openpyxl' 2>/dev/null || /usr/bin/python3 -c 'import openpyxl' 2>/dev/null; }
missing=()
openpyxl || missing+=(python3-openpyxl)
command -v rsvg-convert >/dev/null || missing+=(librsvg2-bin)
command -v pdftotext >/dev/null || missing+=(poppler-utils)
[ ${#missing[@]} -eq 0 ] && exit 0
export DEBIAN_FRONTEND=noninteractive
if ! apt-get install -y -qq "${missing[@]}" >/dev/null 2>&1; then
  apt-get update -qq >/dev/null
  apt-get install -y -qq "${missing[@]}" >/dev/null
fi
openpyxl || pip install --quiet openpyxl
