# fragtop — GNU make.  `make` builds ./fragtop; `make check` runs every test
# (plain and ASan+UBSan builds); `make bench`, `make fuzz`, `make install`.

PREFIX	?= /usr/local
BINDIR	?= $(PREFIX)/bin
MANDIR	?= $(PREFIX)/share/man
DESTDIR	?=

CC	?= cc
CLANG	?= clang
PKG_CONFIG ?= pkg-config
CFLAGS	?= -O2 -g
LDFLAGS	?=

VERSION	:= 0.1

PKGS	:= ncursesw libtracefs libtraceevent libzstd openssl libcrypt zlib
# a missing library stops the build by its name, not with a missing header
PKG_DEB_ncursesw := libncurses-dev
PKG_DEB_libtracefs := libtracefs-dev
PKG_DEB_libtraceevent := libtraceevent-dev
PKG_DEB_libzstd := libzstd-dev
PKG_DEB_openssl := libssl-dev
PKG_DEB_libcrypt := libcrypt-dev
PKG_DEB_zlib := zlib1g-dev
# The sub-makes of check, analyze and bench build this many at once (make -jN
# sets its own); the tests run FT_JOBS at a time (tests/run.sh)
JOBS	?= $(shell nproc 2>/dev/null || echo 2)

# The goals that install what is missing first (run, check, check-host,
# bench) build in a second make, which parses this file again after the
# install: so only that one, or a plain `make`, checks the libraries.
NO_PKG_GOALS := clean deps deps-test run check check-host bench lab lab-table
ifeq ($(filter $(NO_PKG_GOALS),$(MAKECMDGOALS)),)
PKG_MISSING := $(strip $(foreach p,$(PKGS),$(if $(shell $(PKG_CONFIG) --exists $(p) 2>/dev/null && echo y),,$(p))))
ifneq ($(PKG_MISSING),)
$(error missing: $(foreach p,$(PKG_MISSING),$(p) (Debian: $(PKG_DEB_$(p)))); `make deps` (as root, or with sudo) installs them)
endif
endif
# OpenSSL and libcrypt are dlopen()ed by the exporter when its web config
# asks for them (net/tlslib.h), zlib when a client asks for gzip
# (base/gzip.h): their headers are needed, not their links
DLOPEN_PKGS := openssl libcrypt zlib
PKG_CFLAGS := $(shell $(PKG_CONFIG) --cflags $(PKGS) 2>/dev/null)
PKG_LIBS   := $(shell $(PKG_CONFIG) --libs $(filter-out $(DLOPEN_PKGS),$(PKGS)) 2>/dev/null)
CMOCKA_LIBS := $(shell $(PKG_CONFIG) --libs cmocka 2>/dev/null)

# -fms-extensions: a struct's plain values are a tagged struct embedded
# without a name beside its named copy (model/session.h: what a checkpoint
# saves whole), as the kernel builds with it since 6.19
FT_CFLAGS := -std=gnu11 -fms-extensions -Wall -Wextra -Wshadow -Wstrict-prototypes \
	-Wmissing-prototypes -Wno-missing-field-initializers -Wconversion -Wformat=2 -I. $(PKG_CFLAGS) \
	-D_GNU_SOURCE -DFT_VERSION='"$(VERSION)"'
FT_LDFLAGS := -Wl,--as-needed
# CI builds with WERROR=1: a warning fails the build
ifeq ($(WERROR),1)
FT_CFLAGS += -Werror
endif

SAN_FLAGS := -fsanitize=address,undefined -fno-omit-frame-pointer \
	-fno-sanitize-recover=undefined
# ThreadSanitizer for the tests that run the live source's threads
TSAN_FLAGS := -fsanitize=thread -fno-omit-frame-pointer
TSAN_TESTS := test_live_threads test_procfs test_replay test_recfmt test_websec

BASE_SRC	:= $(sort $(wildcard base/*.c))
KERNEL_SRC	:= $(sort $(wildcard kernel/*.c))
NET_SRC		:= $(sort $(wildcard net/*.c))
MODEL_SRC	:= $(sort $(wildcard model/*.c))
COLLECT_SRC	:= $(sort $(wildcard collectors/*.c))
CONTROL_SRC	:= $(sort $(wildcard controls/*.c))
ANALYSIS_SRC	:= $(sort $(wildcard analysis/*.c))
RENDER_SRC	:= $(sort $(wildcard render/*.c))
# tui/'s parsers of its input (keys, the rc file) draw nothing: tests and
# fuzzers link them without curses
TUI_PURE	:= tui/rcfile.c tui/termin.c
TUI_SRC		:= $(filter-out $(TUI_PURE),$(sort $(wildcard tui/*.c)))
CMD_SRC		:= $(sort $(wildcard cmd/*.c))
LIB_SRC		:= $(BASE_SRC) $(KERNEL_SRC) $(NET_SRC) $(MODEL_SRC) $(COLLECT_SRC) $(CONTROL_SRC) $(ANALYSIS_SRC) $(RENDER_SRC) \
		   $(TUI_PURE)
FRONT_SRC	:= $(TUI_SRC) $(CMD_SRC)
TEST_SRC	:= $(sort $(wildcard tests/unit/test_*.c))
FUZZ_SRC	:= $(sort $(wildcard tests/fuzz/fuzz_*.c))

B	:= build
OBJ	= $(patsubst %.c,$(B)/$(1)/%.o,$(2))
TESTS	:= $(patsubst tests/unit/%.c,$(B)/plain/tests/unit/%,$(TEST_SRC))
TESTS_SAN := $(patsubst tests/unit/%.c,$(B)/san/tests/unit/%,$(TEST_SRC))
TESTS_TSAN := $(patsubst %,$(B)/tsan/tests/unit/%,$(TSAN_TESTS))
FUZZERS	:= $(patsubst tests/fuzz/%.c,$(B)/fuzz/%,$(FUZZ_SRC))

.PHONY: lab-fit soak soak-exporter soak-fleet crafted all deb lab lab-table deps deps-test check check-host check-only check-layers fn-length test-build bench bench-only fuzz fuzz-run fuzz-replay analyze analyze-only bench-keep install uninstall run deps clean

all: fragtop fragtop.1

fragtop: $(call OBJ,plain,$(LIB_SRC) $(FRONT_SRC))
	$(CC) $(CFLAGS) $(FT_LDFLAGS) $(LDFLAGS) -o $@ $^ $(PKG_LIBS) -lm

$(B)/fragtop-san: $(call OBJ,san,$(LIB_SRC) $(FRONT_SRC))
	$(CC) $(CFLAGS) $(SAN_FLAGS) $(FT_LDFLAGS) $(LDFLAGS) -o $@ $^ $(PKG_LIBS) -lm

$(B)/plain/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(FT_CFLAGS) -MMD -MP -c -o $@ $<

$(B)/san/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(SAN_FLAGS) $(FT_CFLAGS) -MMD -MP -c -o $@ $<

$(B)/tsan/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(TSAN_FLAGS) $(FT_CFLAGS) -MMD -MP -c -o $@ $<

# Each test links the whole library (not the front ends): the linker keeps
# what it uses.
$(B)/plain/tests/unit/%: $(B)/plain/tests/unit/%.o $(call OBJ,plain,$(LIB_SRC))
	$(CC) $(CFLAGS) $(FT_LDFLAGS) -o $@ $^ $(CMOCKA_LIBS) $(PKG_LIBS) -lm

$(B)/san/tests/unit/%: $(B)/san/tests/unit/%.o $(call OBJ,san,$(LIB_SRC))
	$(CC) $(CFLAGS) $(SAN_FLAGS) $(FT_LDFLAGS) -o $@ $^ $(CMOCKA_LIBS) $(PKG_LIBS) -lm

$(B)/tsan/tests/unit/%: $(B)/tsan/tests/unit/%.o $(call OBJ,tsan,$(LIB_SRC))
	$(CC) $(CFLAGS) $(TSAN_FLAGS) $(FT_LDFLAGS) -o $@ $^ $(CMOCKA_LIBS) $(PKG_LIBS) -lm

# the option parser is the front end's, but has no other dependency
$(B)/plain/tests/unit/test_cli: $(B)/plain/cmd/cli.o
$(B)/san/tests/unit/test_cli: $(B)/san/cmd/cli.o

test-build: fragtop fragtop.1 $(B)/fragtop-san $(TESTS) $(TESTS_SAN) $(TESTS_TSAN)

# `make check SMOKE=1`: its fastest part alone, the plain build's unit tests
# (tests/host/first-contact.sh runs the README's second command so on a
# bare Debian 12: the whole suite has run on the host already)
check: deps-test
ifeq ($(SMOKE),1)
	$(MAKE) -j$(JOBS) fragtop $(TESTS)
	@FT_TESTS='^$(B)/plain/tests/' tests/run.sh $(B)
else
	$(MAKE) -j$(JOBS) test-build fuzz
	@scripts/check-layers.sh
	@scripts/fn-length.sh
	@scripts/check-idents.sh
	@scripts/check-comments.sh
	@scripts/check-columns.sh
	@FUZZ_REPLAY=1 tests/run.sh $(B)
endif

# the tests that change this host (sysctls, the fio workload), each
# restoring what it changed; root
check-host: deps-test
	$(MAKE) fragtop fragtop.1
	@HOST=1 tests/run.sh $(B)

check-only: test-build fuzz
	@scripts/check-layers.sh
	@scripts/fn-length.sh
	@scripts/check-idents.sh
	@scripts/check-comments.sh
	@scripts/check-columns.sh
	@FUZZ_REPLAY=1 tests/run.sh $(B)

# each layer includes only those below it (docs/DESIGN.md)
check-layers:
	@mkdir -p $(B)
	@scripts/check-layers.sh

# no function of the program (every folder of it: scripts/fn-length.sh) over 100 lines
fn-length:
	@mkdir -p $(B)
	@scripts/fn-length.sh

$(B)/bench: tests/bench/bench.c $(call OBJ,plain,$(LIB_SRC))
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(FT_CFLAGS) $(FT_LDFLAGS) -o $@ $^ $(PKG_LIBS) -lm

$(B)/bench_trace: tests/bench/bench_trace.c $(call OBJ,plain,$(LIB_SRC))
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(FT_CFLAGS) $(FT_LDFLAGS) -o $@ $^ $(PKG_LIBS) -lm

# 30 minutes of the record service under the adverse workload, kills,
# reloads and a full disk (root; not CI: SOAK_MINUTES=N for another length)
soak: fragtop
	bash tests/soak.sh ./fragtop

# the exporter for 10 minutes under empty-connection and handshake floods,
# slowloris over TLS and wrong passwords at cost 12, scraped through a 50 ms
# round trip (not CI: SOAK_MINUTES=N for another length)
soak-exporter: fragtop
	bash tests/soak-exporter.sh ./fragtop

# the fleet console under ASan against a Prometheus that flaps (not CI: SOAK_MINUTES=N, default 10)
soak-fleet: $(B)/fragtop-san
	bash tests/soak-fleet.sh $(B)/fragtop-san

# the crafted recordings of tests/recordings/crafted (kept; this writes them again)
$(B)/crafted: tests/crafted.c $(call OBJ,plain,$(LIB_SRC))
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(FT_CFLAGS) $(FT_LDFLAGS) -o $@ $^ $(PKG_LIBS) -lm

crafted: $(B)/crafted
	@mkdir -p tests/recordings/crafted
	for k in ticks audits formats trace map samples; do \
		$(B)/crafted $$k tests/recordings/crafted/$$k.ftr tests/recordings/adverse-6.18.ftr || exit 1; \
	done
	@mkdir -p tests/recordings/forged
	$(B)/crafted kmsg tests/recordings/forged/kmsg.ftr
	$(B)/crafted extremes tests/recordings/forged/extremes.ftr
	ls -l tests/recordings/crafted tests/recordings/forged

$(B)/bench_map: tests/bench/bench_map.c $(call OBJ,plain,$(LIB_SRC))
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(FT_CFLAGS) $(FT_LDFLAGS) -o $@ $^ $(PKG_LIBS) -lm

$(B)/bench_rec: tests/bench/bench_rec.c $(call OBJ,plain,$(LIB_SRC))
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(FT_CFLAGS) $(FT_LDFLAGS) -o $@ $^ $(PKG_LIBS) -lm

$(B)/bench_boost: tests/bench/bench_boost.c $(call OBJ,plain,$(LIB_SRC))
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(FT_CFLAGS) $(FT_LDFLAGS) -o $@ $^ $(PKG_LIBS) -lm

bench: deps-test
	$(MAKE) bench-only

# every bench in one run, then today's figures beside the kept ones
# (tests/bench/kept.txt) with their ratio; `make bench-keep` keeps today's
BENCH_OUT := $(B)/bench-today.txt
# each phase of the live TUI's side-by-side run (idle, load, map), seconds
BENCH_SECS ?= 60
bench-only: $(B)/bench $(B)/bench_trace $(B)/bench_map $(B)/bench_rec $(B)/bench_boost fragtop
	@rm -f $(BENCH_OUT)
	@echo "# $$(date -u +%Y-%m-%d), kernel $$(uname -r), $$(nproc) CPUs, $$(awk '/MemTotal/ { printf "%.0f GiB", $$2 / 1048576 }' /proc/meminfo), fragtop $$(git describe --always --dirty 2>/dev/null || echo $(VERSION))" > $(BENCH_OUT)
	FT_BENCH_OUT=$(BENCH_OUT) $(B)/bench
	FT_BENCH_OUT=$(BENCH_OUT) $(B)/bench_trace
	FT_BENCH_OUT=$(BENCH_OUT) $(B)/bench_map
	FT_BENCH_OUT=$(BENCH_OUT) $(B)/bench_rec
	FT_BENCH_OUT=$(BENCH_OUT) $(B)/bench_boost
	FT_BENCH_OUT=$(BENCH_OUT) tests/bench/tui_cpu.sh ./fragtop $(BENCH_SECS)
	FT_BENCH_OUT=$(BENCH_OUT) tests/bench/exporter_cpu.sh ./fragtop
	FT_BENCH_OUT=$(BENCH_OUT) tests/bench/preflight_cost.sh ./fragtop
	FT_BENCH_OUT=$(BENCH_OUT) tests/bench/fleet.sh ./fragtop
	@scripts/bench-compare.sh tests/bench/kept.txt $(BENCH_OUT)

bench-keep:
	@test -s $(BENCH_OUT) || { echo "bench-keep: no $(BENCH_OUT); make bench first"; exit 1; }
	cp $(BENCH_OUT) tests/bench/kept.txt
	@echo "bench-keep: tests/bench/kept.txt holds today's figures; commit it"

# libFuzzer targets, one per parser.  `make fuzz-run RUNS=1000000`.
# kernel/, net/, model/ and base/ are compiled once for all of them, into an archive each links
# what it uses from (compiling them again for each target was 19 x 48 files,
# six minutes of make check).
RUNS	?= 1000000
FUZZ_CFLAGS := -g -O1 -std=gnu11 -fms-extensions -Wno-microsoft-anon-tag -I. -D_GNU_SOURCE $(shell $(PKG_CONFIG) --cflags libtraceevent libzstd)
# net/'s parsers, not its server, TLS and client (nothing fuzzed calls them)
NET_PARSERS := $(filter-out net/httpd.c net/websec.c net/tlslib.c net/promapi.c,$(NET_SRC))
FUZZ_OBJ := $(patsubst %.c,$(B)/fuzz/obj/%.o,$(KERNEL_SRC) $(NET_PARSERS) $(MODEL_SRC) $(BASE_SRC) $(TUI_PURE))

$(B)/fuzz/obj/%.o: %.c
	@mkdir -p $(dir $@)
	$(CLANG) $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link,address,undefined -MMD -MP -c -o $@ $<

$(B)/fuzz/libft.a: $(FUZZ_OBJ)
	rm -f $@
	ar rcs $@ $^

$(B)/fuzz/%: tests/fuzz/%.c $(B)/fuzz/libft.a
	@mkdir -p $(dir $@)
	$(CLANG) $(FUZZ_CFLAGS) -fsanitize=fuzzer,address,undefined -o $@ $^ -lm \
		$(shell $(PKG_CONFIG) --libs libtraceevent libzstd)

fuzz: $(FUZZERS)

# every seed of every corpus once, through its fuzzer (make check does it)
fuzz-replay: fuzz
	@for f in $(FUZZERS); do \
		n=$$(basename $$f); seeds=tests/fuzz/corpus/$${n#fuzz_}; \
		$$f -runs=0 $$seeds > $(B)/fuzz/$$n.replay.log 2>&1 || \
			{ tail -n 30 $(B)/fuzz/$$n.replay.log; echo "fuzz-replay: $$n failed"; exit 1; }; \
		echo "fuzz-replay: $$n: $$(ls $$seeds | wc -l) seeds, no crash"; \
	done

# gcc's static analyzer over every source, JOBS at once; CI runs it and
# fails on a finding
AN_FLAGS := -fanalyzer -Werror
AN_OK := $(patsubst %.c,$(B)/analyze/%.ok,$(LIB_SRC) $(FRONT_SRC))
$(B)/analyze/%.ok: %.c
	@mkdir -p $(dir $@)
	@$(CC) $(CFLAGS) $(FT_CFLAGS) $(AN_FLAGS) -c -o $(@:.ok=.o) $<
	@touch $@

analyze:
	@rm -rf $(B)/analyze
	@$(MAKE) --no-print-directory -j$(JOBS) analyze-only
	@echo "analyze: gcc -fanalyzer found nothing in $(words $(LIB_SRC) $(FRONT_SRC)) files"

analyze-only: $(AN_OK)

fuzz-run: fuzz
	@for f in $(FUZZERS); do \
		n=$$(basename $$f); seeds=tests/fuzz/corpus/$${n#fuzz_}; \
		work=$(B)/fuzz/corpus-$${n#fuzz_}; mkdir -p $$work; \
		echo "== $$n ($(RUNS) runs)"; \
		$$f -runs=$(RUNS) -max_len=65536 -print_final_stats=1 $$work $$seeds \
			> $(B)/fuzz/$$n.log 2>&1 || { tail -n 30 $(B)/fuzz/$$n.log; exit 1; }; \
		grep -E "stat::number_of_executed_units|Done" $(B)/fuzz/$$n.log; \
	done

# the man page: docs/fragtop.1.in with the binary's own option and key tables
fragtop.1: fragtop docs/fragtop.1.in scripts/mkman.sh
	scripts/mkman.sh ./fragtop $(VERSION) > $@.tmp && mv $@.tmp $@

BASHCOMPDIR ?= $(PREFIX)/share/bash-completion/completions
UNITDIR ?= /lib/systemd/system
SYSCONFDIR ?= /etc

install: fragtop fragtop.1
	install -D -m 0755 fragtop $(DESTDIR)$(BINDIR)/fragtop
	install -D -m 0644 fragtop.1 $(DESTDIR)$(MANDIR)/man1/fragtop.1
	install -D -m 0644 dist/fragtop.bash-completion $(DESTDIR)$(BASHCOMPDIR)/fragtop
	install -D -m 0644 dist/fragtop-record.service $(DESTDIR)$(UNITDIR)/fragtop-record.service
	install -D -m 0644 dist/fragtop-exporter.service $(DESTDIR)$(UNITDIR)/fragtop-exporter.service
	install -D -m 0644 dist/fragtop-restore.service $(DESTDIR)$(UNITDIR)/fragtop-restore.service
	install -D -m 0644 dist/fragtop-exporter.default $(DESTDIR)$(SYSCONFDIR)/default/fragtop-exporter
	install -D -m 0644 dist/fragtop-rules.yml $(DESTDIR)$(PREFIX)/share/fragtop/fragtop-rules.yml
	install -D -m 0644 dist/fragtop-dashboard.json $(DESTDIR)$(PREFIX)/share/fragtop/fragtop-dashboard.json
	install -D -m 0644 docs/runbook.md $(DESTDIR)$(PREFIX)/share/fragtop/runbook.md

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/fragtop $(DESTDIR)$(MANDIR)/man1/fragtop.1 \
		$(DESTDIR)$(BASHCOMPDIR)/fragtop $(DESTDIR)$(UNITDIR)/fragtop-record.service \
		$(DESTDIR)$(UNITDIR)/fragtop-exporter.service $(DESTDIR)$(UNITDIR)/fragtop-restore.service \
		$(DESTDIR)$(SYSCONFDIR)/default/fragtop-exporter \
		$(DESTDIR)$(PREFIX)/share/fragtop/fragtop-rules.yml \
		$(DESTDIR)$(PREFIX)/share/fragtop/fragtop-dashboard.json \
		$(DESTDIR)$(PREFIX)/share/fragtop/runbook.md

# what fragtop needs to build and run (make run), and the tests' set too (make check)
deps:
	scripts/install-deps.sh runtime build

deps-test:
	scripts/install-deps.sh runtime build test

# Installs what is missing, builds, and runs fragtop live: as root, or
# through sudo when there is one (fragtop runs with less otherwise).
run: deps
	$(MAKE) fragtop fragtop.1
	@if [ "$$(id -u)" = 0 ] || ! command -v sudo >/dev/null; then ./fragtop $(ARGS); \
	else echo "make run: sudo ./fragtop"; sudo ./fragtop $(ARGS); fi

# a Debian package (debhelper) built from a clean copy of the tree in
# build/deb; the .deb lands here.  Needs debhelper, dpkg-dev, fakeroot.
deb:
	rm -rf $(B)/deb && mkdir -p $(B)/deb/fragtop-$(VERSION)
	git ls-files -z | xargs -0 cp --parents -t $(B)/deb/fragtop-$(VERSION)
	cd $(B)/deb/fragtop-$(VERSION) && dpkg-buildpackage -us -uc -b
	cp $(B)/deb/fragtop_$(VERSION)_*.deb .
	@ls fragtop_$(VERSION)_*.deb

# the patched-kernel lab (lab/): build Debian's 6.1 and 6.12, each with
# the seeds' stall and without it (cached in build/lab), boot them under
# qemu with two NUMA nodes and record the workload: the three 6.1
# recordings in tests/recordings (lab/fixtures.sh).  KERNEL=path/to/bzImage
# instead runs the same experiment once on another kernel into LAB_OUT
# (LAB_ARGS: lab/run.sh's).  `make lab-table`: the seeds' table, three
# groups of five runs per kernel (lab/table.sh; LAB_TABLE_ARGS: its options).
LAB_OUT ?= lab.ftr
lab:
	scripts/install-deps.sh runtime build lab
	$(MAKE) fragtop fragtop.1
	$(if $(KERNEL),,for v in 6.1 6.12; do lab/build-kernel.sh $$v && lab/build-kernel.sh --stock $$v || exit 1; done)
	$(if $(KERNEL),lab/run.sh --kernel $(KERNEL) $(LAB_ARGS) -o $(LAB_OUT),lab/fixtures.sh)

lab-table:
	scripts/install-deps.sh runtime build lab
	$(MAKE) fragtop fragtop.1
	lab/table.sh $(LAB_TABLE_ARGS)

# will it fit against 6.1 and 6.12 (docs/lab-fit.md): the kept rows and the table
lab-fit:
	scripts/install-deps.sh runtime build lab
	$(MAKE) fragtop fragtop.1
	lab/fit.sh $(LAB_FIT_ARGS)

clean:
	rm -rf $(B) fragtop fragtop.1 fragtop_*.deb

# dependency files of our objects (not the lab's kernel tree, which has a
# test.d directory, nor the bare Debian root of tests/host/first-contact.sh)
-include $(shell find $(B) \( -path '$(B)/lab' -o -path '$(B)/first-contact' \) -prune -o -name '*.d' -type f -print 2>/dev/null)
.SECONDARY:
