# Shell helpers shared by k6/run and k6/capacity.sh (source it; ROOT = the repository root).

k6_log() { printf '\033[1m[k6]\033[0m %s\n' "$*" >&2; }

# Sets K6 to a k6 binary: $K6 when set, k6 on the PATH, Go's bin directory, or what ./pipeline builds.
find_k6() {
  if [ -n "${K6:-}" ] && [ -x "$K6" ]; then return; fi
  if command -v k6 >/dev/null 2>&1; then K6=$(command -v k6); return; fi
  local gobin
  gobin=$( (command -v go >/dev/null 2>&1 && go env GOPATH) || echo "$HOME/go")/bin
  if [ -x "$gobin/k6" ]; then K6=$gobin/k6; return; fi
  [ -x "$HOME/go/bin/k6" ] && { K6=$HOME/go/bin/k6; return; }
  eval "$("$ROOT/pipeline" env)"
}

# One line about the machine, for the reports.
machine_description() {
  local cpu mem
  cpu=$(awk -F': ' '/^model name/ {print $2; exit}' /proc/cpuinfo 2>/dev/null || true)
  mem=$(awk '/^MemTotal/ {printf "%.0f GB RAM", $2 / 1048576}' /proc/meminfo 2>/dev/null || true)
  echo "$(nproc 2>/dev/null || echo '?') CPUs${cpu:+ ($cpu)}${mem:+, $mem}, $(uname -sr), k6 $("$K6" version 2>/dev/null | awk '{print $2; exit}')"
}

# run_k6 DIR SCRIPT [k6 args...]: one k6 run writing its summary, Markdown report, HTML dashboard and log into
# DIR. Returns k6's exit code (99 = thresholds failed). k6 shares the cores with what it measures, so its Go
# collector runs less often (GOGC 400: 13 % less k6 CPU per request in the seed shape for ~400 MB more memory,
# docs/benchmarks/raw/experiments/k6-gogc.md); set GOGC to override. K6_WEB_DASHBOARD=false skips the HTML
# dashboard (it measured no cheaper: docs/benchmarks/raw/experiments/k6-floor-knobs.md).
run_k6() {
  local dir=$1 script=$2 rc
  shift 2
  mkdir -p "$dir"
  if REPORT_DIR=$dir K6_NO_USAGE_REPORT=true GOGC=${GOGC:-400} \
    K6_WEB_DASHBOARD=${K6_WEB_DASHBOARD:-true} K6_WEB_DASHBOARD_PORT=-1 K6_WEB_DASHBOARD_EXPORT="$dir/dashboard.html" \
    K6_WEB_DASHBOARD_PERIOD=${K6_WEB_DASHBOARD_PERIOD:-$([ "${SMOKE:-}" = 1 ] && echo 1s || echo 2s)} \
    "$K6" run --quiet "$@" "$script" 2>&1 | tee "$dir/k6.log"; then rc=0; else rc=${PIPESTATUS[0]}; fi
  return "$rc"
}
