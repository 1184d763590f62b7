#!/usr/bin/env bash
# headless.sh dom PAGE [WIDTH,HEIGHT] | screenshot PAGE OUT.png [WIDTH,HEIGHT] — open a page in
# headless chromium (Debian's package; nothing is downloaded) from disk, after its load event;
# PAGE may end in a query (index.html?check: the page checks itself, see page_check.py):
#   dom         print the page's DOM as the browser left it (its scripts run) to stdout, and
#               the browser's console messages, one "console: ..." line each, to stderr; in a
#               window of WIDTH x HEIGHT (default 1280,800)
#   screenshot  write a PNG of the page's top WIDTH x HEIGHT pixels (default 1280,2400); make
#               page-screenshot RUN=results/<id> uses it for the README's picture of a run
# A fresh profile in a temporary folder each time (no state shared with another run or user).
# Exit 2 on bad arguments or a missing page, 1 when chromium is missing or fails.
# Environment: CHROMIUM (default chromium).
set -euo pipefail
CHROMIUM=${CHROMIUM:-chromium}
usage() { echo "usage: scripts/headless.sh dom PAGE [WIDTH,HEIGHT] | screenshot PAGE OUT.png [WIDTH,HEIGHT]" >&2; exit 2; }
[ $# -ge 2 ] || usage
mode=$1 page=${2%%\?*}
query=${2#"$page"}
case $mode in
  dom) [ $# -eq 2 ] || [ $# -eq 3 ] || usage ;;
  screenshot) [ $# -eq 3 ] || [ $# -eq 4 ] || usage ;;
  *) usage ;;
esac
[ -f "$page" ] || { echo "error: $page: no such page" >&2; exit 2; }
command -v "$CHROMIUM" >/dev/null ||
  { echo "error: $CHROMIUM not found; install it with: sudo apt-get install chromium" >&2; exit 1; }
url="file://$(cd "$(dirname "$page")" && pwd)/$(basename "$page")$query"
profile=$(mktemp -d /tmp/ecsb-chromium.XXXXXX)
trap 'rm -rf "$profile"' EXIT
# --virtual-time-budget: run the page (its load event included) before dumping, without waiting
# in real time. --no-sandbox: root in a container has no user namespace for the sandbox.
flags=(--headless --no-sandbox --disable-gpu --no-first-run --user-data-dir="$profile"
  --enable-logging=stderr --v=0 --virtual-time-budget=20000)
status=0
if [ "$mode" = dom ]; then
  "$CHROMIUM" "${flags[@]}" --hide-scrollbars --window-size="${3:-1280,800}" --dump-dom "$url" \
    2>"$profile/log" || status=$?
else
  "$CHROMIUM" "${flags[@]}" --hide-scrollbars --window-size="${4:-1280,2400}" \
    --screenshot="$(realpath -m "$3")" "$url" >/dev/null 2>"$profile/log" || status=$?
fi
# Console messages (chromium logs them as INFO:CONSOLE(line)] "text", source: url).
grep -F ':CONSOLE' "$profile/log" | sed 's/^[^]]*] /console: /' >&2 || true
if [ $status -ne 0 ]; then
  tail -n 5 "$profile/log" >&2
  echo "error: $CHROMIUM failed (exit $status) on $page" >&2
  exit 1
fi
if [ "$mode" = screenshot ]; then
  [ -s "$3" ] || { echo "error: $CHROMIUM wrote no screenshot $3" >&2; exit 1; }
fi
