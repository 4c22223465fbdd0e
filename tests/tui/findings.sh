#!/bin/bash
# The findings view and the header's marker, in a replay of the sample
# whose watermark_boost_factor was 0 from +3 s to +32.6 s under the
# adverse workload: stepping from +15 s over its burst at +17 s (1008
# fragmenting fallbacks) makes boost_off fire over the window, the
# header says "! N findings" on the overview, and
# ! opens the view with the finding, its evidence, action and runbook
# section, and what was checked.  Past +40 s (the boost back, a seek that
# starts the window again) boost_off is gone.  Its own XDG_CONFIG_HOME
# (tests/run.sh), so no fragtoprc changes the first view.
# usage: findings.sh FRAGTOP_BINARY
set -u
. "$(dirname "$0")/../lib.sh"
FT=$(realpath "${1:-./fragtop}")
S=$(realpath tests/recordings/thpfioscale-boost-0-to-15000.ftr)
command -v tmux > /dev/null || { echo "FAIL tmux not installed"; exit 1; }
TMPD=$(mktemp -d)
SOCK=fragtop-findings-$$
T() { tmux -S "$TMPD/$SOCK" "$@"; }
trap 'end_tmux; rm -rf "$TMPD"' EXIT
fresh_config

T new-session -d -s ft -x 120 -y 45 "$FT replay $(printf '%q' "$S"); sleep 30"
check "replay starts" wait_for 'REPLAY \['
T send-keys -t ft ' '
check "paused" wait_for PAUSED
replay_seek 15
check "at +15 s" wait_for 'at 15\.[0-9] s'
for i in 1 2 3 4; do T send-keys -t ft .; done
check "the header says a finding fires, on the overview" wait_for '^src: .*! [0-9]+ findings?'
T send-keys -t ft '!'
check "! opens the findings view" wait_for '^[0-9]+ findings? over [0-9]+-[0-9]+ s \(the last 60 s\)'
check "... boost_off, as a warning with its title" \
	wait_for '^WARNING boost_off: fragmenting fallbacks with the watermark boost off'
check "... what raised it" wait_for 'fragmenting fallbacks \([0-9.]+ a second\) with watermark_boost_factor 0'
check "... the action with its knob and value" wait_for 'action +set watermark_boost_factor back.*watermark_boost_factor=15000'
check "... and its runbook section" wait_for 'runbook +docs/runbook\.md#boost_off'
T send-keys -t ft G
check "... G: the end, what was checked" wait_for '^  checked +.*boost_off'
check "the tab bar has the view, its key !" wait_for '! findings'
replay_seek 60
for i in 1 2 3; do T send-keys -t ft .; done
check "past the boost's return: boost_off is gone" wait_for '^  checked +.*boost_off'
screen | grep -q '^WARNING boost_off' && bad "... no boost_off finding at +60 s" || ok "... no boost_off finding at +60 s"
[ $fails = 0 ]
