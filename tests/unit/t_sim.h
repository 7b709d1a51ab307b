/*
 * t_sim.h - what the simulator tests share (test_shard.c, test_tp.c):
 * run a config, printing the simulator's error as a TAP comment.
 */
#ifndef DT_T_SIM_H
#define DT_T_SIM_H

#include <stdio.h>

#include "../../sim/sim.h"

static int run(const struct sim_config *c, struct sim_result *r)
{
    struct dt_err e;
    if (sim_run(c, r, &e)) {
        printf("# sim error: %s\n", e.msg);
        return -1;
    }
    return 0;
}

#endif
