# dtplan build.  make | make test | make check | make bench | make install PREFIX=... | make clean
#
# Dependencies through pkg-config: gsl, libcjson, yaml-0.1, ompi-c (Open MPI).
# The simulation core (sim/) needs only libm and GSL.  The CUDA parts of
# calibrate/ are built by calibrate/calibrate.mk when nvcc is found.

PREFIX  ?= /usr/local
CC      ?= cc
PKGS    := gsl libcjson yaml-0.1 ompi-c
PKG_CFLAGS := $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
PKG_LIBS   := $(shell pkg-config --libs $(PKGS) 2>/dev/null)

WARN    := -std=c11 -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -Wmissing-prototypes
OPT     ?= -O2 -g
CFLAGS  += $(WARN) $(OPT) -D_POSIX_C_SOURCE=200809L $(PKG_CFLAGS) -MMD -MP
LDLIBS  += $(PKG_LIBS) -lm

BUILD   ?= build
SAN     :=

# Program rules name their layer's archives in a second expansion.
.SECONDEXPANSION:

# One archive per layer.  Layers run one way (docs/architecture.md):
#   base <- (sim, catalog) <- scenario <- planner <- cli
#   base <- catalog <- calibrate <- cli
# sim and catalog are siblings: neither uses the other.  A program links its
# own layer and those below it, highest first, so a call that reaches up (or
# across, between sim and catalog) has nothing to resolve against and fails
# to link.
LAYERS        := base sim catalog scenario planner calibrate cli
base_SRC      := $(wildcard base/*.c)
sim_SRC       := $(wildcard sim/*.c)
catalog_SRC   := $(wildcard catalog/*.c)
scenario_SRC  := $(wildcard scenario/*.c)
planner_SRC   := $(wildcard planner/*.c)
calibrate_SRC := $(wildcard calibrate/*.c)
cli_SRC       := $(filter-out cli/main.c,$(wildcard cli/*.c))
$(foreach l,$(LAYERS),$(eval $(l)_OBJ := $$($(l)_SRC:%.c=$$(BUILD)/%.o)))

# What each layer links: itself and everything below it.
base_LINK      := base
sim_LINK       := sim base
catalog_LINK   := catalog base
scenario_LINK  := scenario catalog sim base
planner_LINK   := planner scenario catalog sim base
calibrate_LINK := calibrate catalog base
cli_LINK       := cli calibrate planner scenario catalog sim base
ARCHIVES = $(foreach l,$($(1)_LINK),$(BUILD)/libdt-$(l).a)

# The system libraries a layer may use: the core gets GSL and libm only, so
# a simulator that reached for YAML, JSON or MPI would not link either.
GSL_LIBS       := $(shell pkg-config --libs gsl 2>/dev/null) -lm
base_LIBS      := $(LDLIBS)
sim_LIBS       := $(GSL_LIBS)
catalog_LIBS   := $(shell pkg-config --libs libcjson 2>/dev/null) -lm
scenario_LIBS  := $(shell pkg-config --libs gsl libcjson 2>/dev/null) -lm
planner_LIBS   := $(scenario_LIBS)
calibrate_LIBS := $(LDLIBS)
cli_LIBS       := $(LDLIBS)

# The layer of each test and benchmark program (default: the front end,
# which links everything).  A test of a layer links without those above it.
# predict (tests/netns) uses the simulator and cJSON: scenario is the lowest
# layer that links both.  test_pp also runs a scenario through the planner
# and the catalog (issue 36's): the front end's, like test_resolve.
LAYER_test_sim        := sim
LAYER_test_nccl       := sim
LAYER_test_rccl       := sim
LAYER_test_shard      := sim
LAYER_test_tp         := sim
LAYER_test_ep         := sim
LAYER_bench_sim       := sim
LAYER_bench_trace     := sim
LAYER_predict         := scenario
LAYER_test_catalog    := catalog
LAYER_test_plan       := planner
LAYER_test_compute    := planner
LAYER_test_memory     := planner
LAYER_test_offload    := planner
LAYER_test_goodput    := planner
LAYER_test_layout_dims := planner
LAYER_test_calib_cpu  := calibrate
LAYER_test_calib_gpu  := calibrate
LAYER_test_calib_mpi  := calibrate
LAYER_test_fit        := calibrate
LAYER_calib_mpi_main  := calibrate
LAYER_bench_cpu_kern  := calibrate
LAYER_trainer         := calibrate
LAYER_tcprate         := base
LAYER_test_args       := base
LAYER_test_fields     := scenario
LAYER_test_text       := base
LAYER_test_memo       := base
layer_of = $(or $(LAYER_$(1)),cli)

# Fuzz targets (tests/fuzz/; docs/cli.md "Fuzzing"), each built two ways:
# with a replay driver under any compiler, which `make test` runs on the
# regression inputs (tests/suite_fuzz.sh), and with clang's libFuzzer for
# `make fuzz FUZZ_SECONDS=N` (each target N seconds; `make check` runs them
# briefly when clang is present).
FUZZ_TARGETS := scenario catalog profile
FUZZ_REPLAY  := $(FUZZ_TARGETS:%=$(BUILD)/fuzz/replay_%)
FUZZ_BUILD   ?= build-fuzz
FUZZ_CC      ?= clang
FUZZ_SECONDS ?= 60
FUZZ_SAN     := -fsanitize=address,undefined,float-cast-overflow -fno-sanitize-recover=all

UNIT_SRC    := $(wildcard tests/unit/test_*.c)
UNIT_BIN    := $(UNIT_SRC:tests/unit/%.c=$(BUILD)/tests/%)
BENCH_SRC   := $(wildcard bench/*.c)
BENCH_BIN   := $(BENCH_SRC:bench/%.c=$(BUILD)/bench/%)

all: $(BUILD)/dtplan dtplan

# Optional parts (CUDA calibration kernels, ...) add rules and objects here.
-include calibrate/calibrate.mk
LIB_OBJ     := $(foreach l,$(LAYERS),$($(l)_OBJ))

# ./dtplan points at the default build only, never at build-san's.
dtplan: $(BUILD)/dtplan
	@if [ "$(BUILD)" = build ]; then ln -sf build/dtplan dtplan; fi

define LAYER_ARCHIVE
$$(BUILD)/libdt-$(1).a: $$($(1)_OBJ)
	@mkdir -p $$(dir $$@)
	@rm -f $$@
	$$(AR) rcs $$@ $$^
endef
$(foreach l,$(LAYERS),$(eval $(call LAYER_ARCHIVE,$(l))))

$(BUILD)/dtplan: $(BUILD)/cli/main.o $(call ARCHIVES,cli)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(cli_LIBS)

$(BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -c -o $@ $<

# A program of layer L: its source, then L's archives, then L's libraries.
LINK_PROG = $(CC) $(CFLAGS) $(LDFLAGS) -o $@ $< $(call ARCHIVES,$(call layer_of,$(1))) \
	    $($(call layer_of,$(1))_LIBS)

$(BUILD)/tests/%: tests/unit/%.c $$(call ARCHIVES,$$(call layer_of,$$*))
	@mkdir -p $(dir $@)
	$(call LINK_PROG,$*)

$(BUILD)/bench/%: bench/%.c $$(call ARCHIVES,$$(call layer_of,$$*))
	@mkdir -p $(dir $@)
	$(call LINK_PROG,$*)

units: $(UNIT_BIN) $(FUZZ_REPLAY)

$(BUILD)/fuzz/replay_%: tests/fuzz/fuzz_%.c tests/fuzz/fuzz.c tests/fuzz/replay.c \
		tests/fuzz/fuzz.h $(call ARCHIVES,cli)
	@mkdir -p $(dir $@)
	$(CC) $(filter-out -MMD -MP,$(CFLAGS)) $(LDFLAGS) -o $@ $(filter %.c,$^) \
	    $(call ARCHIVES,cli) $(cli_LIBS)

$(BUILD)/fuzz/fuzz_%: tests/fuzz/fuzz_%.c tests/fuzz/fuzz.c tests/fuzz/fuzz.h $(call ARCHIVES,cli)
	@mkdir -p $(dir $@)
	$(CC) $(filter-out -MMD -MP,$(CFLAGS)) $(LDFLAGS) -fsanitize=fuzzer -o $@ $(filter %.c,$^) \
	    $(call ARCHIVES,cli) $(cli_LIBS)

# libFuzzer builds of the targets, in their own tree, then a run of each.
fuzz-build:
	@command -v $(FUZZ_CC) > /dev/null || { echo "fuzz: $(FUZZ_CC) not found (set FUZZ_CC)"; exit 2; }
	$(MAKE) BUILD=$(FUZZ_BUILD) CC=$(FUZZ_CC) NVCC= \
	    OPT="-O1 -g -fno-omit-frame-pointer -fsanitize=fuzzer-no-link $(FUZZ_SAN)" \
	    LDFLAGS="$(FUZZ_SAN)" $(FUZZ_TARGETS:%=$(FUZZ_BUILD)/fuzz/fuzz_%)

fuzz: fuzz-build
	@sh tests/fuzz/run.sh $(FUZZ_BUILD) $(FUZZ_SECONDS) $(FUZZ_TARGETS)

# tests/run.sh runs the unit programs and suites side by side, DT_TEST_JOBS at
# a time (default: the processor count), each run in its own tests/out/run.PID.
# test_fuzz damages DT_FUZZ_N scenarios and a quarter of that of each other
# kind: 200 under `make test` (every kind still reaches both the report and
# the error path), the full CHECK_FUZZ_N (600) under `make check`.
DT_FUZZ_N    ?= 200
CHECK_FUZZ_N ?= 600
test: all units
	@BUILD=$(BUILD) DT_FUZZ_N=$(DT_FUZZ_N) sh tests/run.sh

# Everything again under AddressSanitizer and UBSan, in a separate build tree,
# with test_fuzz's full count of cases (CHECK_FUZZ_N).  gcc's
# -fsanitize=undefined leaves out float-cast-overflow (a NaN or an
# out-of-range double converted to an integer): asked for by name.  Then
# each fuzz target for FUZZ_CHECK_SECONDS when clang is present.
FUZZ_CHECK_SECONDS ?= 20
check:
	$(MAKE) BUILD=build-san OPT="-O1 -g -fsanitize=address,undefined,float-cast-overflow -fno-omit-frame-pointer -fno-sanitize-recover=all" \
	    LDFLAGS="-fsanitize=address,undefined,float-cast-overflow" DT_FUZZ_N=$(CHECK_FUZZ_N) test
	@if command -v $(FUZZ_CC) > /dev/null; then \
	    $(MAKE) --no-print-directory fuzz FUZZ_SECONDS=$(FUZZ_CHECK_SECONDS); \
	else echo "fuzz: skipped: $(FUZZ_CC) not found (make check runs each fuzz target when it is)"; fi

bench: $(BENCH_BIN) $(BUILD)/dtplan
	@for b in $(BENCH_BIN); do $$b || exit 1; done

install: all
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/dtplan/catalog
	install -m 755 $(BUILD)/dtplan $(DESTDIR)$(PREFIX)/bin/dtplan
	install -m 644 catalog/*.csv $(DESTDIR)$(PREFIX)/share/dtplan/catalog/
	install -d $(DESTDIR)$(PREFIX)/share/man/man1 $(DESTDIR)$(PREFIX)/share/bash-completion/completions
	install -m 644 docs/dtplan.1 $(DESTDIR)$(PREFIX)/share/man/man1/dtplan.1
	install -m 644 completions/dtplan.bash $(DESTDIR)$(PREFIX)/share/bash-completion/completions/dtplan
	if [ -n "$(GPU_SO)" ]; then install -d $(DESTDIR)$(PREFIX)/lib/dtplan && \
	    install -m 755 $(GPU_SO) $(DESTDIR)$(PREFIX)/lib/dtplan/; fi

clean:
	rm -rf build build-san build-* dtplan tests/out

.PHONY: all test check bench install clean units fuzz fuzz-build
-include $(LIB_OBJ:.o=.d) $(BUILD)/cli/main.d

# The validation trainer (validate/trainer.c, docs/validation.md): an MPI
# data-parallel trainer whose step times dtplan's predictions are checked
# against.  `make validate` runs the full matrix; `make test` runs a subset.
VALIDATE_BIN := $(BUILD)/validate/trainer
$(VALIDATE_BIN): validate/trainer.c $(call ARCHIVES,calibrate)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $< $(call ARCHIVES,calibrate) $(calibrate_LIBS) -lpthread
test: $(VALIDATE_BIN)
validate: all $(VALIDATE_BIN)
	@BUILD=$(BUILD) perl validate/validate.pl
.PHONY: validate

# dtplan against published LLM training runs (validate/published/llm_runs.csv):
# one line a case, catalog alone and carried from each group's first row.
validate-llm: all
	@BUILD=$(BUILD) perl validate/llm_runs.pl
.PHONY: validate-llm
