#!/bin/bash
# No input crashes the TUI or passes a paste off as keys (in replay of the
# sample, TERM=xterm-256color, 120x40):
# - the SGR mouse report of 35 numbers that crashed libncursesw 6.4
#   ("stack smashing detected", exit 134, --restore-on-exit skipped) is
#   dropped, and a click still works after it;
# - a bracketed paste is not keys (a pasted "2" opens no view) but is
#   typed into an open prompt;
# - 10,000 random byte sequences (escape sequences, mouse reports whole,
#   cut and oversized, bytes of every kind but those that quit, signal or
#   stop the terminal's output) leave it
#   running; then q ends it with exit 0 and the terminal as it was: no
#   alternate screen, no mouse reporting;
# - ^Z in a shell with job control: the shell's terminal without
#   fragtop's modes, and fg sets them again.
# usage: input.sh FRAGTOP_BINARY
set -u
. "$(dirname "$0")/../lib.sh"
FT=$(realpath "${1:-./fragtop}")
S=$(realpath tests/recordings/adverse-6.18.ftr)
command -v tmux > /dev/null || skip_all "input: needs tmux"
command -v perl > /dev/null || skip_all "input: needs perl"
TMPD=$(mktemp -d)
SOCK=
trap '[ -n "$SOCK" ] && end_tmux; rm -rf "$TMPD"' EXIT
cd "$TMPD" || exit 1
tmux_start input 120 40 sh -c "TERM=xterm-256color \"\$0\" --no-config replay \"\$1\" 2> err; echo \$? > rc" "$FT" "$S"
wait_for 'REPLAY \[' > /dev/null
T send-keys -t ft ' '
wait_for PAUSED > /dev/null
running() { [ ! -s rc ]; }
flags() { T display -p -t ft '#{alternate_on} #{mouse_standard_flag}#{mouse_button_flag}#{mouse_any_flag} #{mouse_sgr_flag}'; }
check "the TUI sets xterm's mouse modes: SGR reports (alternate, mouse, sgr: $(flags))" test "$(flags)" = "1 101 1"

T send-keys -t ft -l $'\e[<'"$(printf '0;%.0s' $(seq 35))M"
T send-keys -t ft 7
check "the 35-number mouse report: still running, and keys still work" wait_for 'PID S COMMAND'
check "... no process exit (rc file: '$(cat rc 2> /dev/null)')" running
x=$(screen | sed -n 3p | awk '{ print index($0, "1 overview") }')
T send-keys -t ft -l $'\e'"[<0;$((x + 1));3M"$'\e'"[<0;$((x + 1));3m"
check "... and a click on the overview tab opens it" wait_for '^ *N0 '

# control strings and a CSI with a control byte inside: every byte swallowed, none a key (q would quit)
for seq in $'\e]0;qqq\a' $'\eP''qq'$'\e\\' $'\e_q\e\\' $'\e[1\nq'; do
	T send-keys -t ft -l "$seq"
done
T send-keys -t ft F3
check "OSC, DCS, APC and ESC [ 1 LF q: swallowed, no q quit" wait_for 'F3 search: not in the overview view'
check "... still running (rc file: '$(cat rc 2> /dev/null)')" running

# a bracketed paste: as tmux pastes when the application asked for it (paste-buffer -p)
T set-buffer -b p 2
T paste-buffer -p -b p -t ft
T send-keys -t ft F3	# a key after the paste: it says which view it was pressed in
check "a pasted '2' is not a key: the overview stays" wait_for 'F3 search: not in the overview view'
T send-keys -t ft 7
wait_for 'PID S COMMAND' > /dev/null
T send-keys -t ft F4
wait_for 'filter by command' > /dev/null
T set-buffer -b p 'thp'
T paste-buffer -p -b p -t ft
check "a paste into an open prompt is typed there" wait_for 'filter by command.*: thp$'
T send-keys -t ft Escape

# a paste whose end never comes: Escape ends it, and keys are keys again
T send-keys -t ft -l $'\e[200~2222'
T send-keys -t ft Escape
T send-keys -t ft 7
check "a paste left open: Escape ends it, and 7 opens the processes" wait_for 'PID S COMMAND'

# 10,000 random sequences, 100 to a send-keys (as hex bytes)
perl -e '
	srand(42);
	my @esc = ("\e[<", "\e[", "\eO", "\e[M", "\e[200~", "\e[201~", "\e");
	# not q Q, ^C ^Z ^\ (signals) nor ^S ^Q (flow control: ^S stops the output)
	my @any = map { chr } grep { $_ != ord("q") && $_ != ord("Q") && $_ != 3 && $_ != 26 && $_ != 28 &&
				     $_ != 17 && $_ != 19 } 0 .. 255;
	my @num = ("0" .. "9", ";", ";", "M", "m", "~");
	for my $batch (1 .. 100) {
		my $s = "";
		for (1 .. 100) {
			my $k = rand();
			my $q;
			if ($k < 0.4) {		# a mouse report: whole, cut or oversized
				$q = "\e[<" . join(";", map { int(rand(10 ** int(rand(6)))) } 1 .. 1 + int(rand(rand() < 0.1 ? 60 : 4)));
				$q .= rand() < 0.8 ? (rand() < 0.5 ? "M" : "m") : "";
			} elsif ($k < 0.7) {	# an escape and digits, separators, finals
				$q = $esc[rand @esc] . join("", map { $num[rand @num] } 1 .. int(rand(12)));
			} else {		# any bytes
				$q = join("", map { $any[rand @any] } 1 .. 1 + int(rand(8)));
			}
			$q =~ s/21~/2~/g;	# F10 quits
			$s .= $q;
		}
		print join(" ", map { sprintf "%02x", ord } split //, $s), "\n";
	}' > fuzz.hex
sent=0
while read -r line; do
	# shellcheck disable=SC2086
	T send-keys -t ft -H $line || break
	sent=$((sent + 1))
	running || break
done < fuzz.hex
T send-keys -t ft Escape Escape Escape
check "10,000 random sequences sent ($sent batches of 100): still running (rc file: '$(cat rc 2> /dev/null)')" \
	sh -c "[ $sent = 100 ] && [ ! -s rc ]"
# a paste the fuzz left open ends at Escape (or when the input pauses); the TUI takes keys
T send-keys -t ft 1
check "... and it still takes keys (1: the overview)" wait_for '^ *N0 '
# q again only while the TUI still has its screen: once it has let the
# terminal go, ASan's exit (the leak check) may take a while under load
quitting_() { [ -s rc ] || [ "$(flags)" = "0 000 0" ]; }
for i in 1 2 3; do
	T send-keys -t ft Escape
	T send-keys -t ft q
	until_ok 5 quitting_ && break
done
until_ok 60 test -s rc
check "q: exit 0 (rc $(cat rc 2> /dev/null))" test "$(cat rc 2> /dev/null)" = 0
check "... the terminal as it was: no alternate screen, no mouse reporting ($(flags))" test "$(flags)" = "0 000 0"
check "... nothing on stderr" test ! -s err

# ^Z: the shell gets its terminal back without fragtop's modes; fg sets them again
end_tmux
SOCK=input-$$-jobs
T new-session -d -s ft -x 120 -y 40 "bash --norc --noprofile -i"
until_ok 10 sh -c "tmux -S '$TMPD/$SOCK' capture-pane -p -t ft | grep -q '[#$] *$'"
T send-keys -t ft "TERM=xterm-256color $(printf '%q' "$FT") --no-config replay $(printf '%q' "$S")" Enter
wait_for 'REPLAY \[' > /dev/null
T send-keys -t ft C-z
stopped_() { [ "$(flags)" = "0 000 0" ] && screen | grep -q 'Stopped'; }
check "^Z: stopped, and the shell's terminal has no alternate screen nor mouse reporting" until_ok 10 stopped_
T send-keys -t ft fg Enter
check "fg: fragtop draws again" wait_for 'REPLAY \['
check "... with SGR mouse reporting ($(flags))" test "$(flags)" = "1 101 1"
T send-keys -t ft q
done_() { [ "$(flags)" = "0 000 0" ]; }
check "... and q leaves the terminal as it was" until_ok 10 done_
echo "input.sh: $fails failure(s)"
[ $fails -eq 0 ]
