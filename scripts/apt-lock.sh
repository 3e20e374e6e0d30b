# Sourced by scripts/install-deps.sh and scripts/web.sh: apt-get that waits while another apt
# or dpkg (an upgrade, another session's install) holds apt's locks, instead of failing at once.
#   apt_get ARGS...   # as apt-get ARGS..., with sudo when not root
# apt-get itself waits for dpkg's lock (-o DPkg::Lock::Timeout), but `apt-get update` fails at
# once on the lists' lock; so a run that fails on a lock ("Could not get lock", "Unable to
# acquire") is retried every UMAX_APT_RETRY seconds (10), for at most UMAX_APT_WAIT seconds in
# all (1800), saying what it waits for. Any other failure ends at once with apt's own message.
# UMAX_APT_GET names the apt-get to run (the suite's test of this file uses a stand-in).

apt_get() {
  local apt=${UMAX_APT_GET:-apt-get}
  local wait_limit=${UMAX_APT_WAIT:-1800}
  local retry=${UMAX_APT_RETRY:-10}
  local sudo=""
  if [[ $(id -u) -ne 0 && -z ${UMAX_APT_GET:-} ]]; then sudo="sudo"; fi
  local errors
  errors=$(mktemp)
  local waited=0 status
  while true; do
    status=0
    $sudo "$apt" -o DPkg::Lock::Timeout="$retry" "$@" 2>"$errors" || status=$?
    cat "$errors" >&2
    if ((status == 0)); then
      rm -f "$errors"
      return 0
    fi
    if ! grep -Eq "Could not get lock|Unable to acquire|is another process using it" "$errors"; then
      rm -f "$errors"
      return "$status"
    fi
    if ((waited >= wait_limit)); then
      echo "apt: another apt or dpkg still holds the lock after ${waited} s; giving up (run again when it is done)" >&2
      rm -f "$errors"
      return "$status"
    fi
    echo "apt: another apt or dpkg holds the lock (above); waiting ${retry} s (${waited} s so far, at most ${wait_limit})" >&2
    sleep "$retry"
    waited=$((waited + retry))
  done
}
