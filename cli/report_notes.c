/*
 * report_notes.c - the lines under a report's table, a cluster each: what
 * its batch, precision, collectives and chosen layout came to (Batch:,
 * Precision:, Collectives:, Layout:, Experts:, Host:, Pipeline:), for the
 * scenario's report and the search's (report.h).
 *
 * Field meanings: docs/output.md.
 */
#include "report.h"
#include "report_parts.h"
#include "../base/units.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* The cluster at index i of an array of n elements of `stride` bytes, the
 * first at pc (plan_report's clusters, or the search's picks). */
const struct plan_cluster *report_nth(const struct plan_cluster *pc, size_t stride, int i)
{
    return (const struct plan_cluster *)((const char *)pc + (size_t)i * stride);
}

void report_batch_notes(FILE *f, const struct plan_cluster *pc, int n, size_t stride)
{
    for (int i = 0; i < n; i++) {
        const struct plan_cluster *p = report_nth(pc, stride, i);
        if (p->batch_note[0])
            fprintf(f, "Batch: %s: %s\n", p->cl->name, p->batch_note);
    }
}

void report_precision_notes(FILE *f, const struct plan_cluster *pc, int n, size_t stride)
{
    for (int i = 0; i < n; i++) {
        const char *note = report_nth(pc, stride, i)->compute_note;
        int seen = 0;
        for (int k = 0; k < i && note[0]; k++)
            seen |= strcmp(report_nth(pc, stride, k)->compute_note, note) == 0;
        if (note[0] && !seen)
            fprintf(f, "Precision: %s\n", note);
    }
}

/* all_reduce as a sentence says it */
static const char *coll_words(const char *name)
{
    return strcmp(name, "all_gather") == 0       ? "all-gather"
           : strcmp(name, "reduce_scatter") == 0 ? "reduce-scatter"
                                                 : "all-reduce";
}

void report_collective_notes(FILE *f, const struct plan_cluster *pc, int n, size_t stride)
{
    for (int i = 0; i < n; i++) {
        const struct plan_cluster *p = report_nth(pc, stride, i);
        const struct sim_coll_choice *c = p->collectives;
        int m = p->ncollectives;

        if (m == 0)
            continue;
        fprintf(f, "Collectives: %s:", p->cl->name);
        for (int k = 0; k < m && k < 3; k++)
            fprintf(f, "%s %.3g MiB %s by %s %s/%s, %d channel%s, %.3g ms (busbw %.3g GB/s)",
                    k ? ";" : "", c[k].bytes / DT_MIB, coll_words(c[k].collective),
                    c[k].library, c[k].algorithm, c[k].protocol,
                    c[k].channels, c[k].channels == 1 ? "" : "s", c[k].time_s * 1e3,
                    c[k].busbw_Bps / 1e9);
        if (m > 3)
            fprintf(f, "; %d more sizes in JSON", m - 3);
        fprintf(f, "\n");
    }
}

/* " x cp N" under context parallelism, "" without (a static buffer). */
static const char *cp_words(const struct plan_cluster *p)
{
    static char buf[24];

    if (p->cp <= 1)
        return "";
    snprintf(buf, sizeof buf, " x cp %d", p->cp);
    return buf;
}

/*
 * "Memory:" for a language model's feasible cluster: what a GPU of it holds
 * against what it may use, by part (memory_gib), and where the optimizer's
 * step is the peak, the copy of the gradients it steps with.
 */
static void memory_note(FILE *f, const struct plan_cluster *p)
{
    const struct mem_use *u = &p->mem;
    const char *stage = memory_stage_name(u->stage);
    char fp8[64] = "", step[96] = "";

    if (!p->feasible || !isfinite(p->tokens_per_s) || !(u->device > 0) || isnan(u->activations))
        return;
    if (u->fp8_weights > 0)
        snprintf(fp8, sizeof fp8, ", their fp8 copies %.1f", u->fp8_weights / DT_GIB);
    if (u->grad_copy > 0 && u->held + u->grad_copy >= u->total)
        snprintf(step, sizeof step, "; the peak is the optimizer's step, with the fp32 copy of "
                 "the gradients it steps with (%.1f)", u->grad_copy / DT_GIB);
    fprintf(f, "Memory: %s: %.1f of %.1f GiB usable a GPU%s%s%s (weights %.1f%s, gradients %.1f, "
            "optimizer %.1f, activations %.1f, buffers %.1f)%s\n", p->cl->name,
            u->total / DT_GIB, u->capacity / DT_GIB, stage ? " on the " : "",
            stage ? stage : "", stage ? " pipeline stage, the fuller" : "", u->weights / DT_GIB,
            fp8, u->gradients / DT_GIB, u->optimizer / DT_GIB, u->activations / DT_GIB,
            u->buffers / DT_GIB, step);
}

void report_layout_notes(FILE *f, const struct plan_cluster *pc, int n, size_t stride)
{
    for (int i = 0; i < n; i++) {
        const struct plan_cluster *p = report_nth(pc, stride, i);
        const struct sim_result *r = &p->res;
        if (p->layout_why[0])
            fprintf(f, "Layout: %s: %s\n", p->cl->name, p->layout_why);
        memory_note(f, p);
        if (p->ep_comm_s > 0) {
            /* expert tensor parallelism (tp's unless set) gathers beside them */
            int etp = p->etp > 0 ? p->etp : p->cfg.c.tp;
            char gath[96] = "";
            if (etp > 1 && p->ep_gather_s > 0)
                snprintf(gath, sizeof gath, "; their gathers over etp %d wait %.3g s more, counted "
                         "in compute", etp, p->ep_gather_s);
            char held[160] = "";
            if (p->ep_sm_slow_s > 0)
                snprintf(held, sizeof held, "; the compute beside them loses %.3g s to the "
                         "%d SMs their kernels hold (parallel.ep_sms)", p->ep_sm_slow_s, p->ep_sms);
            char rate[96] = "";
            if (p->ep_nvl_share != 1)
                snprintf(rate, sizeof rate, ", %s's kernels at %.3g of NCCL's NVLink rate",
                         p->ep_dispatch == SC_EP_HYBRIDEP ? "HybridEP" : "DeepEP", p->ep_nvl_share);
            int ag = p->ep_dispatch == SC_EP_ALLGATHER;
            fprintf(f, "Experts: %s: the MoE layers' %s (expert parallelism%s, %s%s) wait "
                    "%.3g s of each %.3g s step (ep comm)%s%s\n", p->cl->name,
                    ag ? "token gathers and reduce-scatters" : "all-to-alls",
                    ag ? " by the allgather dispatcher" : "",
                    p->ep_over_nics ? "across nodes, over the NICs" : "inside a node, over NVLink",
                    rate, p->ep_comm_s, r->step_mean_s, gath, held);
        }
        if (p->host_wait_s > 0)
            fprintf(f, "Host: %s: without full-iteration CUDA graphs the GPUs wait %.3g s of each "
                    "%.3g s step for the host to issue the MoE layers' kernels, counted in "
                    "compute (workload.cuda_graphs)\n", p->cl->name, p->host_wait_s,
                    r->step_mean_s);
        char ep_words[48] = "";
        if (r->ep_comm_s > 0)
            snprintf(ep_words, sizeof ep_words, ", %.3g s expert-parallel", r->ep_comm_s);
        if (p->cfg.c.pp > 1)
            fprintf(f, "Pipeline: %s: tp %d x pp %d%s%s x dp %.0f, %d micro-batches of %d a step; "
                    "of each %.3g s step, %.3g s computing, %.3g s in the bubble and activations' "
                    "trips, %.3g s tensor-parallel%s and %.3g s data-parallel communication\n",
                    p->cl->name, p->cfg.c.tp > 1 ? p->cfg.c.tp : 1, p->cfg.c.pp,
                    p->cfg.c.pp_interleave > 1 ? " (interleaved)" : "", cp_words(p),
                    r->workers / ((p->cfg.c.tp > 1 ? p->cfg.c.tp : 1) * p->cfg.c.pp *
                                  (p->cp > 1 ? p->cp : 1)),
                    p->grad_accum, p->batch_per_gpu, r->step_mean_s, r->compute_s,
                    r->pp_bubble_s, r->tp_comm_s, ep_words, report_parts_dp_comm_s(r));
    }
}
