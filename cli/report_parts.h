/*
 * report_parts.h - the parts a cluster's step splits into, as every report
 * shows them (the listed clusters' table, JSON and CSV in report.c; the
 * search's in report_search.c): compute, input stall, data-parallel
 * communication, tensor-parallel communication, expert parallelism's
 * all-to-alls, pipeline bubble, interference and optimizer.
 *
 * They add up to the mean step (sim/sim.h, struct sim_result):
 *
 *   step_mean_s = compute_s + data_stall_s
 *               + (exposed_comm_s - tp_comm_s - ep_comm_s) + tp_comm_s + ep_comm_s
 *               + pp_bubble_s + comm_interference_s + optimizer_s
 *
 * since the simulator splits every moment of its slowest worker's step into
 * exactly one of them (docs/output.md "Where the step goes").  These
 * functions only name and pick the parts; they compute nothing new.
 */
#ifndef DT_REPORT_PARTS_H
#define DT_REPORT_PARTS_H

#include <stddef.h>
#include <stdio.h>

#include "../planner/planner.h"

enum report_part {
    REPORT_PART_COMPUTE,        /* forward and backward at full speed */
    REPORT_PART_STALL,          /* waiting for an input batch */
    REPORT_PART_DP_COMM,        /* data-parallel communication not hidden behind compute */
    REPORT_PART_TP_COMM,        /* tensor-parallel collectives a layer waits for */
    REPORT_PART_EP_COMM,        /* all-to-alls the MoE layers wait for */
    REPORT_PART_BUBBLE,         /* pipeline bubble */
    REPORT_PART_INTERF,         /* compute lost to collectives in flight */
    REPORT_PART_OPT,            /* optimizer */
    REPORT_NPARTS
};

/* r's data-parallel communication, exposed_comm_s less tp_comm_s and ep_comm_s, in
 * seconds; 0 where the two differ by their floating-point rounding only
 * (never a "-0.0" cell). */
double report_parts_dp_comm_s(const struct sim_result *r);

/* The parts of r's mean step, in seconds, in enum report_part's order. */
void report_parts_of(const struct sim_result *r, double v[REPORT_NPARTS]);

/* The table's heading of part p ("dp comm"). */
const char *report_parts_head(enum report_part p);

/* Which parts a table of n clusters (stride bytes apart, the first at pc)
 * shows: all but the tensor-parallel, expert all-to-all and bubble parts,
 * and those where a cluster has a nonzero one. */
void report_parts_shown(const struct plan_cluster *pc, int n, size_t stride,
                        int show[REPORT_NPARTS]);

/* "compute + stall + ... = step" with the shown parts; no newline. */
void report_parts_sum(FILE *f, const int show[REPORT_NPARTS]);

/* The legend's words for the shown parts, "compute: forward and backward;
 * stall: ..."; no newline. */
void report_parts_legend(FILE *f, const int show[REPORT_NPARTS]);

#endif
