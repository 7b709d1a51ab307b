/*
 * calibrate.c - "dtplan calibrate" (placeholder until the calibration
 * command lands; see calibrate/README.md).
 */
#include "calibrate.h"

#include <stdio.h>

int calibrate_main(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    fprintf(stderr, "dtplan calibrate: not built yet (see calibrate/README.md)\n");
    return 1;
}
