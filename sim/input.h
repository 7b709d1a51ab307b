/*
 * input.h - input pipelines as producers of batches.
 *
 * A producer makes one batch at a time for one train group's worker and
 * hands it on through a short list of stages (CPU work, a network hop, host
 * to device).  Each stage is one fluid flow through resources with
 * multiplicities (maxmin.h); a batch leaves a stage for the next, and the
 * step model (sim.c) runs producers ahead of the worker up to the prefetch
 * depth.  The stages are all a pipeline says, as a collective's phases are
 * all an algorithm says (coll.h).
 *
 * Each pipeline is one file that appends its producers (input_local.c: the
 * loader on the train node; input_service.c: data nodes that preprocess and
 * send through the NIC, as tf.data service does); input.c's table lists them.
 * Adding one never touches the event loop.  docs/model.md derives what each
 * costs.
 */
#ifndef DT_INPUT_H
#define DT_INPUT_H

#include "maxmin.h"
#include "sim.h"

#define INPUT_MAX_STAGES 4

struct input_stage {
    double amount;          /* per batch: core-seconds (CPU) or bytes */
    double bound;           /* per-flow rate bound, INFINITY if none */
    int nuse;
    struct mm_use use[MM_MAX_USE];
};

/* One producer's stages, in the order a batch passes them. */
struct input_line {
    int nst;
    struct input_stage st[INPUT_MAX_STAGES];
};

/* What a pipeline sees of the cluster when it builds one worker's producers. */
struct input_ctx {
    const struct sim_config *cfg;
    int g;                  /* index of the train group fed, in cfg->groups */
    double ranks;           /* workers in that group (nodes x GPUs) */
    int ndata;              /* data groups in the cluster */
    const int *r_cpu, *r_pcie, *r_tx, *r_rx; /* resource ids per group, -1 absent */
    int r_fabric;           /* -1 for a non-blocking fabric */
};

struct input_ops {
    const char *name;
    /* Append this pipeline's producers for ctx->g to out[0..max-1]; return
     * how many were added (0 when it does not apply to the cluster). */
    int (*build)(const struct input_ctx *ctx, struct input_line *out, int max);
};

extern const struct input_ops input_local, input_service;

/* Every pipeline of the table, in order, into out[0..max-1]; the count. */
int input_build_all(const struct input_ctx *ctx, struct input_line *out, int max);

/* Shared by the pipeline files: a new stage of line, and one use of it
 * (resources < 0 and weights <= 0 are skipped). */
struct input_stage *input_stage_new(struct input_line *line, double amount, double bound);
void input_use(struct input_stage *st, int res, double w);

/* Per batch of ctx's worker: CPU seconds on the reference core to
 * preprocess, bytes after preprocessing, and the data service's CPU seconds
 * to serialize (send) and to receive them. */
void input_batch_costs(const struct input_ctx *ctx, double *cpu, double *bytes, double *send,
                      double *recv);

#endif
