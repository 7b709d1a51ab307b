/*
 * report_parts.c - the parts of a cluster's step as the reports show them
 * (report_parts.h): their values from a struct sim_result, the table's
 * headings and which of them a table shows, and the legend's words.
 * Cost: O(clusters) to choose the shown parts, O(parts) otherwise.
 */
#include "report_parts.h"

#include <math.h>

struct part_words {
    const char *head;           /* table heading */
    const char *legend;         /* legend: what it is */
};

static const struct part_words words[REPORT_NPARTS] = {
    [REPORT_PART_COMPUTE] = {"compute", "forward and backward"},
    [REPORT_PART_STALL] = {"stall", "waiting for input"},
    [REPORT_PART_DP_COMM] = {"dp comm", "data-parallel communication the compute does not hide "
                                        "(gradients; sharded, also the waits for parameters)"},
    [REPORT_PART_TP_COMM] = {"tp comm", "tensor-parallel collectives the layers wait for"},
    [REPORT_PART_EP_COMM] = {"ep comm", "expert parallelism's all-to-alls the MoE layers wait "
                                        "for"},
    [REPORT_PART_BUBBLE] = {"bubble", "pipeline bubble, the stage waiting on the others"},
    [REPORT_PART_INTERF] = {"interf", "backward time lost to collectives running beside it"},
    [REPORT_PART_OPT] = {"optim", "optimizer"},
};

double report_parts_dp_comm_s(const struct sim_result *r)
{
    double dp = r->exposed_comm_s - r->tp_comm_s - r->ep_comm_s;

    return fabs(dp) <= 1e-12 * r->exposed_comm_s ? 0 : dp;
}

void report_parts_of(const struct sim_result *r, double v[REPORT_NPARTS])
{
    v[REPORT_PART_COMPUTE] = r->compute_s;
    v[REPORT_PART_STALL] = r->data_stall_s;
    v[REPORT_PART_DP_COMM] = report_parts_dp_comm_s(r);
    v[REPORT_PART_TP_COMM] = r->tp_comm_s;
    v[REPORT_PART_EP_COMM] = r->ep_comm_s;
    v[REPORT_PART_BUBBLE] = r->pp_bubble_s;
    v[REPORT_PART_INTERF] = r->comm_interference_s;
    v[REPORT_PART_OPT] = r->optimizer_s;
}

const char *report_parts_head(enum report_part p)
{
    return words[p].head;
}

void report_parts_shown(const struct plan_cluster *pc, int n, size_t stride,
                        int show[REPORT_NPARTS])
{
    for (int p = 0; p < REPORT_NPARTS; p++)
        show[p] = p != REPORT_PART_TP_COMM && p != REPORT_PART_EP_COMM &&
                  p != REPORT_PART_BUBBLE;
    for (int i = 0; i < n; i++) {
        const struct sim_result *r =
            &((const struct plan_cluster *)((const char *)pc + (size_t)i * stride))->res;
        if (r->tp_comm_s > 0)
            show[REPORT_PART_TP_COMM] = 1;
        if (r->ep_comm_s > 0)
            show[REPORT_PART_EP_COMM] = 1;
        if (r->pp_bubble_s > 0)
            show[REPORT_PART_BUBBLE] = 1;
    }
}

void report_parts_sum(FILE *f, const int show[REPORT_NPARTS])
{
    int first = 1;

    for (int p = 0; p < REPORT_NPARTS; p++)
        if (show[p]) {
            fprintf(f, "%s%s", first ? "" : " + ", words[p].head);
            first = 0;
        }
    fprintf(f, " = step");
}

void report_parts_legend(FILE *f, const int show[REPORT_NPARTS])
{
    int first = 1;

    for (int p = 0; p < REPORT_NPARTS; p++)
        if (show[p]) {
            fprintf(f, "%s%s: %s", first ? "" : "; ", words[p].head, words[p].legend);
            first = 0;
        }
}
