#!/bin/sh
# The seed corpus of each fuzz target, from the project's own files:
#   sh tests/fuzz/seeds.sh OUTDIR   ->  OUTDIR/scenario, OUTDIR/catalog, OUTDIR/profile
# scenario: every scenario of the repository, good and bad; catalog: each
# CSV of catalog/ and of the tests behind the byte that picks its file
# (fuzz_catalog.c: 0 gpus.csv, 1 instances.csv, 2 models.csv, 3 SkyPilot);
# profile: the calibration profiles of the tests, good and bad.
set -e
out=${1:?usage: seeds.sh OUTDIR}
rm -rf "$out/scenario" "$out/catalog" "$out/profile"
mkdir -p "$out/scenario" "$out/catalog" "$out/profile"
n=0
for f in scenarios/*.yaml scenarios/seeds/*.yaml tests/data/*.yaml tests/data/scenario_ok/*.yaml \
         tests/data/plan/*.yaml tests/data/cli/*.yaml tests/data/report/*.yaml tests/bad/*.yaml; do
    [ -f "$f" ] || continue
    n=$((n + 1))
    cp "$f" "$out/scenario/$n-$(basename "$f")"
done
seed() { # BYTE FILE NAME
    { printf "\\$1"; cat "$2"; } > "$out/catalog/$3"
}
seed 000 catalog/gpus.csv gpus.csv
seed 001 catalog/instances.csv instances.csv
seed 002 catalog/models.csv models.csv
n=0
for f in tests/data/catalog_bad/*/*.csv tests/data/catalog_bad/*.csv; do
    [ -f "$f" ] || continue
    n=$((n + 1))
    case $(basename "$f") in
        gpus.csv) seed 000 "$f" "bad$n-gpus.csv" ;;
        instances.csv) seed 001 "$f" "bad$n-instances.csv" ;;
        models.csv) seed 002 "$f" "bad$n-models.csv" ;;
    esac
done
for f in tests/data/skypilot/*/vms.csv tests/data/skypilot-bad/*.csv tests/data/skypilot-bad/*/*.csv; do
    [ -f "$f" ] || continue
    n=$((n + 1))
    seed 003 "$f" "sky$n-$(basename "$f")"
done
for f in tests/data/profiles/*.json tests/bad/profile_*.json; do
    [ -f "$f" ] || continue
    cp "$f" "$out/profile/$(basename "$f")"
done
echo "fuzz: seeds: $(ls "$out/scenario" | wc -l) scenarios, $(ls "$out/catalog" | wc -l) catalog files, $(ls "$out/profile" | wc -l) profiles in $out"
