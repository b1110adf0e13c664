#!/usr/bin/env bash
# Renders an HTML report in headless Chromium (installed from Debian's packages if missing)
# with networking disabled, and writes a PNG screenshot to look at.
#
#   scripts/report-screenshot.sh results/report.html results/report.png
set -euo pipefail
page=$(realpath "${1:-results/report.html}")
png=${2:-${page%.html}.png}
if ! command -v chromium >/dev/null; then
    apt-get update -qq && apt-get install -y -qq chromium fonts-noto-color-emoji >/dev/null
fi
profile=$(mktemp -d)
# No network: the page must render from the file alone.
chromium --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
    --disable-background-networking --disable-component-update --disable-sync \
    --proxy-server=127.0.0.1:9 --user-data-dir="$profile" \
    --window-size=1400,2600 --screenshot="$png" "file://$page" 2>/dev/null
rm -rf "$profile"
echo "screenshot: $png"
