#!/bin/sh
# The layers run one way (docs/architecture.md):
#   base <- (sim, catalog) <- scenario <- planner <- cli
#   base <- catalog <- calibrate <- cli
# 1. No file of a layer includes a header of a layer above it or beside it
#    (sim and catalog include neither each other; calibrate includes no
#    planner, scenario, sim or cli header).
# 2. The simulation core includes no YAML, JSON, MPI or CUDA header.
# 3. The build enforces it: an object that calls from sim into the catalog,
#    or from the catalog into sim, does not link against its own layer's
#    archives (and does with the other's).
# 4. Within a layer, calls run one way: no files call each other in a loop
#    (tests/circles.pl, over the objects' symbols).
# 5. The simulator's core (its event loop, checks, results and listing of
#    collectives) names no parallel dimension: each is a plug-in (sim/dim.h).
# Prints "ok - ..." / "FAIL - ..." lines for tests/run.sh.  Run from the
# repository root after make; BUILD defaults to build, and LDFLAGS is
# passed to the link (make check sets the sanitizers there).
BUILD=${BUILD:-build}
status=0

# The layers each layer may include, itself included.
allowed() {
    case $1 in
    base) echo "base" ;;
    sim) echo "sim base" ;;
    catalog) echo "catalog base" ;;
    scenario) echo "scenario catalog sim base" ;;
    planner) echo "planner scenario catalog sim base" ;;
    calibrate) echo "calibrate catalog base" ;;
    cli) echo "cli calibrate planner scenario catalog sim base" ;;
    esac
}

for layer in base sim catalog scenario planner calibrate cli; do
    bad=""
    ok_dirs=$(allowed "$layer")
    for f in $(find "$layer" -name '*.[ch]' -o -name '*.cu' | sort); do
        # the folder an include lands in, from the including file's folder
        dir=$(dirname "$f")
        for inc in $(sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$f"); do
            target=$(cd "$dir" 2>/dev/null && cd "$(dirname "$inc")" 2>/dev/null && pwd)
            top=$(pwd)
            rel=${target#"$top"/}
            to=${rel%%/*}
            case " $ok_dirs " in
            *" $to "*) ;;
            *) bad="$bad $f:$inc" ;;
            esac
        done
    done
    if [ -z "$bad" ]; then
        echo "ok - layers: $layer includes only $(echo "$ok_dirs" | sed 's/ /, /g')"
    else
        echo "FAIL - layers: $layer reaches up:$bad"
        status=1
    fi
done

core=$(grep -lE '#[[:space:]]*include[[:space:]]*<(yaml|cJSON|mpi|cuda|nccl|cublas)' sim/*.[ch] base/xmem.[ch] 2>/dev/null)
if [ -z "$core" ]; then
    echo "ok - layers: the simulation core includes no YAML, JSON, MPI or CUDA header"
else
    echo "FAIL - layers: the simulation core includes a front-end header: $core"
    status=1
fi

# sim and catalog are siblings: an object that calls the catalog from the
# simulator's layer must not link, nor one that calls sim from the catalog's.
if [ -f "$BUILD/libdt-sim.a" ] && [ -f "$BUILD/libdt-catalog.a" ]; then
    tmp=$(mktemp -d "${TMPDIR:-/tmp}/dtplan-layers.XXXXXX") || exit 1
    trap 'rm -rf "$tmp"' EXIT
    cat > "$tmp/up.c" <<'EOF'
#include <stddef.h>
struct catalog;
const void *catalog_find_gpu(const struct catalog *cat, const char *name);
int main(void) { return catalog_find_gpu(NULL, "A100") != NULL; }
EOF
    gsl=$(pkg-config --libs gsl 2>/dev/null)
    cjson=$(pkg-config --libs libcjson 2>/dev/null)
    if ${CC:-cc} $LDFLAGS -o "$tmp/up" "$tmp/up.c" "$BUILD/libdt-sim.a" "$BUILD/libdt-base.a" \
        $gsl -lm >"$tmp/log" 2>&1; then
        echo "FAIL - layers: a call from the sim layer into the catalog linked against sim and base alone"
        status=1
    elif grep -q 'undefined reference to .catalog_find_gpu' "$tmp/log"; then
        echo "ok - layers: a call from the sim layer into its sibling catalog fails to link (catalog_find_gpu undefined)"
    else
        echo "FAIL - layers: the sideways link failed for another reason: $(head -n 1 "$tmp/log")"
        status=1
    fi
    if ${CC:-cc} $LDFLAGS -o "$tmp/up" "$tmp/up.c" "$BUILD/libdt-catalog.a" "$BUILD/libdt-base.a" \
        $cjson -lm >"$tmp/log" 2>&1; then
        echo "ok - layers: the same call links with the catalog layer's archives"
    else
        echo "FAIL - layers: the catalog layer's archives do not link: $(head -n 1 "$tmp/log")"
        status=1
    fi
    # and the other way
    cat > "$tmp/across.c" <<'EOF'
#include <stddef.h>
int sim_collectives(const void *cfg, void *out, int max);
int main(void) { return sim_collectives(NULL, NULL, 0); }
EOF
    if ${CC:-cc} $LDFLAGS -o "$tmp/across" "$tmp/across.c" "$BUILD/libdt-catalog.a" \
        "$BUILD/libdt-base.a" $cjson -lm >"$tmp/log" 2>&1; then
        echo "FAIL - layers: a call from the catalog layer into sim linked against catalog and base alone"
        status=1
    elif grep -q 'undefined reference to .sim_collectives' "$tmp/log"; then
        echo "ok - layers: a call from the catalog layer into its sibling sim fails to link (sim_collectives undefined)"
    else
        echo "FAIL - layers: the sideways link failed for another reason: $(head -n 1 "$tmp/log")"
        status=1
    fi
else
    echo "FAIL - layers: $BUILD/libdt-sim.a or libdt-catalog.a is missing (run make)"
    status=1
fi

# docs/architecture.md's layer table names every source file of each layer
# (`FILE` in the layer's row, FILE relative to the layer's folder; a glob
# such as `coll*.c` names none), and no .c or .cu file that is gone.
doc=docs/architecture.md
for layer in base sim catalog scenario planner calibrate cli; do
    row=$(grep "^| \`$layer/\` |" "$doc")
    if [ -z "$row" ]; then
        echo "FAIL - layers: $doc has no row for $layer/"
        status=1
        continue
    fi
    missing=""
    for f in $(cd "$layer" && find . -name '*.c' -o -name '*.cu' | sed 's|^\./||' | sort); do
        case $row in
        *"\`$f\`"*) ;;
        *) missing="$missing $f" ;;
        esac
    done
    gone=""
    for f in $(printf '%s\n' "$row" | grep -o '`[A-Za-z0-9_./]*\.cu*`' | tr -d '`' | sort -u); do
        [ -f "$layer/$f" ] || [ -f "$f" ] || gone="$gone $f"
    done
    if [ -n "$missing" ]; then
        echo "FAIL - layers: $doc does not name these files of $layer/:$missing"
        status=1
    elif [ -n "$gone" ]; then
        echo "FAIL - layers: $doc names files $layer/ does not have:$gone"
        status=1
    else
        echo "ok - layers: $doc names every source file of $layer/"
    fi
done
# No circle of calls among the files of a layer.
if circles=$(perl tests/circles.pl "$BUILD" base sim catalog scenario planner calibrate cli 2>&1); then
    echo "ok - layers: no two files of a layer call each other in a loop"
else
    echo "FAIL - layers: files that call each other in a loop: $(echo "$circles" | tr '\n' ';')"
    status=1
fi

# The core of the simulator reaches the parallel dimensions through
# sim/dim.c's table only: no field, value or function of one in its files.
core="sim/sim.c sim/sim_check.c sim/sim_stats.c sim/sim_collectives.c sim/sim_int.h sim/dim.c"
named=$(grep -nE '(\.|->)(shard|tp|pp|tp_[a-z_]+|pp_[a-z_]+|param_bytes|units|micro_batches)\b|SIM_SHARD_|SIM_ORDER_|\b(shard|tp|pp)_[a-z_]+\(' $core |
        grep -vE '^[^:]*:[0-9]+:\s*(/?\*|//)' | grep -v 'sim_dim_' | head -n 3)
if [ -z "$named" ]; then
    echo "ok - layers: the simulator's core names no parallel dimension (sim/dim.h)"
else
    echo "FAIL - layers: the simulator's core names a parallel dimension: $(echo "$named" | tr '\n' ' ')"
    status=1
fi

exit $status
