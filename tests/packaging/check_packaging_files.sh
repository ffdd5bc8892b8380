#!/usr/bin/env bash
# Checks the desktop-integration files the .deb packages install, with Debian's own
# validators, and that each man page documents every option its program's --help lists.
#   check_packaging_files.sh <source dir> <queuescope executable> <queuescope-broker executable>
set -uo pipefail
src=$1 console=$2 broker=$3
linux=$src/packaging/linux
id=org.queuescope.Queuescope
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
pass() { echo "PASS: $*"; }
need() {
  command -v "$1" >/dev/null || { echo "FAIL: $1 is not installed (bash packaging/dev.sh deps installs it)"; exit 1; }
}
need desktop-file-validate; need appstreamcli; need man; need update-mime-database

out=$(desktop-file-validate "$linux/$id.desktop" 2>&1)
[ -z "$out" ] && pass "desktop-file-validate $id.desktop" || fail "desktop-file-validate: $out"

out=$(appstreamcli validate --no-net --pedantic "$linux/$id.metainfo.xml" 2>&1)
status=$?
[ $status -eq 0 ] && pass "appstreamcli validate --no-net $id.metainfo.xml" ||
  fail "appstreamcli validate: $out"

grep -q "^Icon=$id$" "$linux/$id.desktop" && [ -s "$linux/icons/$id.svg" ] &&
  pass "desktop entry's icon $id.svg exists" || fail "desktop entry's Icon= has no SVG"
for size in 16 24 32 48 64 128 256; do
  png=$linux/icons/hicolor/${size}x${size}/apps/$id.png
  [ -s "$png" ] || fail "missing icon $png"
done

# The *.qsrun file type: the shared-mime-info package file builds a MIME database
# (as the package's dpkg trigger does) that maps *.qsrun to the type, a kind of SQLite
# file; the desktop entry opens that type with the file as its argument.
type=application/x-queuescope-run
mime=$linux/$id.mime.xml
db=$(mktemp -d)
mkdir -p "$db/mime/packages" && cp "$mime" "$db/mime/packages/$id.xml"
out=$(XDG_DATA_DIRS=$db update-mime-database "$db/mime" 2>&1)
status=$?
[ $status -eq 0 ] && [ -z "$out" ] && pass "update-mime-database reads $id.mime.xml" ||
  fail "update-mime-database on $id.mime.xml: $out"
grep -qx "50:$type:\*\.qsrun" "$db/mime/globs2" && pass "*.qsrun is $type" ||
  fail "the MIME database does not map *.qsrun to $type"
grep -qx "$type application/vnd.sqlite3" "$db/mime/subclasses" &&
  pass "$type is a kind of application/vnd.sqlite3" || fail "$type is not a subclass of SQLite"
rm -rf "$db"
grep -qx "MimeType=$type;" "$linux/$id.desktop" && pass "the desktop entry opens $type" ||
  fail "the desktop entry's MimeType= does not name $type"
grep -qx 'Exec=queuescope %f' "$linux/$id.desktop" && pass "the desktop entry passes the file" ||
  fail "the desktop entry's Exec= does not pass the file (%f)"
grep -q "<mediatype>$type</mediatype>" "$linux/$id.metainfo.xml" &&
  pass "the metainfo provides $type" || fail "the metainfo does not provide $type"

unit=$linux/queuescope-broker.service
grep -q '^ExecStart=/usr/bin/queuescope-broker .*--bind 127\.0\.0\.1' "$unit" &&
  pass "systemd unit binds loopback" || fail "systemd unit does not bind 127.0.0.1"

# A man page rendered as text; any warning man or groff gives fails the check.
render() { MANWIDTH=200 man -l --warnings -E UTF-8 "$1" 2>"$tmp/warnings" | col -b; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
options_of() { grep -o -- '--[a-z][a-z-]*' | sort -u; }
check_page() {  # check_page <man page> <help text file>
  local page=$1 help=$2 missing=
  render "$page" >"$tmp/page.txt"
  if [ -s "$tmp/warnings" ]; then fail "man -l $(basename "$page"): $(cat "$tmp/warnings")"; else
    pass "man -l $(basename "$page") without warnings"; fi
  for opt in $(options_of <"$help"); do
    grep -q -- "$opt\b" "$tmp/page.txt" || missing+=" $opt"
  done
  [ -z "$missing" ] && pass "$(basename "$page") documents every option of --help" ||
    fail "$(basename "$page") does not document:$missing"
}
{ QT_QPA_PLATFORM=offscreen "$console" --help; "$console" run --help; "$console" summary --help
  "$console" trace --help; "$console" compare --help; "$console" report --help; "$console" lesson --help
  "$console" parity --help; "$console" redrive --help; } \
  >"$tmp/console-help.txt" 2>&1
check_page "$linux/man/queuescope.1" "$tmp/console-help.txt"
"$broker" --help >"$tmp/broker-help.txt" 2>&1
check_page "$linux/man/queuescope-broker.1" "$tmp/broker-help.txt"

echo "$failures failed"
[ $failures -eq 0 ]
