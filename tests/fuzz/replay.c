/*
 * replay.c - a fuzz target without libFuzzer: runs it once on each file
 * named on the command line (the regression inputs of tests/fuzz/regress/,
 * or a corpus), under any compiler.  Prints "ok - TARGET: FILE" for each
 * input that returns; an input that breaks a promise aborts (fuzz.h), and
 * the suite (tests/suite_fuzz.sh) reports it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"

static unsigned char *slurp(const char *path, size_t *n)
{
    FILE *f = fopen(path, "rb");
    unsigned char *buf = NULL;
    size_t cap = 0, got;

    *n = 0;
    if (!f)
        return NULL;
    do {
        if (*n + 4096 > cap) {
            cap = 2 * cap + 4096;
            buf = realloc(buf, cap);
            if (!buf)
                abort();
        }
        got = fread(buf + *n, 1, cap - *n, f);
        *n += got;
    } while (got > 0);
    fclose(f);
    return buf;
}

int main(int argc, char **argv)
{
    const char *target = getenv("DT_FUZZ_TARGET");
    int rc = 0;

    LLVMFuzzerInitialize(&argc, &argv);
    for (int i = 1; i < argc; i++) {
        size_t n;
        unsigned char *d = slurp(argv[i], &n);
        if (!d) {
            printf("FAIL - %s: %s: cannot read\n", target ? target : "fuzz", argv[i]);
            rc = 1;
            continue;
        }
        LLVMFuzzerTestOneInput(d ? d : (const unsigned char *)"", n);
        free(d);
        printf("ok - %s: %s replays with every promise kept\n", target ? target : "fuzz",
               argv[i]);
    }
    return rc;
}
