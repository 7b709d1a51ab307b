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

int main(int argc, char **argv)
{
    const char *target = getenv("DT_FUZZ_TARGET");
    int rc = 0;

    LLVMFuzzerInitialize(&argc, &argv);
    for (int i = 1; i < argc; i++) {
        size_t n;
        char *d = fuzz_read(argv[i], &n);
        if (!d) {
            printf("FAIL - %s: %s: cannot read\n", target ? target : "fuzz", argv[i]);
            rc = 1;
            continue;
        }
        LLVMFuzzerTestOneInput((const unsigned char *)d, n);
        free(d);
        printf("ok - %s: %s replays with every promise kept\n", target ? target : "fuzz",
               argv[i]);
    }
    return rc;
}
