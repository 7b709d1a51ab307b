/*
 * fuzz_catalog.c - libFuzzer target: the catalog's CSV files through the
 * loader.  The first byte picks the file the rest replaces (its value mod
 * 4): 0 gpus.csv, 1 instances.csv, 2 models.csv in a copy of the catalog
 * directory, 3 a SkyPilot vms.csv read over the catalog
 * (catalog_use_skypilot).  The seeds (tests/fuzz/seeds.sh) are the
 * project's own files behind their byte.  An input is refused with one
 * printable error line, or loads a catalog whose names and sources are
 * printable text; nothing else (fuzz.h).
 *
 * $DT_FUZZ_CATALOG is the catalog directory copied (default: catalog).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fuzz.h"
#include "../../base/text.h"
#include "../../catalog/catalog.h"

static const char *const files[3] = {"gpus.csv", "instances.csv", "models.csv"};
static char dir[4096], paths[3][4200];
static char *orig[3];
static size_t orig_len[3];

static void rm_dir(void)
{
    for (int i = 0; i < 3; i++)
        unlink(paths[i]);
    rmdir(dir);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    const char *src = getenv("DT_FUZZ_CATALOG");
    const char *tmp = getenv("TMPDIR");
    char from[4200];

    (void)argc;
    (void)argv;
    src = src && *src ? src : "catalog";
    snprintf(dir, sizeof dir, "%s/dtplan-fuzz-cat-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(dir)) {
        perror("fuzz: mkdtemp");
        abort();
    }
    for (int i = 0; i < 3; i++) {
        snprintf(from, sizeof from, "%s/%s", src, files[i]);
        snprintf(paths[i], sizeof paths[i], "%s/%s", dir, files[i]);
        if (!(orig[i] = fuzz_read(from, &orig_len[i]))) {
            perror(from);
            abort();
        }
        fuzz_write(paths[i], orig[i], orig_len[i]);
    }
    atexit(rm_dir);
    return 0;
}

/* Every text a loaded catalog holds reaches tables, JSON and error lines. */
static void check_catalog(const struct catalog *cat)
{
    for (int i = 0; i < cat->ngpus; i++)
        if (!text_ok(cat->gpus[i].name) || (cat->gpus[i].source && !text_ok(cat->gpus[i].source)))
            abort();
    for (int i = 0; i < cat->ninstances; i++) {
        const struct cat_instance *in = &cat->instances[i];
        if (!text_ok(in->name) || !text_ok(in->region) || !text_ok(in->gpu_model) ||
            (in->source && !text_ok(in->source)))
            abort();
    }
    for (int i = 0; i < cat->nmodels; i++)
        if (!text_ok(cat->models[i].name))
            abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct catalog cat;
    struct dt_err e = {{0}};
    int which;

    if (size < 1)
        return 0;
    which = data[0] % 4;
    memset(&cat, 0, sizeof cat);
    if (which < 3) {
        fuzz_write(paths[which], data + 1, size - 1);
        if (catalog_load(&cat, dir, &e))
            fuzz_check_msg("catalog_load", e.msg);
        else
            check_catalog(&cat);
        fuzz_write(paths[which], orig[which], orig_len[which]);
    } else {
        const char *vms = fuzz_scratch(0, "vms.csv");
        const char *list[1] = {vms};
        fuzz_write(vms, data + 1, size - 1);
        if (catalog_load(&cat, dir, &e))
            abort();        /* the unchanged catalog always loads */
        if (catalog_use_skypilot(&cat, list, 1, &e))
            fuzz_check_msg("catalog_use_skypilot", e.msg);
        else
            check_catalog(&cat);
    }
    catalog_free(&cat);
    return 0;
}
