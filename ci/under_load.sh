#!/usr/bin/env bash
# The test suite on a busy machine, as a CI runner often is: one busy loop per core, then `python3 -m pytest`
# (any arguments are passed on), then the loops are stopped by their PIDs; exits with pytest's status.
# A manual check, not part of .ci/run (install first: python3 -m pip install -e '.[dev]').
set -uo pipefail
cd "$(dirname "$0")/.."
cores=$(nproc 2>/dev/null || getconf _NPROCESSORS_ONLN 2>/dev/null || echo 2)
loops=()
stop_loops() {
  for pid in "${loops[@]}"; do
    kill "$pid" 2>/dev/null
  done
  wait "${loops[@]}" 2>/dev/null
}
trap stop_loops EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
for _ in $(seq "$cores"); do
  ( while :; do :; done ) &
  loops+=("$!")
done
echo "under_load: ${#loops[@]} busy loop(s) (PIDs ${loops[*]}) on $cores core(s)" >&2
python3 -m pytest "$@"
status=$?
echo "under_load: pytest exited with $status" >&2
exit "$status"
