/*
 * plan_cmd.c - "dtplan plan" (placeholder until the catalog search lands).
 */
#include "plan_cmd.h"

#include <stdio.h>

int plan_cmd_main(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    fprintf(stderr, "dtplan plan: not built yet\n");
    return 1;
}
