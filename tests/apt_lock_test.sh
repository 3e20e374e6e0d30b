#!/usr/bin/env bash
# scripts/apt-lock.sh: apt_get waits while another apt holds the lock, then runs; it gives up
# after UMAX_APT_WAIT seconds; a failure that is not about the lock ends at once.
# A stand-in apt-get (UMAX_APT_GET) fails with apt's own lock message while a marker file exists,
# as apt-get does while another apt or dpkg holds /var/lib/dpkg/lock-frontend; the real lock is
# not touched (other programs on the machine may be using apt).
#   tests/apt_lock_test.sh SCRIPTS_DIR
set -uo pipefail
scripts=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0
fail() {
  echo "FAIL: $*" >&2
  failures=$((failures + 1))
}

cat >"$work/apt-get" <<EOF
#!/usr/bin/env bash
echo "\$*" >>"$work/calls"
if [[ -e "$work/held" ]]; then
  echo "E: Could not get lock /var/lib/dpkg/lock-frontend. It is held by process 4242 (apt-get)" >&2
  echo "E: Unable to acquire the dpkg frontend lock (/var/lib/dpkg/lock-frontend), is another process using it?" >&2
  exit 100
fi
if [[ -e "$work/broken" ]]; then
  echo "E: Unable to locate package no-such-package" >&2
  exit 100
fi
echo "installed"
EOF
chmod +x "$work/apt-get"
export UMAX_APT_GET=$work/apt-get UMAX_APT_RETRY=1
# shellcheck source=../scripts/apt-lock.sh
source "$scripts/apt-lock.sh"

# 1. Held for about 3 s: apt_get waits, says so, then runs and succeeds.
touch "$work/held"
(sleep 3 && rm -f "$work/held") &
start=$(date +%s)
out=$(UMAX_APT_WAIT=60 apt_get install -y foo 2>"$work/err1")
status=$?
took=$(($(date +%s) - start))
wait
[[ $status -eq 0 && $out == installed ]] || fail "apt_get did not succeed once the lock was free (status $status, out '$out')"
((took >= 2)) || fail "apt_get did not wait for the lock (${took} s)"
grep -q "another apt or dpkg holds the lock (above); waiting 1 s" "$work/err1" ||
  fail "apt_get did not say what it waits for: $(cat "$work/err1")"
grep -q -- "-o DPkg::Lock::Timeout=1 install -y foo" "$work/calls" ||
  fail "apt-get was not asked to wait for dpkg's lock itself: $(cat "$work/calls")"
tries=$(wc -l <"$work/calls")
((tries >= 2)) || fail "apt-get was run $tries times (expected a retry)"

# 2. Held for longer than UMAX_APT_WAIT: apt_get gives up with apt's status and says so.
touch "$work/held"
rm -f "$work/calls"
UMAX_APT_WAIT=2 apt_get update 2>"$work/err2" >/dev/null
status=$?
[[ $status -eq 100 ]] || fail "apt_get did not give up with apt's status (status $status)"
grep -q "still holds the lock after 2 s; giving up" "$work/err2" || fail "no give-up message: $(cat "$work/err2")"
rm -f "$work/held"

# 3. Another failure (an unknown package): no waiting, apt's message and status at once.
touch "$work/broken"
rm -f "$work/calls"
UMAX_APT_WAIT=60 apt_get install no-such-package 2>"$work/err3" >/dev/null
status=$?
[[ $status -eq 100 ]] || fail "a failure other than the lock did not end with apt's status ($status)"
[[ $(wc -l <"$work/calls") -eq 1 ]] || fail "a failure other than the lock was retried"
grep -q "Unable to locate package" "$work/err3" || fail "apt's own message was not passed on"
grep -q "waiting" "$work/err3" && fail "apt_get waited on a failure that is not about the lock"

if ((failures)); then
  echo "apt_lock_test: $failures failed" >&2
  exit 1
fi
echo "apt_lock_test: apt_get waited for a held lock, gave up after its limit, and passed other failures on"
