#!/usr/bin/env bash
# Runs the libFuzzer targets of fuzz/ (built by the `fuzz` preset into build-fuzz/).
#   fuzz/run.sh ci [SECONDS]       replay every committed corpus file, then fuzz each
#                                  target SECONDS (default 45) from a scratch copy of it
#   fuzz/run.sh long TARGET SECONDS  fuzz one target for SECONDS into a scratch corpus
#                                  and merge what is new into fuzz/corpus/TARGET (-merge=1)
# A finding stops the run with libFuzzer's report; the input is saved as
# build-fuzz/artifacts/<target>/crash-* (or timeout-*, leak-*), to be turned
# into a regression test in tests/test_bad_input.cpp.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=build-fuzz/bin

options() {  # per-target libFuzzer options
  case "$1" in
    fuzz_fen) echo "-dict=fuzz/fen.dict -max_len=512 -timeout=10" ;;
    # Each entered move clears the 16M-entry table's locks, as the original
    # does: inputs stay short so that an input costs well under a second.
    fuzz_classic) echo "-max_len=256 -timeout=60 -rss_limit_mb=4096" ;;
    fuzz_trace) echo "-max_len=65536 -timeout=30" ;;
    # The first call records the sound trace (a 200 MB hash table): a larger RSS limit.
    fuzz_seek) echo "-max_len=65536 -timeout=30 -rss_limit_mb=4096" ;;
    # Each new game clears the 200 MB table and each move its locks: short inputs.
    fuzz_protocol) echo "-dict=fuzz/protocol.dict -max_len=512 -timeout=60 -rss_limit_mb=4096" ;;
    # Three engines of ~200 MB each; an input is a short game of at most
    # eight thinks, so a few dozen bytes say all it can say.
    fuzz_equivalence) echo "-max_len=128 -timeout=60 -rss_limit_mb=4096" ;;
  esac
}

mode=${1:-ci}
case "$mode" in
  ci)
    seconds=${2:-45}
    for target in fuzz_fen fuzz_classic fuzz_trace fuzz_seek fuzz_protocol fuzz_equivalence; do
      mkdir -p "build-fuzz/artifacts/$target"
      files=(fuzz/corpus/$target/*)
      echo "fuzz: $target: replaying ${#files[@]} corpus files"
      # shellcheck disable=SC2046
      "$bin/$target" $(options $target) -artifact_prefix="build-fuzz/artifacts/$target/" "${files[@]}" \
        > "build-fuzz/artifacts/$target/replay.log" 2>&1 ||
        { tail -50 "build-fuzz/artifacts/$target/replay.log"; exit 1; }
      scratch=$(mktemp -d)
      cp fuzz/corpus/$target/* "$scratch/"
      echo "fuzz: $target: fuzzing for $seconds s"
      # shellcheck disable=SC2046
      "$bin/$target" $(options $target) -artifact_prefix="build-fuzz/artifacts/$target/" \
        -max_total_time="$seconds" -print_final_stats=1 "$scratch" \
        > "build-fuzz/artifacts/$target/fuzz.log" 2>&1 ||
        { tail -50 "build-fuzz/artifacts/$target/fuzz.log"; rm -rf "$scratch"; exit 1; }
      grep -E "^stat::(number_of_executed_units|average_exec_per_sec)" "build-fuzz/artifacts/$target/fuzz.log" |
        sed "s/^/fuzz: $target: /"
      rm -rf "$scratch"
    done
    ;;
  long)
    target=$2
    seconds=$3
    mkdir -p "build-fuzz/artifacts/$target" "build-fuzz/corpus/$target" "fuzz/corpus/$target"
    # shellcheck disable=SC2046
    "$bin/$target" $(options $target) -artifact_prefix="build-fuzz/artifacts/$target/" \
      -max_total_time="$seconds" -print_final_stats=1 "build-fuzz/corpus/$target" "fuzz/corpus/$target"
    # shellcheck disable=SC2046
    "$bin/$target" $(options $target) -merge=1 "fuzz/corpus/$target" "build-fuzz/corpus/$target"
    ;;
  *)
    echo "usage: fuzz/run.sh ci [SECONDS] | long TARGET SECONDS" >&2
    exit 2
    ;;
esac
