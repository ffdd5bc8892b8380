#!/usr/bin/env bash
# Checks the setup and the .deb packages on a minimal Debian 12 root, the way a
# brand-new machine would see them (docs/testing.md, "Clean-root stages").
#
#   bash packaging/clean_root.sh setup          a fresh root: `dev.sh deps`, then a full
#                                               CMake configure (GUI, tests, benchmarks)
#   bash packaging/clean_root.sh install DEB..  a fresh root: `apt-get install ./DEB...`, then
#                                               the installed programs, data and desktop files
#   bash packaging/clean_root.sh base           only build (or reuse) the cached base root
#
# The base root (debootstrap --variant=minbase bookworm, plus the .deb files of
# packaging/debian-packages.txt downloaded but not installed) is cached outside the
# clone in $QUEUESCOPE_ROOT_CACHE (default /var/cache/queuescope/clean-root), keyed by
# the package list (and base_format below), so later runs copy it instead of building it.
# Each check works in a fresh copy that is removed afterwards. Needs root (chroot,
# mount) and Debian's package mirror.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cache=${QUEUESCOPE_ROOT_CACHE:-/var/cache/queuescope/clean-root}
mirror=${QUEUESCOPE_DEBIAN_MIRROR:-http://deb.debian.org/debian}
suite=bookworm

say() { echo "    [clean-root] $*"; }
fail() { echo "==> clean-root check FAILED: $*" >&2; exit 1; }

packages() { bash "$here/packaging/dev.sh" packages; }  # the list, read in one place

# Bump when build_base() makes a different root, so cached ones are rebuilt.
base_format=1
base_key() {
  { echo "$suite minbase $mirror format $base_format"; packages; } | sha256sum | cut -c1-16
}

# Mount points of the current fresh root, unmounted in reverse order at exit.
mounted=()
work=
cleanup() {
  local i
  for ((i = ${#mounted[@]} - 1; i >= 0; i--)); do umount -l "${mounted[i]}" 2>/dev/null || true; done
  mounted=()
  if [ -n "$work" ]; then rm -rf --one-file-system "$work"; fi
}
trap cleanup EXIT

mount_into() {  # mount_into <root> : /proc, /dev, and the clone read-only at /src
  local root=$1
  mount -t proc proc "$root/proc" && mounted+=("$root/proc")
  mount --bind /dev "$root/dev" && mounted+=("$root/dev")
  mkdir -p "$root/src"
  mount --bind "$here" "$root/src" && mounted+=("$root/src")
  mount -o remount,bind,ro "$root/src"
}

base_dir=
build_base() {  # sets $base_dir to the cached base root, building it if needed
  local key dir tmp
  key=$(base_key)
  dir=$cache/$key
  base_dir=$dir
  if [ -f "$dir/.complete" ]; then
    return
  fi
  command -v debootstrap >/dev/null || fail "debootstrap is not installed (packaging/debian-packages.txt lists it; run 'dev.sh deps')"
  mkdir -p "$cache"
  tmp=$cache/.building-$key
  umount -l "$tmp/proc" 2>/dev/null || true
  rm -rf --one-file-system "$tmp"
  say "building the base root $key (debootstrap minbase $suite; once per package list)"
  debootstrap --variant=minbase "$suite" "$tmp" "$mirror" >"$cache/debootstrap-$key.log" 2>&1 ||
    { tail -n 20 "$cache/debootstrap-$key.log" >&2; fail "debootstrap failed (log: $cache/debootstrap-$key.log)"; }
  # No daemons start inside the root while packages install.
  printf '#!/bin/sh\nexit 101\n' >"$tmp/usr/sbin/policy-rc.d"
  chmod +x "$tmp/usr/sbin/policy-rc.d"
  cp /etc/resolv.conf "$tmp/etc/resolv.conf"
  say "downloading the listed packages into the base root (not installing them)"
  mount -t proc proc "$tmp/proc" && mounted+=("$tmp/proc")
  # shellcheck disable=SC2046
  chroot "$tmp" sh -c "apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
      --download-only --no-install-recommends $(packages | tr '\n' ' ')" >"$cache/download-$key.log" 2>&1 ||
    { tail -n 20 "$cache/download-$key.log" >&2; fail "downloading the package list failed (log: $cache/download-$key.log)"; }
  umount -l "$tmp/proc"; mounted=()
  touch "$tmp/.complete"
  # Only the current key is kept, with its logs.
  find "$cache" -mindepth 1 -maxdepth 1 ! -name "$key" ! -name "*-$key.log" ! -name ".building-*" \
    -exec rm -rf --one-file-system {} +
  mv "$tmp" "$dir"
  say "base root cached in $dir"
}

fresh_root() {  # fresh_root : sets $work to a fresh copy of the base root, mounted
  build_base
  work=$(mktemp -d "${TMPDIR:-/var/tmp}/queuescope-root.XXXXXX")
  cp -a "$base_dir/." "$work/"
  cp /etc/resolv.conf "$work/etc/resolv.conf"
  mount_into "$work"
}

in_root() { chroot "$work" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8 "$@"; }

check_setup() {
  fresh_root
  say "fresh root $work: running 'bash packaging/dev.sh deps'"
  in_root bash /src/packaging/dev.sh deps >"$work.deps.log" 2>&1 ||
    { tail -n 30 "$work.deps.log" >&2; fail "'dev.sh deps' failed in a fresh Debian 12 root (log above)"; }
  say "configuring the whole project (GUI, tests, benchmarks)"
  if ! in_root cmake -S /src -B /tmp/build -G Ninja -DQUEUESCOPE_BUILD_GUI=ON \
        -DQUEUESCOPE_BUILD_TESTS=ON -DQUEUESCOPE_BUILD_BENCHMARKS=ON >"$work.configure.log" 2>&1; then
    cat "$work.configure.log" >&2
    echo "--- what CMake could not find (the optional 'Could NOT find' lines of a good configure left out):" >&2
    grep -A1 -E 'CMake Error|could not be found because|Failed to find required|Could not find a package' \
      "$work.configure.log" | grep -v '^--$' >&2 || true
    fail "CMake configure failed in a fresh Debian 12 root after 'dev.sh deps': a package is missing from packaging/debian-packages.txt"
  fi
  say "configure succeeded with only packaging/debian-packages.txt installed"
  rm -f "$work.deps.log" "$work.configure.log"
}

# Runs inside the root after the .deb files are installed.
installed_checks() {
  cat <<'EOF'
set -eu
check() { echo "    [installed] $1"; }
v=$(queuescope --version); check "queuescope --version: $v"
case "$v" in *"$QS_VERSION"*) ;; *) echo "expected version $QS_VERSION" >&2; exit 1 ;; esac
b=$(queuescope-broker --version); check "queuescope-broker --version: $b"
case "$b" in *"$QS_VERSION"*) ;; *) echo "expected version $QS_VERSION" >&2; exit 1 ;; esac
queuescope --help | grep -q -- '--screenshot'
queuescope-broker --help | grep -q -- '--tls-client-ca'
queuescope run --scenario 01-classic-work-queue --quiet >/tmp/summary.txt
check "queuescope run --scenario 01-classic-work-queue: exit 0"
sed 's/^/      /' /tmp/summary.txt
queuescope lesson 01-competing-consumers --answer 1=worker-3 >/tmp/lesson.txt
check "queuescope lesson 01-competing-consumers: exit 0, $(grep -c '^  \[pass\]' /tmp/lesson.txt) checks passed"
QT_QPA_PLATFORM=offscreen queuescope --screenshot /tmp/installed.png --scenario 04-worker-crash --after 4 >/dev/null
[ "$(head -c 8 /tmp/installed.png | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ] || { echo "not a PNG" >&2; exit 1; }
check "queuescope --screenshot: $(stat -c %s /tmp/installed.png) byte PNG"
desktop=/usr/share/applications/org.queuescope.Queuescope.desktop
metainfo=/usr/share/metainfo/org.queuescope.Queuescope.metainfo.xml
for f in "$desktop" "$metainfo" /usr/share/icons/hicolor/scalable/apps/org.queuescope.Queuescope.svg \
         /usr/share/icons/hicolor/256x256/apps/org.queuescope.Queuescope.png \
         /usr/share/icons/hicolor/48x48/apps/org.queuescope.Queuescope.png \
         /usr/share/man/man1/queuescope.1.gz /usr/share/man/man1/queuescope-broker.1.gz \
         /usr/lib/systemd/system/queuescope-broker.service /usr/share/queuescope/scenarios/01-classic-work-queue.json \
         /usr/share/queuescope/lessons/01-competing-consumers.json \
         /usr/share/mime/packages/org.queuescope.Queuescope.xml; do
  [ -s "$f" ] || { echo "missing: $f" >&2; exit 1; }
done
exe=$(sed -n 's/^Exec=\([^ ]*\).*/\1/p' "$desktop"); command -v "$exe" >/dev/null || { echo "Exec=$exe not on PATH" >&2; exit 1; }
icon=$(sed -n 's/^Icon=//p' "$desktop"); [ -s "/usr/share/icons/hicolor/scalable/apps/$icon.svg" ] || { echo "Icon=$icon not installed" >&2; exit 1; }
check "desktop entry, metainfo, *.qsrun MIME type, icons, man pages, systemd unit, scenarios, lessons: present"
queuescope-broker --port 0 >/tmp/broker.out 2>/dev/null & pid=$!
for _ in $(seq 1 100); do grep -qs listening /tmp/broker.out && break; sleep 0.1; done
grep -q 'listening on 127.0.0.1:' /tmp/broker.out || { echo "queuescope-broker did not start" >&2; exit 1; }
kill -TERM "$pid"; wait "$pid"
check "queuescope-broker: $(cat /tmp/broker.out), stopped cleanly on SIGTERM"
EOF
}

check_install() {
  [ $# -gt 0 ] || fail "install: name the .deb files to install"
  local deb version
  fresh_root
  mkdir -p "$work/tmp/debs"
  for deb in "$@"; do
    [ -f "$deb" ] || fail "no such package file: $deb"
    cp "$deb" "$work/tmp/debs/"
  done
  version=$(dpkg-deb -f "$1" Version)
  say "fresh root $work: apt-get install $(cd "$work/tmp/debs" && echo ./*.deb)"
  in_root sh -c 'apt-get update -qq && cd /tmp/debs && DEBIAN_FRONTEND=noninteractive \
      apt-get install -y -qq --no-install-recommends ./*.deb' >"$work.install.log" 2>&1 ||
    { tail -n 30 "$work.install.log" >&2; fail "the .deb files do not install on a fresh Debian 12 root"; }
  installed_checks >"$work/tmp/checks.sh"
  in_root env QS_VERSION="$version" sh /tmp/checks.sh ||
    fail "the installed packages do not work (see the lines above)"
  if [ -n "${QUEUESCOPE_INSTALLED_SCREENSHOT:-}" ]; then
    cp "$work/tmp/installed.png" "$QUEUESCOPE_INSTALLED_SCREENSHOT"
    say "screenshot of the installed console: $QUEUESCOPE_INSTALLED_SCREENSHOT"
  fi
  rm -f "$work.install.log"
}

[ "$(id -u)" -eq 0 ] || fail "needs root (chroot and mount); run it with sudo"
cmd=${1:-}
[ $# -gt 0 ] && shift
case "$cmd" in
  base) build_base; echo "$base_dir" ;;
  setup) check_setup ;;
  install) check_install "$@" ;;
  *) echo "usage: bash packaging/clean_root.sh {setup|install DEB...|base}" >&2; exit 2 ;;
esac
