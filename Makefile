# gpusim build. `make run` builds and runs the default scenario, `make test`
# runs every test. See README.md.

CC       ?= cc
PKGS     := glib-2.0 gmodule-2.0 yaml-0.1 json-glib-1.0 libprotobuf-c sqlite3 libtracecmd
OPT      ?= -O2
CFLAGS   ?= $(OPT) -g
WARN     := -Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes
ifeq ($(WERROR),1)
WARN     += -Werror
endif
PKG_CFLAGS := $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
PKG_LIBS   := $(shell pkg-config --libs $(PKGS) 2>/dev/null)
CMOCKA_CFLAGS := $(shell pkg-config --cflags cmocka 2>/dev/null)
CMOCKA_LIBS   := $(shell pkg-config --libs cmocka 2>/dev/null)
# -ffp-contract=off: no fused multiply-add, so metrics are the same bits on
# every machine and compiler.
ALL_CFLAGS = -std=c11 -D_POSIX_C_SOURCE=200809L -ffp-contract=off $(WARN) $(CPPFLAGS) $(CFLAGS) \
	     -I. -I$(BUILD)/gen -Isim/host/hal $(PKG_CFLAGS) -MMD -MP
LDLIBS   = $(PKG_LIBS) -lm

BUILD    ?= build
# another BUILD (build-clang, build-asan) gets its own executable, so that
# `make CC=clang BUILD=build-clang gpusim` does not replace ./gpusim
BIN      ?= $(if $(filter build,$(BUILD)),gpusim,$(BUILD)/gpusim)
PREFIX   ?= /usr/local

LIB_SRCS := $(sort $(wildcard base/*.c sim/*/*.c gpu_model/*.c workloads/*.c policies/*.c))
LIB_SRCS := $(filter-out sim/cli/main.c,$(LIB_SRCS))
# the HAL record's line format, which the simulator's recorder shares
LIB_SRCS += policies/replay/hal_record.c
LIB_OBJS := $(LIB_SRCS:%.c=$(BUILD)/%.o)
# The Perfetto trace subset (sim/results/perfetto_trace.proto), compiled to
# C by protoc-c into $(BUILD)/gen/ (timeline.pftrace).
PROTO_SRCS := sim/results/perfetto_trace.proto
PROTO_C    := $(PROTO_SRCS:%.proto=$(BUILD)/gen/%.pb-c.c)
PROTO_H    := $(PROTO_SRCS:%.proto=$(BUILD)/gen/%.pb-c.h)
LIB_OBJS += $(PROTO_C:%.c=%.o)
MAIN_OBJ := $(BUILD)/sim/cli/main.o
LIB      := $(BUILD)/libgpusim.a

TEST_SRCS := $(sort $(wildcard tests/test_*.c))
TEST_BINS := $(TEST_SRCS:tests/%.c=$(BUILD)/tests/%)
# Policy unit tests (tests/test_policy_*.c) run a policy against the
# scripted HAL of tests/support/ instead of the simulator.
POLICY_SRCS := $(sort $(wildcard policies/*.c))
POLICY_OBJS := $(POLICY_SRCS:%.c=$(BUILD)/%.o)
# the replay HAL (policies/replay/) and what gpusim links of it
REPLAY_SRCS := $(sort $(wildcard policies/replay/*.c))
REPLAY_OBJS := $(REPLAY_SRCS:%.c=$(BUILD)/%.o)
REPLAY_BUNDLE := $(BUILD)/replay_bundle.o
MOCK_HAL_OBJ := $(patsubst %.c,$(BUILD)/%.o,$(wildcard tests/support/mock_hal*.c))
# named as targets, so that a build folder made before a file was added
# still links the policy tests with every one of them
$(MOCK_HAL_OBJ):
# (a rule above `all` would otherwise be what a bare `make` builds)
.DEFAULT_GOAL := all

.SECONDARY:

.PHONY: all run test asan fuzz fuzz-replay bench golden reproduce clean install uninstall deps \
	check-deps proptest

all: $(BIN)

# --export-dynamic: a policy module (workloads/policy_module.h) calls the
# hal_* functions of the executable. --whole-archive: every one of them is
# in it, also those no built-in policy calls.
ifneq ($(BIN),gpusim)
# `make BUILD=DIR gpusim` builds DIR/gpusim
.PHONY: gpusim
gpusim: $(BIN)
endif

$(BIN): $(MAIN_OBJ) $(REPLAY_BUNDLE) $(LIB)
	$(CC) $(CFLAGS) $(LDFLAGS) -Wl,--export-dynamic -o $@ $(MAIN_OBJ) \
	      $(REPLAY_BUNDLE) -Wl,--whole-archive $(LIB) -Wl,--no-whole-archive \
	      $(LDLIBS)

# `gpusim replay` (docs/hal-record.md): the policies linked with the
# replay HAL of policies/replay/ instead of the simulator's. `ld -r` joins
# them into one object and objcopy leaves gs_replay_run its only global
# name, so their hal_* and the policies' own names never meet the
# simulator's in gpusim. A kernel test module links the same files.
LD ?= ld
OBJCOPY ?= objcopy
$(REPLAY_BUNDLE): $(POLICY_OBJS) $(REPLAY_OBJS)
	$(LD) -r -o $@.tmp $^
	@# a HAL call the replay HAL lacks would bind to the simulator's
	@if nm -u $@.tmp | grep -w 'hal_[a-z0-9_]*'; then \
	  echo "replay HAL: the calls above are missing in policies/replay/" >&2; \
	  rm -f $@.tmp; exit 1; fi
	$(OBJCOPY) --keep-global-symbol=gs_replay_run $@.tmp $@
	@rm -f $@.tmp

$(LIB): $(LIB_OBJS)
	@rm -f $@
	ar rcs $@ $^

$(BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(CMOCKA_CFLAGS) -c $< -o $@

$(BUILD)/gen/%.pb-c.c $(BUILD)/gen/%.pb-c.h: %.proto
	@mkdir -p $(BUILD)/gen
	protoc-c --c_out=$(BUILD)/gen $<

$(BUILD)/gen/%.o: $(BUILD)/gen/%.c
	$(CC) $(ALL_CFLAGS) -c $< -o $@

$(BUILD)/sim/results/results_pftrace.o $(BUILD)/sim/results/pftrace_out.o: $(PROTO_H)
$(BUILD)/sim/results/pftrace_enc.o $(BUILD)/sim/results/pftrace_stream.o: $(PROTO_H)
$(BUILD)/sim/results/pftrace_event.o $(BUILD)/tests/test_pftrace_event.o: $(PROTO_H)

$(BUILD)/tests/%: $(BUILD)/tests/%.o $(LIB)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $< $(LIB) $(CMOCKA_LIBS) $(LDLIBS)

$(BUILD)/tests/test_policy_%: $(BUILD)/tests/test_policy_%.o $(MOCK_HAL_OBJ) \
			      $(POLICY_OBJS)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(CMOCKA_LIBS) $(LDLIBS)

# Installs the Debian packages gpusim needs if any is missing (as root, or
# through sudo when it is available).
check-deps:
	@pkg-config --exists $(PKGS) cmocka && command -v gnuplot >/dev/null \
	  && command -v protoc-c >/dev/null && command -v protoc >/dev/null \
	  && command -v sqlite3 >/dev/null \
	  || sh scripts/install-deps.sh

deps:
	sh scripts/install-deps.sh

run: check-deps
	$(MAKE) gpusim
	./gpusim run configs/default.yaml --out results/default

test: check-deps
	$(MAKE) $(BIN) $(TEST_BINS) $(FUZZ_REPLAYS) $(PROPTEST) $(EXAMPLE_MODULES)
	sh tests/check_policies.sh policies $(EXAMPLE_POLICIES)
	sh tests/layers_test.sh
	sh tests/calls_test.sh $(BUILD)
	$(MAKE) fuzz-replay
	sh tests/run_tests.sh $(BUILD)/tests ./$(BIN)
	$(PROPTEST)

# Property tests over generated scenarios (README, "Property tests"):
# PROPTEST_N seeds for every policy and preset, plus the fixed regression
# seeds. `make test` runs the default count; PROPTEST_N=200 for long runs.
PROPTEST := $(BUILD)/proptest
PROPTEST_SRCS := $(sort $(wildcard tests/proptest/*.c))
$(PROPTEST): $(PROPTEST_SRCS:%.c=$(BUILD)/%.o) $(LIB)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(LDLIBS)

proptest: $(PROPTEST)
	$(PROPTEST)

# The whole suite under AddressSanitizer and UndefinedBehaviorSanitizer.
SAN_FLAGS := -O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer \
	     -fno-sanitize-recover=all -DGS_CHECK_INVARIANTS
asan:
	$(MAKE) BUILD=build-asan CFLAGS="$(SAN_FLAGS)" test

# The paper targets (DESIGN section 9): one row per target, pass or FAIL.
reproduce: gpusim
	./gpusim reproduce

# Fuzzing with libFuzzer: three targets, tests/fuzz/fuzz_TARGET.c --
# config (the scenario loader, then a short run of what loads), set (--set
# paths and values on a fixed scenario) and trace (the trace CSV reader).
# Each is seeded from its inputs below; crashers land in
# tests/fuzz/regressions/TARGET/, which `make test` replays (without
# libFuzzer) with the seeds. FUZZ_SECONDS is per target.
FUZZ_SECONDS ?= 600
FUZZ_TARGETS := config set trace
FUZZ_BUILD := build-fuzz
FUZZ_SAN := -fsanitize=address,undefined -fno-sanitize-recover=all
FUZZ_COMMON := tests/fuzz/fuzz_check.c
FUZZ_SEEDS_config = $(shell find configs -name '*.yaml' | sort)
FUZZ_SEEDS_set = $(sort $(wildcard tests/fuzz/seeds/set/*))
FUZZ_SEEDS_trace = $(sort $(wildcard tests/fuzz/seeds/trace/*)) \
		   configs/examples/trace.csv tests/golden/trace.csv
FUZZ_INPUTS_OF = $(FUZZ_SEEDS_$(1)) \
		 $(sort $(wildcard tests/fuzz/regressions/$(1)/*))
FUZZ_REPLAYS := $(FUZZ_TARGETS:%=$(BUILD)/tests/fuzz_replay_%)

$(BUILD)/tests/fuzz_replay_%: tests/fuzz/replay_main.c tests/fuzz/fuzz_%.c \
			       $(FUZZ_COMMON) $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ tests/fuzz/replay_main.c \
	      tests/fuzz/fuzz_$*.c $(FUZZ_COMMON) $(LIB) $(LDLIBS)

# Replays every target's seeds and regressions (part of `make test`).
fuzz-replay: $(FUZZ_REPLAYS)
	$(foreach t,$(FUZZ_TARGETS),\
	  $(BUILD)/tests/fuzz_replay_$(t) $(call FUZZ_INPUTS_OF,$(t)) &&) true

fuzz:
	$(MAKE) CC=clang BUILD=$(FUZZ_BUILD) \
		CFLAGS="-O1 -g -fsanitize=fuzzer-no-link $(FUZZ_SAN)" \
		$(FUZZ_BUILD)/libgpusim.a
	set -e; for t in $(FUZZ_TARGETS); do \
	  clang $(ALL_CFLAGS) -O1 -g -fsanitize=fuzzer $(FUZZ_SAN) \
	      -o $(FUZZ_BUILD)/fuzz_$$t \
	      tests/fuzz/fuzz_$$t.c $(FUZZ_COMMON) \
	      $(FUZZ_BUILD)/libgpusim.a $(LDLIBS); \
	done
	$(foreach t,$(FUZZ_TARGETS),$(call FUZZ_RUN,$(t)))

# One target: seed a corpus from its inputs (named by their paths:
# configs/paper/ and its sweeps/ share file names), then fuzz it.
define FUZZ_RUN
	mkdir -p $(FUZZ_BUILD)/corpus_$(1) tests/fuzz/regressions/$(1)
	for f in $(call FUZZ_INPUTS_OF,$(1)); do \
		cp "$$f" "$(FUZZ_BUILD)/corpus_$(1)/$$(echo "$$f" | tr / _)"; \
	done
	$(FUZZ_BUILD)/fuzz_$(1) $(FUZZ_BUILD)/corpus_$(1) -max_len=8192 \
		-timeout=10 -rss_limit_mb=4096 -max_total_time=$(FUZZ_SECONDS) \
		-artifact_prefix=tests/fuzz/regressions/$(1)/ \
		-print_final_stats=1

endef

# The paper figures (README, "Reproducing the papers"): the sweeps of
# configs/paper/sweeps/ into results/sweeps/, then results/plots/*.png and
# *.svg with gnuplot.
.PHONY: plots
plots: gpusim
	sh plots/make_plots.sh ./gpusim

# A paper sweep as a Slurm job array on a one-node cluster brought up on
# localhost (installs slurm-wlm and munge if missing; needs root).
.PHONY: slurm-test
slurm-test: $(BIN)
	sh tests/slurm_test.sh ./$(BIN)

# Regenerate the golden results after an intended change of the model.
golden: gpusim
	sh tests/golden_test.sh --update ./gpusim

# every figure of the speed and memory goals: gpusim bench, then goal 4's
# sweep -j1 against -j2 (bench-sweep)
bench: gpusim
	./gpusim bench
	sh scripts/bench_sweep.sh ./gpusim $(BENCH_SWEEP_REPEAT)

# Issue 20 goal 4: `gpusim sweep -j2` against `-j1` on two paper sweeps
# (scripts/bench_sweep.sh; BENCH_SWEEP_REPEAT runs each, medians).
BENCH_SWEEP_REPEAT ?= 3
.PHONY: bench-sweep
bench-sweep: gpusim
	sh scripts/bench_sweep.sh ./gpusim $(BENCH_SWEEP_REPEAT)

clean:
	rm -rf $(BUILD) build-asan build-clang build-kmod build-kreplay build-fuzz gpusim
	rm -rf build-ktest32

-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)

# The commit a sweep's manifest records: regenerated on every build but
# rewritten only when it changes, so only sim/cli/sweep_files.o rebuilds.
GS_COMMIT := $(shell git describe --always --dirty --abbrev=12 2>/dev/null)
.PHONY: FORCE
$(BUILD)/gs_commit.h: FORCE
	@mkdir -p $(BUILD)
	@echo '#define GS_COMMIT "$(GS_COMMIT)"' > $@.tmp
	@cmp -s $@.tmp $@ && rm -f $@.tmp || mv -f $@.tmp $@
$(BUILD)/sim/cli/sweep_files.o: $(BUILD)/gs_commit.h
$(BUILD)/sim/cli/sweep_files.o: ALL_CFLAGS += -include $(BUILD)/gs_commit.h

# Kernel module and kernel rules
#
# check-policies: every policies/*.c builds freestanding (no libc, no FPU,
# also -m32) and calls nothing but the HAL. kmod: gpusim_policies.ko from
# the same files plus policies/linux/, against a kernel build tree: KDIR,
# else the running kernel's, else the newest Debian linux-headers-*-amd64.
# The module is built in $(KMOD_BUILD), a mirror of policies/ made of
# symbolic links, so no object file lands in the source tree.
KDIR ?= $(or $(wildcard /lib/modules/$(shell uname -r)/build),$(shell ls -d /usr/src/linux-headers-*-amd64 2>/dev/null | sort -V | tail -n 1))
KMOD_BUILD ?= build-kmod

.PHONY: check-policies kmod kmod-clean

check-policies:
	sh tests/check_policies.sh policies $(EXAMPLE_POLICIES) $(EXTRA_POLICIES)

kmod:
	@if [ -z "$(KDIR)" ] || [ ! -d "$(KDIR)" ]; then \
	  echo "kmod: no kernel build tree: install linux-headers-amd64 or pass KDIR=" >&2; \
	  exit 1; fi
	@mkdir -p $(KMOD_BUILD)/linux
	@find $(KMOD_BUILD) -xtype l -delete
	@rm -f $(KMOD_BUILD)/*.[ch] $(KMOD_BUILD)/registry.o
	@for f in policies/*.[ch]; do ln -sf $(CURDIR)/$$f $(KMOD_BUILD)/; done
	$(KMOD_EXTRA)
	@for f in policies/linux/*.[ch] policies/linux/Kbuild; do \
	  ln -sf $(CURDIR)/$$f $(KMOD_BUILD)/linux/; done
	$(MAKE) -C $(KDIR) M=$(abspath $(KMOD_BUILD))/linux modules
	@echo "kmod: $(KMOD_BUILD)/linux/gpusim_policies.ko"

kmod-clean:
	rm -rf $(KMOD_BUILD)

# kstress: gpusim_stress.ko (policies/linux/stress/), kernel threads
# driving one instance of gpusim_policies.ko at once; built after kmod,
# against its Module.symvers. make ktest runs it in the same boot.
.PHONY: kstress
kstress: kmod
	@mkdir -p $(KMOD_BUILD)/linux/stress
	@for f in policies/linux/stress/*.c policies/linux/stress/Kbuild; do \
	  ln -sf $(CURDIR)/$$f $(KMOD_BUILD)/linux/stress/; done
	$(MAKE) -C $(KDIR) M=$(abspath $(KMOD_BUILD))/linux/stress \
	  KBUILD_EXTRA_SYMBOLS=$(abspath $(KMOD_BUILD))/linux/Module.symvers modules
	@echo "kstress: $(KMOD_BUILD)/linux/stress/gpusim_stress.ko"

# kreplay: gpusim_replay.ko (policies/linux/replay/), the replay of HAL
# records inside a kernel, built like kmod in a mirror of policies/.
KREPLAY_BUILD ?= build-kreplay
.PHONY: kreplay
kreplay:
	@if [ -z "$(KDIR)" ] || [ ! -d "$(KDIR)" ]; then \
	  echo "kreplay: no kernel build tree: install linux-headers-amd64 or pass KDIR=" >&2; \
	  exit 1; fi
	@mkdir -p $(KREPLAY_BUILD)/linux/replay $(KREPLAY_BUILD)/replay
	@find $(KREPLAY_BUILD) -xtype l -delete
	@for f in policies/*.[ch]; do ln -sf $(CURDIR)/$$f $(KREPLAY_BUILD)/; done
	@for f in policies/replay/*.[ch]; do \
	  ln -sf $(CURDIR)/$$f $(KREPLAY_BUILD)/replay/; done
	@for f in policies/linux/hal_impl.h policies/linux/hal_math.c \
	  policies/linux/params.c policies/linux/gs_linux_priv.h \
	  policies/linux/gs_linux.h; do \
	  ln -sf $(CURDIR)/$$f $(KREPLAY_BUILD)/linux/; done
	@for f in policies/linux/replay/*.c policies/linux/replay/Kbuild; do \
	  ln -sf $(CURDIR)/$$f $(KREPLAY_BUILD)/linux/replay/; done
	$(MAKE) -C $(KDIR) M=$(abspath $(KREPLAY_BUILD))/linux/replay modules
	@echo "kreplay: $(KREPLAY_BUILD)/linux/replay/gpusim_replay.ko"

# ktest: boots KERNEL (default: the /boot kernel the module was built
# for) under QEMU with gpusim_replay.ko and the records of every policy,
# and compares (scripts/ktest.sh). CI runs it (.ci/run); `make test` does not.
.PHONY: ktest
ktest: $(BIN) kreplay kstress
	KTEST_STRESS="$(KMOD_BUILD)/linux/gpusim_policies.ko $(KMOD_BUILD)/linux/stress/gpusim_stress.ko" \
	  sh scripts/ktest.sh ./$(BIN) $(KREPLAY_BUILD)/linux/replay/gpusim_replay.ko $(KERNEL)

# ktest32: the same in Debian's i386 kernel under qemu-system-i386, the
# modules built -m32 against its headers, all fetched with apt-get
# download into build-ktest32/ (scripts/ktest32.sh; needs the i386
# package lists: dpkg --add-architecture i386 && apt-get update).
.PHONY: ktest32
ktest32: $(BIN)
	sh scripts/ktest32.sh ./$(BIN)

# ---- Policies from outside policies/ (docs/writing-a-policy.md) ---------
#
# examples/policies/NAME.c: built as policy-modules/NAME.so beside the
# executable, where `policy: {module: NAME}` finds it (and installed to
# $(PREFIX)/lib/gpusim/policy-modules). `make kmod EXTRA_POLICIES=a.c b.c`
# adds policies kept anywhere to the kernel module: each is checked as
# the policies/ files are, linked into the module's build folder and
# named in a copy of the registry there (its ops table: gs_policy_NAME).
# The registry's object is always rebuilt: its source switches between
# that copy and a link to policies/registry.c, which may be older than
# the object.
EXAMPLE_POLICIES := $(sort $(wildcard examples/policies/*.c))
MODULE_DIR := $(patsubst %/,%,$(dir $(BIN)))/policy-modules
EXAMPLE_MODULES := $(EXAMPLE_POLICIES:examples/policies/%.c=$(MODULE_DIR)/%.so)
MODULE_CFLAGS = -std=c11 $(WARN) $(CPPFLAGS) $(CFLAGS) -fPIC \
		-Ipolicies -Isim/host/hal
EXTRA_POLICIES ?=

# (variables above are read when a rule is: these extend earlier rules;
# reproduce and bench run configs/beyond/, whose wrr_weights.yaml loads wrr)
all reproduce bench: $(EXAMPLE_MODULES)
clean: clean-modules
.PHONY: clean-modules
clean-modules:
	rm -rf $(MODULE_DIR) build-asan/policy-modules

$(MODULE_DIR)/%.so: examples/policies/%.c policies/hal.h policies/policy.h \
		    sim/host/hal/hal_impl.h
	@mkdir -p $(dir $@)
	$(CC) $(MODULE_CFLAGS) -shared $(LDFLAGS) -o $@ $<

KMOD_EXTRA_NAMES = $(subst -,_,$(basename $(notdir $(EXTRA_POLICIES))))
define KMOD_EXTRA
$(if $(EXTRA_POLICIES),sh tests/check_policies.sh policies $(EXTRA_POLICIES)
	$(foreach f,$(EXTRA_POLICIES),ln -sf $(abspath $(f)) $(KMOD_BUILD)/;)
	rm -f $(KMOD_BUILD)/registry.c
	sed $(foreach n,$(KMOD_EXTRA_NAMES),\
	  -e '/^const struct gs_policy_ops \*const gs_policy_registry/i extern const struct gs_policy_ops gs_policy_$(n);' \
	  -e '/^	0,$$/i \	&gs_policy_$(n),') \
	  policies/registry.c > $(KMOD_BUILD)/registry.c)
endef

# The example policies' own unit tests (tests/test_policy_NAME.c) link
# them with the mock HAL, as the policies/ tests do.
$(BUILD)/examples/%.o: ALL_CFLAGS += -Ipolicies
$(BUILD)/tests/test_policy_wrr: $(BUILD)/examples/policies/wrr.o

# ---- Installing (Debian's layout under PREFIX) --------------------------
#
# `gpusim reproduce` finds the scenarios at ../share/gpusim/configs from
# its own folder, plots/make_plots.sh its scripts and scenarios beside
# itself, a scenario's `module: NAME` the example policies in
# ../lib/gpusim/policy-modules, and `gpusim new-policy` the headers and
# the mock HAL a policy builds against in ../share/gpusim/dev (the source
# tree's paths, so a skeleton builds the same against either).
# CPPFLAGS, CFLAGS and LDFLAGS are honoured (dpkg-buildflags' hardening).
MANDIR ?= $(PREFIX)/share/man
DATADIR := $(PREFIX)/share/gpusim
COMPLETIONSDIR ?= $(PREFIX)/share/bash-completion/completions
DEV_FILES := $(wildcard policies/*.[ch]) sim/host/hal/hal_impl.h \
	     $(wildcard tests/support/mock_hal*.[ch])

install: $(BIN) $(EXAMPLE_MODULES)
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(DATADIR)/configs \
		$(DESTDIR)$(DATADIR)/plots $(DESTDIR)$(MANDIR)/man1 \
		$(DESTDIR)$(COMPLETIONSDIR) \
		$(DESTDIR)$(PREFIX)/lib/gpusim/policy-modules \
		$(DESTDIR)$(PREFIX)/share/doc/gpusim/examples
	install -m 755 $(BIN) $(DESTDIR)$(PREFIX)/bin/gpusim
	cp -r configs/. $(DESTDIR)$(DATADIR)/configs/
	install -m 644 $(wildcard plots/*.gp plots/*.awk) $(DESTDIR)$(DATADIR)/plots/
	install -m 755 plots/make_plots.sh $(DESTDIR)$(DATADIR)/plots/
	$(foreach f,$(DEV_FILES),install -D -m 644 $(f) $(DESTDIR)$(DATADIR)/dev/$(f);)
	$(if $(EXAMPLE_MODULES),install -m 644 $(EXAMPLE_MODULES) \
		$(DESTDIR)$(PREFIX)/lib/gpusim/policy-modules/)
	install -m 644 docs/gpusim.1 $(DESTDIR)$(MANDIR)/man1/gpusim.1
	install -m 644 scripts/gpusim.bash-completion $(DESTDIR)$(COMPLETIONSDIR)/gpusim
	install -m 644 docs/writing-a-policy.md $(DESTDIR)$(PREFIX)/share/doc/gpusim/
	install -m 644 $(EXAMPLE_POLICIES) $(DESTDIR)$(PREFIX)/share/doc/gpusim/examples/

uninstall:
	rm -f $(DESTDIR)$(PREFIX)/bin/gpusim $(DESTDIR)$(MANDIR)/man1/gpusim.1 \
	      $(DESTDIR)$(COMPLETIONSDIR)/gpusim
	rm -rf $(DESTDIR)$(DATADIR) $(DESTDIR)$(PREFIX)/lib/gpusim \
	       $(DESTDIR)$(PREFIX)/share/doc/gpusim
