/*
 * dim.h - a parallel dimension as a plug-in of the step simulator.
 *
 * Data parallelism over plain buckets is the core's own (sim.c).  Every
 * other way of cutting the work over GPUs is a dimension behind struct
 * sim_dim_ops, one file each, listed once in dim.c's table:
 *   - shard.c: sharded data parallelism, and the layer-by-layer step that
 *     the dimensions with per-layer collectives run in;
 *   - tp.c: tensor parallelism, a layer's activation collectives;
 *   - pp.c: pipeline parallelism, the step as its slowest stage.
 * The event loop (sim.c), the checks (sim_check.c), the results
 * (sim_stats.c) and the list of a step's collectives (sim_collectives.c)
 * walk the table and never name a dimension.  A hook a dimension does not
 * need is NULL.  docs/architecture.md says what else a new dimension takes.
 *
 * Each hook has one of three roles:
 *   - about a config: what it must satisfy, what it does to the groups
 *     the others see, the collectives it adds;
 *   - a whole step as another config (pipeline parallelism);
 *   - a run: its state, its events and flows, and the layer-by-layer step
 *     (one dimension runs it, the "stepper"; the others hook its uses).
 * Internal to sim/.
 */
#ifndef DT_SIM_DIM_H
#define DT_SIM_DIM_H

#include <math.h>

#include "nccl.h"
#include "sim.h"

struct sim;
struct coll_ctx;

/* Event kinds a dimension may use (sim_dim_push), 0 to SIM_DIM_EVENTS - 1. */
#define SIM_DIM_EVENTS 4

struct sim_dim_ops {
    const char *name;

    /* ---- about a config ---- */
    /* 0, or -1 with e set: what cfg must satisfy of this dimension's fields
     * (run in table order; the first fault is the one reported) */
    int (*check)(const struct sim_config *cfg, struct dt_err *e);
    /* 1 when cfg's step must run layer by layer for this dimension */
    int (*layered)(const struct sim_config *cfg);
    /* What this dimension leaves to data parallelism: the ranks at one of
     * its positions, into the context dp and the shape sh (either may be
     * NULL); *share multiplied by the groups that now share a node's NICs;
     * *split multiplied by the ranks that split the model. */
    void (*narrow)(const struct sim_config *cfg, struct coll_ctx *dp, struct nccl_shape *sh,
                   int *share, int *split);
    /* Append the distinct collectives it adds to a step under strategy
     * auto (sim_collectives) to out[n..max), all the cluster's shape;
     * returns the new count.  *final = 1: the list is complete (a step run
     * as another config, or the data-parallel sharing done). */
    int (*collectives)(const struct sim_config *cfg, const struct nccl_shape *all,
                       struct sim_coll_choice *out, int n, int max, int *final);

    /* A pipelined stage's layer (pp.c): add to *fwd_s and *bwd_s the
     * seconds its own collectives take a micro-batch after the layer's
     * forward and backward, alone on its group of g (all: the cluster's
     * NCCL shape, NULL unknown); and how long an operation of comp seconds
     * of compute and comm seconds of them lasts, when it runs them beside
     * the compute (NULL: one after the other). */
    void (*stage_layer)(const struct sim_config *cfg, const struct sim_group *g,
                        const struct nccl_shape *all, double *fwd_s, double *bwd_s);
    double (*op_time)(const struct sim_config *cfg, double comp, double comm);

    /* ---- a whole step as another config ---- */
    /* 1 when cfg's step runs as another config (*out) and *plan; restore
     * puts back into res what the other config's result leaves out (res
     * NULL: nothing) and frees plan.  0: not this dimension's; -1 with e
     * set on an error. */
    int (*reduce)(const struct sim_config *cfg, struct sim_config *out, void **plan,
                  struct dt_err *e);
    void (*restore)(void *plan, struct sim_result *res);

    /* ---- a run ---- */
    /* The dimension's state for run s (NULL: none); it is dimension `id`
     * of the table, the id its events and flows carry. */
    void *(*build)(struct sim *s, int id);
    void (*free)(void *st);
    /* Worker wi has its batch: the step is the stepper's from here.  The
     * stepper is the first dimension of the table with state for the run
     * and this hook; with none, the core runs a plain step. */
    void (*step_begin)(struct sim *s, void *st, int wi);
    /* One of its events (sim_dim_push), or one of its flows ended */
    void (*event)(struct sim *s, void *st, int kind, int a, int b, int c);
    void (*flow_done)(struct sim *s, void *st, int a, int b, int c);
    /* The layer-by-layer step (the stepper's): worker wi's use of a layer
     * begins its compute, or its compute ended; bwd, a backward; dil, the
     * micro-batches the use stands for.  1 when the dimension runs
     * collectives for it then: use_end's end with sim_use_done. */
    int (*use_begin)(struct sim *s, void *st, int wi, int bwd, double dil);
    int (*use_end)(struct sim *s, void *st, int wi, int bwd, double dil);
    /* The stepper's side: worker wi's use is done, its collectives
     * included; a collective that slows compute started (+1) or ended (-1). */
    void (*use_done)(struct sim *s, void *st, int wi);
    void (*comm)(struct sim *s, void *st, int delta);
    /* Its part of the result, worker `slow` the slowest (sim_stats.c) */
    void (*collect)(const struct sim *s, const void *st, int slow, struct sim_result *res);
};

/* A number a config may not hold: negative, infinite or NaN. */
static inline int sim_bad_num(double x)
{
    return !isfinite(x) || x < 0;
}

/* The table (dim.c), NULL-terminated, in the order hooks run. */
extern const struct sim_dim_ops *const sim_dims[];

/* Over the table: the first fault of cfg; whether its step runs layer by
 * layer; the data-parallel group left by every dimension (as narrow). */
int sim_dims_check(const struct sim_config *cfg, struct dt_err *e);
int sim_dims_layered(const struct sim_config *cfg);
void sim_dims_narrow(const struct sim_config *cfg, struct coll_ctx *dp, struct nccl_shape *sh,
                     int *share, int *split);

/* Append NCCL's choice for collective `kind` of `bytes` on shape sh to
 * out[n..max), unless the same collective and size is there already; the
 * new count (sim_collectives.c, for the collectives hooks). */
int sim_choice_add(struct sim_coll_choice *out, int n, int max, const struct nccl_shape *sh,
                   enum nccl_coll kind, double bytes);

#endif
