#!/usr/bin/env bash
# Queuescope developer entry point: installs what is missing (Debian 12), configures,
# builds, and either runs the app, runs every test, or builds the .deb packages.
#
#   bash packaging/dev.sh run [app args...]   build and start the console (embedded broker)
#   bash packaging/dev.sh test [stage...]     build and run every test stage (docs/testing.md):
#                                             release, setup, install, asan, tsan (default: all)
#   bash packaging/dev.sh package             build the .deb packages into build/packages/
#   bash packaging/dev.sh deps                only install the Debian packages
#   bash packaging/dev.sh packages            print that package list, one name a line
#
# The Debian packages are listed once, in packaging/debian-packages.txt. Build trees:
# build/app, build/package, build/ci-{release,asan,tsan} (tests). The release stage is
# built with -Werror; the sanitizer stages are not, because GCC's diagnostics change
# under instrumentation (false positives). Override the build job count with JOBS=N
# and the number of suites ctest runs at once with TEST_JOBS=N (docs/testing.md).
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$here"
jobs=${JOBS:-$(nproc)}
# Most suites spend their time in timed waits (long polls, visibility timers), so
# ctest runs twice as many suites as there are cores.
test_jobs=${TEST_JOBS:-$((jobs * 2))}
# 1: stage 2 also builds the console and runs the eight GUI suites under ASan+UBSan.
# LeakSanitizer suppressions for Qt's and fontconfig's own allocations go in
# tests/lsan.supp (used when present).
asan_gui=${QUEUESCOPE_ASAN_GUI:-0}

packages=()
while read -r line; do
  line=${line%%#*}
  for p in $line; do packages+=("$p"); done
done <"$here/packaging/debian-packages.txt"

as_root() {
  if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi
}

install_deps() {
  local missing=()
  for p in "${packages[@]}"; do
    # nodejs/npm may come from elsewhere; a working binary is enough.
    if [ "$p" = nodejs ] && command -v node >/dev/null 2>&1; then continue; fi
    if [ "$p" = npm ] && command -v npm >/dev/null 2>&1; then continue; fi
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
  done
  if [ ${#missing[@]} -gt 0 ]; then
    echo "==> installing Debian packages: ${missing[*]}"
    as_root apt-get update -qq
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}"
  fi
}

# Every build is a unity build of the libraries (QUEUESCOPE_UNITY: their
# sources compile in batches that parse gRPC's, protobuf's and Qt's headers
# once) and goes through ccache, which the package list installs: a second
# build of the same sources on this machine reuses the first's objects.
# CCACHE_DISABLE=1 turns ccache off; a launcher set in the environment
# (CMAKE_CXX_COMPILER_LAUNCHER) is kept.
configure() {  # configure <build dir> <cmake args...>
  local dir=$1; shift
  local launcher=()
  if [ -z "${CMAKE_CXX_COMPILER_LAUNCHER:-}" ] && command -v ccache >/dev/null 2>&1; then
    launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
  fi
  cmake -S "$here" -B "$dir" -G Ninja -DQUEUESCOPE_UNITY=ON "${launcher[@]}" "$@" \
    >"$dir.configure.log" 2>&1 || { cat "$dir.configure.log"; return 1; }
}

# Suites that failed and then passed on their one retry, as "stage: suite" lines;
# printed at the end of the test command and appended to build/retried-suites.log,
# so a flaky suite is seen rather than hidden.
retried=()
run_tests() {  # run_tests <stage> <build dir> <ctest -j> <ctest args...>
  local stage=$1 dir=$2 parallel=$3; shift 3
  if (cd "$dir" && ctest --output-on-failure -j "$parallel" "$@"); then
    return 0
  fi
  local failed
  failed=$(cut -d: -f2 "$dir/Testing/Temporary/LastTestsFailed.log" | tr '\n' ' ')
  echo "==> $stage: retrying once what failed: $failed"
  (cd "$dir" && ctest --output-on-failure --rerun-failed "$@") || return 1
  local t
  for t in $failed; do retried+=("$stage: $t"); done
}
report_retries() {
  local log=$here/build/retried-suites.log
  local when
  when="$(date -u +%FT%TZ) $(git -C "$here" rev-parse --short HEAD 2>/dev/null || echo '?')"
  if [ ${#retried[@]} -eq 0 ]; then
    echo "==> suites that passed only on their retry: none"
    echo "$when stages=${stages[*]}: none" >>"$log"
  else
    echo "==> suites that passed only on their retry (flaky: fix them):"
    printf '    %s\n' "${retried[@]}"
    echo "$when stages=${stages[*]}: ${retried[*]}" >>"$log"
  fi
}

# Stage builds run in the background at the lowest CPU priority while the previous
# stage's suites run (they mostly wait on timers, leaving the cores idle).
bg_pid=
bg_log=
build_in_background() {  # build_in_background <build dir> <cmake --build args...>
  local dir=$1; shift
  bg_log=$dir.build.log
  echo "    (building $dir in the background, log $bg_log)"
  # setsid: the build gets its own process group, so a failed stage can stop it.
  setsid nice -n 19 cmake --build "$dir" -j "$jobs" "$@" >"$bg_log" 2>&1 &
  bg_pid=$!
}
wait_for_background() {
  local pid=$bg_pid
  bg_pid=
  if ! wait "$pid"; then
    tail -n 60 "$bg_log"
    echo "==> background build failed (full log: $bg_log)" >&2
    return 1
  fi
}
stop_background() {
  if [ -n "$bg_pid" ]; then kill -- "-$bg_pid" 2>/dev/null || true; fi
  if [ -n "$setup_pid" ]; then kill -- "-$setup_pid" 2>/dev/null || true; fi
}

stamp() { date +%s; }
timings=()
note_time() {  # note_time <label> <start>
  timings+=("$(printf '%-34s %5d s' "$1" $(( $(stamp) - $2 )))")
}
finish_test_run() {  # EXIT trap of `test`: stop a background build, show what happened
  stop_background
  report_retries
  if [ ${#timings[@]} -gt 0 ]; then
    echo "==> phase times:"
    printf '    %s\n' "${timings[@]}"
  fi
}

configure_release() {
  # No PCH here: with it, GCC 12 at -O2 reports false -Warray-bounds errors inside
  # std::string's inlined copies (docs/testing.md), and this stage is -Werror.
  configure build/ci-release -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_FLAGS_RELEASE="-O2 -DNDEBUG" \
    -DQUEUESCOPE_WERROR=ON -DQUEUESCOPE_PCH=OFF
}
configure_asan() {
  local gui=OFF
  [ "$asan_gui" = 1 ] && gui=ON
  configure build/ci-asan -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_FLAGS_DEBUG="-O1 -g1" \
    -DQUEUESCOPE_ASAN=ON -DQUEUESCOPE_BUILD_GUI=$gui -DQUEUESCOPE_BUILD_BENCHMARKS=OFF \
    -DQUEUESCOPE_PCH=ON
}
configure_tsan() {
  configure build/ci-tsan -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_FLAGS_DEBUG="-O1 -g1" \
    -DQUEUESCOPE_TSAN=ON -DQUEUESCOPE_BUILD_GUI=OFF -DQUEUESCOPE_BUILD_BENCHMARKS=OFF \
    -DQUEUESCOPE_PCH=ON
}
# Stage 3 builds only what its suites need: every suite labelled `threading`
# (a fuzz target's bounded run, NAME_bounded, is the executable NAME).
tsan_targets() {
  (cd build/ci-tsan && ctest -N -L threading | awk '/Test +#/ {sub(/_bounded$/, "", $3); print $3}')
}
run_asan_tests() {
  local lsan=
  [ -f "$here/tests/lsan.supp" ] && lsan=":suppressions=$here/tests/lsan.supp"
  ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 LSAN_OPTIONS="print_suppressions=0$lsan" \
    UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
    run_tests asan build/ci-asan "$test_jobs" "$@"
}
run_tsan_tests() {
  # Instrumented suites are CPU-bound: one per core.
  TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1 suppressions=$here/tests/tsan.supp" \
    run_tests tsan build/ci-tsan "$jobs" -L threading "$@"
}

configure_package() {
  configure build/package -DCMAKE_BUILD_TYPE=Release -DQUEUESCOPE_BUILD_TESTS=OFF \
    -DQUEUESCOPE_BUILD_BENCHMARKS=OFF
}
make_packages() {  # make_packages <build dir> <output dir>: the .deb files, listed
  local dir=$1 out=$2
  rm -rf "$out"
  mkdir -p "$out"
  (cd "$dir" && cpack -G DEB -B "$here/$out" >"$here/$out.cpack.log" 2>&1) || {
    tail -n 40 "$out.cpack.log"; echo "==> cpack failed (log: $out.cpack.log)" >&2; return 1; }
  rm -rf "$out/_CPack_Packages"
  ls "$out"/*.deb
}
show_packages() {  # show_packages <output dir>: name, version and Depends of each .deb
  local deb
  for deb in "$1"/*.deb; do
    echo "    $(basename "$deb"): Depends: $(dpkg-deb -f "$deb" Depends)"
  done
}

stage_release() {
  echo "==> [release] release build, all tests (-Werror), the .deb packages"
  t=$(stamp); configure_release; cmake --build build/ci-release -j "$jobs"
  note_time "release build" "$t"
  if want asan; then configure_asan; build_in_background build/ci-asan; fi
  t=$(stamp); run_tests release build/ci-release "$test_jobs"; note_time "release tests" "$t"
  t=$(stamp); make_packages build/ci-release build/ci-release/packages >/dev/null
  show_packages build/ci-release/packages; note_time "release packages (cpack)" "$t"
}
# The setup check installs every package into a fresh root: mostly unpacking,
# little CPU, so it runs beside the release build and is waited for in its turn.
setup_pid=
setup_log=
setup_start=
start_setup_in_background() {
  setup_log=$here/build/ci-setup.log
  setup_start=$(stamp)
  echo "    (checking the setup in a fresh Debian 12 root in the background, log $setup_log)"
  local runner=()
  [ "$(id -u)" -eq 0 ] || runner=(sudo)
  setsid "${runner[@]}" bash "$here/packaging/clean_root.sh" setup >"$setup_log" 2>&1 &
  setup_pid=$!
}
stage_setup() {
  echo "==> [setup] a fresh minimal Debian 12 root: dev.sh deps, then configure everything"
  if [ -z "$setup_pid" ]; then start_setup_in_background; fi
  local pid=$setup_pid status=0
  setup_pid=
  wait "$pid" || status=$?
  cat "$setup_log"
  note_time "clean-root setup check (background)" "$setup_start"
  return "$status"
}
stage_install() {
  echo "==> [install] the .deb packages installed into a fresh minimal Debian 12 root"
  local debs=build/ci-release/packages
  if ! want release; then
    t=$(stamp); configure_package; cmake --build build/package -j "$jobs"
    debs=build/packages; make_packages build/package "$debs" >/dev/null
    note_time "package build" "$t"
  fi
  t=$(stamp)
  as_root env QUEUESCOPE_INSTALLED_SCREENSHOT="$here/build/installed-console.png" \
    bash "$here/packaging/clean_root.sh" install "$debs"/*.deb
  note_time "clean-root install check" "$t"
}
stage_asan() {
  echo "==> [asan] AddressSanitizer + UndefinedBehaviorSanitizer build, suites$(
    [ "$asan_gui" = 1 ] && echo ' incl. GUI' || echo ' without GUI')"
  t=$(stamp)
  if [ -n "$bg_pid" ]; then
    wait_for_background; note_time "asan build (rest, foreground)" "$t"
  else
    configure_asan; cmake --build build/ci-asan -j "$jobs"; note_time "asan build" "$t"
  fi
  if want tsan; then configure_tsan; build_in_background build/ci-tsan --target $(tsan_targets); fi
  t=$(stamp); run_asan_tests; note_time "asan tests" "$t"
}
stage_tsan() {
  echo "==> [tsan] ThreadSanitizer build, threading suites"
  t=$(stamp)
  if [ -n "$bg_pid" ]; then
    wait_for_background; note_time "tsan build (rest, foreground)" "$t"
  else
    configure_tsan; cmake --build build/ci-tsan -j "$jobs" --target $(tsan_targets)
    note_time "tsan build" "$t"
  fi
  t=$(stamp); run_tsan_tests; note_time "tsan tests" "$t"
}

all_stages=(release setup install asan tsan)
cmd=${1:-run}
[ $# -gt 0 ] && shift
case "$cmd" in
  deps)
    install_deps
    ;;
  packages)
    printf '%s\n' "${packages[@]}"
    ;;
  run)
    install_deps
    mkdir -p build
    configure build/app -DCMAKE_BUILD_TYPE=RelWithDebInfo -DQUEUESCOPE_BUILD_TESTS=OFF \
      -DQUEUESCOPE_BUILD_BENCHMARKS=OFF
    cmake --build build/app -j "$jobs"
    if [ -x build/app/app/queuescope/queuescope ]; then
      exec build/app/app/queuescope/queuescope "$@"
    else
      exec build/app/app/broker/queuescope-broker "$@"
    fi
    ;;
  package)
    install_deps
    mkdir -p build
    configure_package
    cmake --build build/package -j "$jobs"
    make_packages build/package build/packages
    show_packages build/packages
    ;;
  test)
    install_deps
    mkdir -p build
    start=$(stamp)
    stages=("$@")
    [ ${#stages[@]} -eq 0 ] && stages=("${all_stages[@]}")
    for s in "${stages[@]}"; do
      [[ " ${all_stages[*]} " == *" $s "* ]] ||
        { echo "unknown test stage: $s (${all_stages[*]})" >&2; exit 2; }
    done
    want() { [[ " ${stages[*]} " == *" $1 "* ]]; }
    trap finish_test_run EXIT
    if want setup && want release; then start_setup_in_background; fi
    # In this order, whatever order they were named in: install reuses release's
    # packages, asan/tsan build in the background while the stage before runs,
    # and the setup check runs beside the release stage.
    for s in "${all_stages[@]}"; do
      if want "$s"; then "stage_$s"; fi
    done
    echo "==> test stages (${stages[*]}) passed in $(( $(stamp) - start )) s"
    ;;
  *)
    echo "usage: bash packaging/dev.sh {run|test|package|deps|packages} [args...]" >&2
    exit 2
    ;;
esac
