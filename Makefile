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

SIM_SRC     := $(wildcard sim/*.c)
CATALOG_SRC := $(wildcard catalog/*.c)
PLANNER_SRC := $(wildcard planner/*.c)
CLI_SRC     := $(filter-out cli/main.c,$(wildcard cli/*.c))
CALIB_SRC   := $(wildcard calibrate/*.c)
LIB_SRC     := $(SIM_SRC) $(CATALOG_SRC) $(PLANNER_SRC) $(CLI_SRC) $(CALIB_SRC)
LIB_OBJ     := $(LIB_SRC:%.c=$(BUILD)/%.o)
UNIT_SRC    := $(wildcard tests/unit/test_*.c)
UNIT_BIN    := $(UNIT_SRC:tests/unit/%.c=$(BUILD)/tests/%)
BENCH_SRC   := $(wildcard bench/*.c)
BENCH_BIN   := $(BENCH_SRC:bench/%.c=$(BUILD)/bench/%)

all: $(BUILD)/dtplan dtplan

# Optional parts (CUDA calibration kernels, ...) add rules and objects here.
-include calibrate/calibrate.mk

# ./dtplan points at the default build only, never at build-san's.
dtplan: $(BUILD)/dtplan
	@if [ "$(BUILD)" = build ]; then ln -sf build/dtplan dtplan; fi

$(BUILD)/libdt.a: $(LIB_OBJ)
	@mkdir -p $(dir $@)
	@rm -f $@
	$(AR) rcs $@ $^

$(BUILD)/dtplan: $(BUILD)/cli/main.o $(BUILD)/libdt.a
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(LDLIBS)

$(BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -c -o $@ $<

$(BUILD)/tests/%: tests/unit/%.c $(BUILD)/libdt.a
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $< $(BUILD)/libdt.a $(LDLIBS)

$(BUILD)/bench/%: bench/%.c $(BUILD)/libdt.a
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $< $(BUILD)/libdt.a $(LDLIBS)

units: $(UNIT_BIN)

test: all units
	@BUILD=$(BUILD) sh tests/run.sh

# Everything again under AddressSanitizer and UBSan, in a separate build tree.
check:
	$(MAKE) BUILD=build-san OPT="-O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all" \
	    LDFLAGS="-fsanitize=address,undefined" test

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

.PHONY: all test check bench install clean units
-include $(LIB_OBJ:.o=.d) $(BUILD)/cli/main.d

# The validation trainer (validate/trainer.c, docs/validation.md): an MPI
# data-parallel trainer whose step times dtplan's predictions are checked
# against.  `make validate` runs the full matrix; `make test` runs a subset.
VALIDATE_BIN := $(BUILD)/validate/trainer
$(VALIDATE_BIN): validate/trainer.c $(BUILD)/libdt.a
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $< $(BUILD)/libdt.a $(LDLIBS) -lpthread
test: $(VALIDATE_BIN)
validate: all $(VALIDATE_BIN)
	@BUILD=$(BUILD) perl validate/validate.pl
.PHONY: validate
