# Shared by the shell tests (sourced): result lines, a strict jq check, and
# the screen helpers of the terminal tests.  Each script counts its
# failures in $fails and ends with [ $fails -eq 0 ].
fails=0
# The TUI reads and writes fragtoprc under XDG_CONFIG_HOME: tests/run.sh
# gives each test a directory of its own; a test run by hand gets one
# here (left in /tmp), never the real ~/.config.
[ -n "${FT_TEST_NAME:-}" ] || XDG_CONFIG_HOME=$(mktemp -d -t fragtop-test-config.XXXXXX)
export XDG_CONFIG_HOME
# Before each start of the TUI in a test: no fragtoprc from the run before
# (the view it quit on would be the next run's first).
fresh_config() { rm -rf "${XDG_CONFIG_HOME:?}/fragtop"; }
ok()    { echo "ok   $*"; }
bad()   { echo "FAIL $*"; fails=$((fails + 1)); }
check() { local what=$1; shift; if "$@"; then ok "$what"; else bad "$what"; fi; }
# A part that cannot run here (no root, no tracefs, a chroot): said, and
# named in tests/run.sh's closing lines (it appends to $FT_SKIPS).
skip() {
	echo "skip $*"
	[ -z "${FT_SKIPS:-}" ] || printf '%s: %s\n' "${FT_TEST_NAME:-$(basename "$0")}" "$*" >> "$FT_SKIPS"
}
# The whole test cannot run here: exit 77, which tests/run.sh counts as skipped.
skip_all() { skip "$@"; exit 77; }
# jq 1.6 exits 0 on empty input even with -e: insist on a non-empty file
jqe()   { [ -s "${!#}" ] && jq -e "$@" > /dev/null; }

# Eight consecutive TCP ports on 127.0.0.1, below the ephemeral range
# (32768+: no outgoing connection holds them), that no other test of this
# run holds and nothing listens on: tests run side by side (tests/run.sh).
# Each block of eight is reserved by a directory under /tmp/fragtop-ports
# (mkdir is atomic) naming the test's shell; a block whose shell is gone is
# taken over.  Prints the first port: PORT=$(test_port)
test_port() {
	local d=/tmp/fragtop-ports b i owner
	mkdir -p "$d" 2> /dev/null
	for i in $(seq 64); do
		b=$(( 2500 + RANDOM % 1490 ))	# ports 20000-31919
		if ! mkdir "$d/$b" 2> /dev/null; then
			owner=$(cat "$d/$b/pid" 2> /dev/null)
			[ -n "$owner" ] && kill -0 "$owner" 2> /dev/null && continue
			rm -rf "$d/$b"
			mkdir "$d/$b" 2> /dev/null || continue
		fi
		echo $$ > "$d/$b/pid"
		if command -v ss > /dev/null &&
			[ -n "$(ss -ltnH "( sport >= :$((b * 8)) and sport <= :$((b * 8 + 7)) )" 2> /dev/null)" ]; then
			continue	# someone else's server: keep the block, try another
		fi
		echo $((b * 8))
		return 0
	done
	echo $(( 20000 + $$ % 10000 ))	# no reservation to be had: as before
}

# For until_ok: the shell's SECONDS has reached N (until_ok's arguments are
# expanded once, so `until_ok 10 test $SECONDS -ge N` would never change)
seconds_reach() { [ "$SECONDS" -ge "$1" ]; }

# Poll a command until it succeeds or SECS seconds have passed (the
# deadline of a condition, never a bare sleep): until SECS command...
until_ok() {
	local end=$((SECONDS + $1)); shift
	while ! "$@"; do
		[ $SECONDS -lt $end ] || return 1
		sleep 0.1
	done
}

# The host-changing workload: $WORKLOAD if set, else shared/tools/ beside the
# checkout when present, else the repository's copy in tests/load/.  The
# tests leave it WORKLOAD_MB of usable memory (its second argument): 1536,
# about 50 s a run here and thousands of fragmenting fallbacks; the seeds'
# size, 3072, ran twice as long for the same checks.
WORKLOAD_MB=${FT_WORKLOAD_MB:-1536}
workload() {
	local tests; tests=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
	WORKLOAD=${WORKLOAD:-$tests/../../shared/tools/thpfioscale-mini.sh}
	[ -r "$WORKLOAD" ] || WORKLOAD=$tests/load/thpfioscale-mini.sh
}

# Terminal tests define T (tmux on their private socket) and a session "ft".
# End that tmux server and every program it ran.  One that has not exited
# 10 s after the hang-up is killed, and said so: once on a freshly booted
# machine an ASan build's leak check spun at exit after its terminal went
# away, and a test must not leave a process eating a core.
end_tmux() {
	local pids p q i alive
	pids=$(T list-panes -a -F '#{pane_pid}' 2> /dev/null)
	for p in $pids; do
		for q in $(pgrep -P "$p"); do pids="$pids $q $(pgrep -P "$q" | tr '\n' ' ')"; done
	done
	T kill-server 2> /dev/null
	for i in $(seq 100); do
		alive=
		for p in $pids; do kill -0 "$p" 2> /dev/null && alive="$alive $p"; done
		[ -z "$alive" ] && return 0
		sleep 0.1
	done
	echo "note: killed what the terminal left running:$alive ($(ps -o comm= -p "${alive// /,}" 2> /dev/null | tr '\n' ' '))" >&2
	kill -9 $alive 2> /dev/null
	return 0
}
screen() { T capture-pane -p -t ft; }
# Prometheus for a test: prom_start DIR PORT [FLAGS...] runs it on
# 127.0.0.1:PORT with DIR/prometheus.yml, its data in DIR/data and its log
# in DIR/prometheus.log; prom_query EXPR asks it (the API's JSON);
# prom_stop ends it (also from the test's EXIT trap: a no-op when done).
prom_pid=
prom_port=
prom_start() {
	local dir=$1
	prom_port=$2
	shift 2
	prometheus --config.file="$dir/prometheus.yml" --storage.tsdb.path="$dir/data" \
		--web.listen-address="127.0.0.1:$prom_port" "$@" > "$dir/prometheus.log" 2>&1 &
	prom_pid=$!
}
prom_query() { curl -s --max-time 5 "http://127.0.0.1:$prom_port/api/v1/query" --data-urlencode "query=$1"; }
prom_stop() {
	[ -n "$prom_pid" ] && kill "$prom_pid" 2> /dev/null && wait "$prom_pid" 2> /dev/null
	prom_pid=
	return 0
}
# An exporter on 127.0.0.1:$PORT: scrape its /metrics into FILE; answering at all (for until_ok).
# (A test with its own meaning of either defines it after sourcing this file.)
scrape() { curl -s --max-time 10 "http://127.0.0.1:$PORT/metrics" > "$1"; }
up() { curl -s --max-time 2 -o /dev/null "http://127.0.0.1:$PORT/metrics"; }
# The exporter a test started in the background, its pid in $epid;
# stop_exporter ends it and reaps it (also from the test's EXIT trap: a
# no-op when none runs).
epid=
stop_exporter() {
	[ -n "$epid" ] && { kill "$epid" 2> /dev/null; wait "$epid" 2> /dev/null; }
	epid=
	return 0
}
# The terminal of a test that sets TMPD: tmux on the socket $TMPD/$SOCK
# (a test may define its own T after sourcing this file).
T() { tmux -S "$TMPD/$SOCK" "$@"; }
# tmux_start NAME COLS ROWS CMD...: end the test's previous terminal, if
# any, and run CMD (each word quoted) in a fresh one, socket NAME-PID-N,
# session "ft", with a fresh config; the pane stays 60 s after CMD exits
# so that its last screen can be read.  Callers trap end_tmux on EXIT.
tmux_start() {
	local name=$1 cols=$2 rows=$3 cmd="" a
	shift 3
	[ -n "${SOCK:-}" ] && end_tmux
	tmux_n=$((${tmux_n:-0} + 1))
	SOCK=$name-$$-$tmux_n
	for a in "$@"; do cmd+=" $(printf '%q' "$a")"; done
	fresh_config
	T new-session -d -s ft -x "$cols" -y "$rows" "$cmd; sleep 60"
}
# Wait until the screen matches a regex: WAIT_TENTHS tenths of a second (default 50).
wait_for() {
	local i
	for i in $(seq "${WAIT_TENTHS:-50}"); do
		screen | grep -qE -- "$1" && return 0
		sleep 0.1
	done
	echo "--- screen while waiting for /$1/:"; screen
	return 1
}
# Press KEY, wait for a prompt matching REGEX, type ANSWER and Enter.
answer_prompt() {
	T send-keys -t ft "$1"
	wait_for "$2" > /dev/null || return 1
	T send-keys -t ft "$3" Enter
}
# In replay: seek to ARG (seconds from the start, or N%).
replay_seek() { answer_prompt T 'seek to' "$1"; }
# Does recording FILE (possibly still being written) satisfy the jq
# expression EXPR over its report --json?  For until_ok: recorded F '.samples >= 5'
# (jq -e on no input at all exits 0: a report that failed must not pass)
recorded() {
	local out
	out=$("$FT" report --json "$1" 2> /dev/null) && [ -n "$out" ] && jq -e "$2" <<< "$out" > /dev/null 2>&1
}
# Wait until the screen no longer matches a regex (WAIT_TENTHS, default 50).
wait_gone() {
	local i
	for i in $(seq "${WAIT_TENTHS:-50}"); do
		screen | grep -qE -- "$1" || return 0
		sleep 0.1
	done
	echo "--- screen still showing /$1/:"; screen
	return 1
}

# A fixture tree's /proc/kpageflags (FILE) from PFN 0x100000 on: 8192
# pageblocks of movable pages (LRU | ANON), every 64th with one SLAB page
# first (a mixed block).  The file must already be that long (truncate).
kpf_movable_mixed() {
	perl -e '
		open(my $f, "+<", $ARGV[0]) or die "$ARGV[0]: $!";
		my $mov = pack("Q<", (1 << 5) | (1 << 12)) x 512;	# LRU | ANON
		my $mix = pack("Q<", 1 << 7) . pack("Q<", (1 << 5) | (1 << 12)) x 511;	# one SLAB page
		seek($f, 0x100000 * 8, 0);
		for my $b (0 .. 8191) { print $f ($b % 64 ? $mov : $mix); }
		close($f) or die;' "$1"
}

# DIR: a 1 TiB Normal zone (tests/tui/map-first.sh, tests/cli/record-map.sh):
# the idle 6.18 capture with its Normal zone spanning 2^28 pages and RAM to
# match; kpageflags sparse, its first 16 GiB of the zone written: movable
# pages with a slab page in every 64th block (kpf_movable_mixed).
# A CA and a server certificate for localhost and 127.0.0.1 in the current
# directory (ca.crt, server.key, server.crt; EC P-256, two days), the
# openssl output in openssl.log.  Exits the test, saying why, if openssl fails.
test_certs() {
	local ec="-newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes"
	{
		# shellcheck disable=SC2086
		openssl req -x509 $ec -keyout ca.key -out ca.crt -days 2 -subj /CN=fragtop-test-ca &&
		openssl req $ec -keyout server.key -out server.csr -subj /CN=localhost &&
		printf 'subjectAltName=DNS:localhost,IP:127.0.0.1\n' > server.ext &&
		openssl x509 -req -in server.csr -CA ca.crt -CAkey ca.key -CAcreateserial -out server.crt -days 2 \
			-extfile server.ext
	} > openssl.log 2>&1 || { cat openssl.log; echo "FAIL making the certificates"; exit 1; }
}

tib_tree() {	# TREE [TIB]: a Normal zone of TIB TiB (1), sparse
	local tree=$1 tib=${2:-1} fx pages
	fx="$(dirname "${BASH_SOURCE[0]}")/fixtures/6.18-idle"
	pages=$((tib * 268435456))
	cp -r "$fx/." "$tree/"
	awk -v pages=$pages '/^Node/ { normal = ($4 == "Normal") }
		normal && /^ +(spanned|present) / { sub(/[0-9]+$/, pages) } { print }' \
		"$fx/proc/zoneinfo" > "$tree/proc/zoneinfo"
	sed -i "s/^100000000-63fffffff : System RAM/100000000-$(printf '%x' $((0x100000000 + pages * 4096 - 1))) : System RAM/" \
		"$tree/proc/iomem"
	truncate -s $(( (0x100000 + pages) * 8 )) "$tree/proc/kpageflags" "$tree/proc/kpagecount"
	kpf_movable_mixed "$tree/proc/kpageflags"
}

# A synthetic tree for the beyond-the-block figures (tests/cli/contig.sh,
# tests/cli/exporter-map.sh) in DIR: two nodes, each a Movable zone of
# three whole 1 GiB regions (free, movable, tainted) in a hand-made
# kpageflags; node 0's eight slab pages one to a block (amplification
# 512), node 1's 512 in one block (1); hugetlb sizes 2 MiB and 1 GiB.
contig_tree() {
	local tree=$1
	cp -r "$(dirname "${BASH_SOURCE[0]}")/fixtures/6.1-2node-movable/." "$tree/"
	local G=262144	# PFNs in 1 GiB
	# Node 0 Movable: [0x100000, + 3.5 GiB): three whole regions and half of one
	# Node 1 Movable: [0x200000, + 3 GiB)
	awk -v g=$G '
		/^Node/ { node = $2; sub(/,/, "", node); mov = ($4 == "Movable") }
		mov && /^  pages free/ { sub(/[0-9]+$/, node == 0 ? 393216 : 262144) }
		mov && /^ +(spanned|present|managed) / { sub(/[0-9]+$/, node == 0 ? 3 * g + g / 2 : 3 * g) }
		mov && /^ +nr_free_pages / { sub(/[0-9]+$/, node == 0 ? 393216 : 262144) }
		mov && /^  start_pfn:/ { sub(/[0-9]+$/, node == 0 ? 1048576 : 2097152) }
		{ print }' "$(dirname "${BASH_SOURCE[0]}")/fixtures/6.1-2node-movable/proc/zoneinfo" > "$tree/proc/zoneinfo"
	echo "100000000-2bfffffff : System RAM" >> "$tree/proc/iomem"
	mkdir -p "$tree/sys/kernel/mm/hugepages/hugepages-2048kB" "$tree/sys/kernel/mm/hugepages/hugepages-1048576kB"
	truncate -s $(( 0x2c0000 * 8 )) "$tree/proc/kpageflags" "$tree/proc/kpagecount"
	# Unwritten words read 0 in both files: a page with no flag that nobody
	# holds, free.  perl writes the rest:
	#  node 0: 0x100000 free; 0x140000 movable (LRU|ANON); 0x180000 movable
	#          but a slab page first in every 64th block (8 blocks); then free
	#  node 1: 0x200000 a whole slab block first, movable after; 0x240000 free;
	#          0x280000 movable
	perl -e '
		my ($flags, $counts) = @ARGV;
		open(my $f, "+<", $flags) or die "$flags: $!";
		open(my $c, "+<", $counts) or die "$counts: $!";
		my $mov = pack("Q<", (1 << 5) | (1 << 12)); my $slab = pack("Q<", 1 << 7); my $one = pack("Q<", 1);
		sub put { my ($pfn, $word, $n) = @_; seek($f, $pfn * 8, 0); print $f ($word x $n);
			seek($c, $pfn * 8, 0); print $c ($one x $n); }
		put(0x140000, $mov, 262144);
		put(0x180000, $mov, 262144);
		put(0x180000 + $_ * 64 * 512, $slab, 1) for 0 .. 7;
		put(0x200000, $slab, 512);
		put(0x200000 + 512, $mov, 262144 - 512);
		put(0x280000, $mov, 262144);
		close($f) or die; close($c) or die;' "$tree/proc/kpageflags" "$tree/proc/kpagecount"
}

# A two-node tree with planted blocks for will it fit (tests/cli/preflight.sh
# has the figures worked by hand): each node one populated zone, Movable,
# 4 GiB (four 1 GiB regions), a hand-made /proc/kpageflags and free lists
# that agree with it, min watermark 128, no lowmem reserve.
#   node 0: R0 free; R1 every other page free; R2 movable with a slab page
#           in every 64th block; R3 movable
#   node 1: R0 free but a slab page at its first PFN; R1 movable with one
#           slab block; R2 free; R3 every other page free
fit_tree() {
	local T=$1 G=262144 n
	fit_zone() {	# NODE NAME FREE SPANNED START_PFN
		printf 'Node %d, zone %8s\n  pages free     %d\n        boost    0\n' "$1" "$2" "$3"
		if [ "$4" = 0 ]; then
			printf '        min      0\n        low      0\n        high     0\n'
		else
			printf '        min      128\n        low      160\n        high     192\n'
		fi
		printf '        spanned  %d\n        present  %d\n        managed  %d\n        cma      0\n' "$4" "$4" "$4"
		printf '        protection: (0, 0, 0, 0, 0)\n'
		[ "$4" = 0 ] || printf '      nr_free_pages %d\n  start_pfn:           %d\n' "$3" "$5"
	}
	mkdir -p "$T/proc/sys/kernel" "$T/sys/kernel/mm/transparent_hugepage" \
		"$T/sys/kernel/mm/hugepages/hugepages-2048kB" "$T/sys/kernel/mm/hugepages/hugepages-1048576kB" \
		"$T/sys/devices/system/node/node0" "$T/sys/devices/system/node/node1"
	echo planted > "$T/proc/sys/kernel/hostname"
	echo 6.18.0-planted > "$T/proc/sys/kernel/osrelease"
	echo 2097152 > "$T/sys/kernel/mm/transparent_hugepage/hpage_pmd_size"
	: > "$T/sys/devices/system/node/node0/compact"
	: > "$T/sys/devices/system/node/node1/compact"
	for n in 0 1; do
		fit_zone $n DMA 0 0 0; fit_zone $n DMA32 0 0 0; fit_zone $n Normal 0 0 0
		if [ $n = 0 ]; then fit_zone 0 Movable 393216 $((4 * G)) $((4 * G)); else fit_zone 1 Movable 655359 $((4 * G)) $((8 * G)); fi
		fit_zone $n Device 0 0 0
	done > "$T/proc/zoneinfo"
	cat > "$T/proc/buddyinfo" <<-'EOF'
	Node 0, zone  Movable 131072      0      0      0      0      0      0      0      0      0    256
	Node 1, zone  Movable 131073      1      1      1      1      1      1      1      1      1    511
	EOF
	echo "100000000-2ffffffff : System RAM" > "$T/proc/iomem"
	truncate -s $((12 * G * 8)) "$T/proc/kpageflags" "$T/proc/kpagecount"
	perl -e '
		my ($flags, $counts, $g) = @ARGV;
		open(my $f, "+<", $flags) or die "$flags: $!";
		open(my $c, "+<", $counts) or die "$counts: $!";
		my $mov = pack("Q<", (1 << 5) | (1 << 12)); my $slab = pack("Q<", 1 << 7);
		my $one = pack("Q<", 1); my $zero = pack("Q<", 0);
		sub put { my ($pfn, $word, $n) = @_; seek($f, $pfn * 8, 0); print $f ($word x $n);
			seek($c, $pfn * 8, 0); print $c ($one x $n); }
		sub half { my ($pfn) = @_;	# every other page free, the others movable
			seek($f, $pfn * 8, 0); print $f (($zero . $mov) x ($g / 2));
			seek($c, $pfn * 8, 0); print $c (($zero . $one) x ($g / 2)); }
		# node 0: [4G, 8G)
		half(5 * $g);
		put(6 * $g, $mov, $g); put(6 * $g + $_ * 64 * 512, $slab, 1) for 0 .. 7;
		put(7 * $g, $mov, $g);
		# node 1: [8G, 12G)
		put(8 * $g, $slab, 1);
		put(9 * $g, $mov, $g); put(9 * $g + 100 * 512, $slab, 512);
		half(11 * $g);
		close($f) or die; close($c) or die;' "$T/proc/kpageflags" "$T/proc/kpagecount" $G
}
