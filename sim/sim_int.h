/*
 * sim_int.h - the step simulator's state, shared by its files: sim.c (the
 * event loop, workers, collective chains, set-up), sim_check.c (what a
 * config must satisfy) and sim_stats.c (step times and utilisation from a
 * finished run).  Internal to sim/.
 */
#ifndef DT_SIM_INT_H
#define DT_SIM_INT_H

#include <gsl/gsl_rng.h>

#include "coll.h"
#include "evq.h"
#include "maxmin.h"
#include "input.h"
#include "sim.h"

enum { EV_FWD_DONE, EV_BWD_DONE, EV_BUCKET, EV_OPT_DONE, EV_PHASE_LAT, EV_STAGE_NOW, EV_TICK,
       EV_UNIT, EV_SHARD_LAT };
enum { FL_STAGE, FL_PHASE, FL_SHARD };
enum { W_WAIT_BATCH, W_FWD, W_BWD, W_WAIT_COMM, W_OPT, W_DONE };

#define MAX_PROD (1 + SIM_MAX_GROUPS)

/* A producer of input batches for one worker: its stages (input.h) and where
 * its batches are. */
struct producer {
    struct input_line line;
    int busy[INPUT_MAX_STAGES];   /* 1 while a batch is in the stage */
    int queued[INPUT_MAX_STAGES]; /* batches waiting for the stage */
    int inflight;                /* batches inside this producer */
};

struct worker {
    int g;                     /* index in cfg->groups */
    int tg;                    /* index among the train groups (coll_ctx.tg) */
    int chain;
    int state;
    int step;                  /* current step, 0-based */
    double m;                  /* jitter multiplier of this step */
    int ready;                 /* batches ready */
    int nprod;
    struct producer prod[MAX_PROD];
    double t_wait0, t_bwd_end, t_fwd0;
    double stall, compute, exposed, opt;   /* sums over measured steps */
    double interf;             /* sum over measured steps of backward time lost to
                                  collectives in flight (sim_group.comm_slowdown) */
    /* backward as work done at a rate (only when the group's comm_slowdown > 1) */
    double bwd_total, bwd_done;   /* full-speed seconds: the pass, done so far */
    double bwd_t;                 /* when bwd_done was last brought up to date */
    double bwd_rate;              /* 1, or 1 / comm_slowdown while a collective runs */
    int bwd_gen;                  /* events of older generations are stale */
    int next_bucket;              /* the next bucket backward releases */
    /* sharded (shard.c): uses are units of a forward or backward pass, 2 L per
       micro-batch; the bwd_* fields above time the unit in progress */
    int su_start, su_done;        /* uses started, finished this step */
    int su_busy;                  /* 1 while a use computes */
    double t_unit0, t_gwait;      /* when the use began; began waiting for its parameters */
    int tp_ph;                    /* tensor-parallel phase in flight after the use, -1 none */
    double tp_f, t_tp0;           /* its dilation (shard.c); when the use's compute ended */
    double tp_exp;                /* sum over measured steps of time waiting for them */
    int tp_wait;                  /* tp_overlap: 1 once the use's compute ended while its
                                   collectives still run */
    int tp_round, tp_rounds;      /* the collectives' pass; passes after this use (2 after a
                                     backward that recomputes its forward) */
    double *end;               /* end time of each step */
    double ranks;              /* workers in the group */
};

struct chain {
    int nmem;
    int mem[SIM_MAX_GROUPS];   /* worker indexes */
    struct coll_ctx ctx;
    int nb;                    /* buckets per step */
    double *bbytes;            /* size of each bucket */
    double *cum;               /* bytes of buckets 0..b, for each b */
    int nph;                   /* phases per bucket (same for every size) */
    struct coll_phase *ph;     /* nb x nph */
    int last_in_lane[COLL_MAX_PHASES];
    int *ready_cnt;            /* per bucket: members that released it */
    char *started, *done;      /* nb x nph */
    char *ticked;              /* per bucket: a tick of the background loop has seen it
                                  ready (sim_comm.cycle_s > 0) */
    int tick_pending;          /* an EV_TICK is queued for this chain */
    int active;                /* phases started and not done */
    int buckets_done;
};

/* Sharded data parallelism (shard.c): each lane runs its collectives one
 * after another, each as its phases in order. */
#define SHARD_MAX_PH (2 * COLL_MAX_PHASES)
enum { SH_GATHER = 0, SH_REDUCE, SH_NLANE, SH_TP = SH_NLANE /* a worker's own (tp.c) */ };

struct shard_coll {
    int nph;
    struct coll_phase ph[SHARD_MAX_PH];
};

struct shard {
    int on;                      /* a sharded step (sim_comm.shard, more than one rank) */
    int L, mb;                   /* units; micro-batches a step */
    int mb_sim, nuse;            /* micro-batches simulated (at most SHARD_MB_SIM); uses, 2 L mb_sim */
    struct shard_coll coll[SH_NLANE]; /* a unit's all-gather; its reduce-scatter (and
                                    all-reduce across nodes) */
    int *uses[SH_NLANE];         /* per lane, the uses it serves in order */
    int n[SH_NLANE];
    int *gather_of;              /* per use, its index on the gather lane, -1 none */
    int next[SH_NLANE];          /* collectives of the lane started this step */
    int ph[SH_NLANE];            /* phase in progress, -1 idle */
    int active;                  /* phases in flight */
    int reduced;                 /* 1 from the step's last reduction to the next step */
    struct shard_coll tpc[SIM_MAX_GROUPS]; /* per train group: a layer's tensor-parallel
                                    collectives after its forward or backward (tp.c) */
};
#define SHARD_MB_SIM 3

struct sim {
    const struct sim_config *cfg;
    struct evq q;
    struct maxmin mm;
    gsl_rng *rng;
    double ps_duty;         /* asynchronous PS: fraction of a step a worker pushes (1: lockstep) */
    double now;
    long events;
    int nw;
    struct worker w[SIM_MAX_GROUPS];
    int nch;
    struct chain ch[SIM_MAX_GROUPS];
    struct shard sh;
    int r_cpu[SIM_MAX_GROUPS], r_pcie[SIM_MAX_GROUPS], r_tx[SIM_MAX_GROUPS],
        r_rx[SIM_MAX_GROUPS], r_intra[SIM_MAX_GROUPS], r_fabric;
    int total_steps;
    int global_done;           /* steps finished by every worker */
    double *busy0;             /* resource busy at the start of the window */
    double t0, t1;             /* measured window */
    int window_open;
};

/* Asynchronous parameter servers: each worker runs on its own. */
static inline int sim_is_async(const struct sim_config *cfg)
{
    return cfg->c.strategy == SIM_PS_ASYNC;
}

/* sim.c, for shard.c: trace a worker's activity change (SIM_NACT: none);
 * start its optimizer (from W_WAIT_COMM); is a step measured. */
void sim_tr_worker(struct sim *s, int wi, int end, int begin);
void sim_worker_start_opt(struct sim *s, int wi);
int sim_measured(const struct sim *s, int step);
/* How many times slower a worker computes while its collectives run: its
 * group's comm_slowdown, at least 1. */
double sim_slowdown(const struct sim *s, const struct worker *w);

/* shard.c: set up (after the chain) and free; a worker's step begins with
 * its batch; a use's compute ends (EV_UNIT); a phase's latency ends
 * (EV_SHARD_LAT) or its flow (FL_SHARD). */
void shard_build(struct sim *s);
void shard_free(struct sim *s);
void shard_step_begin(struct sim *s, int wi);
void shard_unit_done(struct sim *s, int wi, int use, int gen);
void shard_phase_flow(struct sim *s, int lane, int idx, int p);
void shard_phase_done(struct sim *s, int lane, int idx, int p);
/* The phases of collective `kind` of `bytes` over ctx appended to sc, the
 * uses of links other than the GPUs' own scaled by nic_scale (parallel
 * groups sharing a node's NICs). */
void shard_coll_into(struct shard_coll *sc, const struct coll_ctx *ctx, enum sim_strategy st,
                     enum nccl_coll kind, const struct nccl_shape *shape, double bytes,
                     double nic_scale);
/* Worker wi's use is done, its tensor-parallel collectives included. */
void shard_use_finished(struct sim *s, int wi);

/* tp.c: the data-parallel group of ranks at one tensor-parallel position,
 * and how many such groups share a node's NICs; the tensor-parallel
 * collectives (into sh.tpc); after a use, start them (1) or say there are
 * none (0); a phase's latency or flow ends. */
void tp_dp_ctx(const struct coll_ctx *all, int tp, struct coll_ctx *dp, int *nic_share);
void tp_build(struct sim *s, const struct nccl_shape *shape);
int tp_after_use(struct sim *s, int wi, int bwd, double dilation);
void tp_phase_flow(struct sim *s, int wi, int p);
/* tp_overlap: start the use's collectives as its compute starts; 1 when it
 * did (tp.c). */
int tp_before_use(struct sim *s, int wi, int bwd, double dilation);
/* A collective that slows compute started or ended (shard.c's count of
 * collectives in flight, and the members' rates). */
void shard_comm_started(struct sim *s);
void shard_comm_ended(struct sim *s);
void tp_phase_done(struct sim *s, int wi, int p);

/* pp.c: a pipelined step as the step simulator runs it: the stage that
 * finishes last, as a config without pipeline or tensor parallelism whose
 * train group is that stage's data-parallel group (pp.c's comment); what
 * its result leaves out, put back by pp_result. */
struct pp_plan {
    int stage;                 /* the stage simulated */
    double end_s;              /* its last backward's end in the schedule */
    double busy_s, tp_s;       /* its compute, tensor-parallel collectives included; theirs */
    double p2p_s;              /* a micro-batch's activations from stage to stage */
    double gpus;               /* GPUs of the train group */
};
int pp_config(const struct sim_config *cfg, struct sim_config *out, struct pp_plan *plan,
              struct dt_err *e);
void pp_result(const struct pp_plan *plan, struct sim_result *res);

/* The resources' busy totals now, into *dst (allocated on first use). */
void sim_window_snapshot(struct sim *s, double **dst);

/* Fill res from a finished run (sim_stats.c). */
void sim_collect(struct sim *s, struct sim_result *res);

#endif
