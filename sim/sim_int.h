/*
 * sim_int.h - the step simulator's state, shared by its files: sim.c (the
 * event loop, workers, collective chains, set-up), sim_check.c (what a
 * config must satisfy), sim_stats.c (step times and utilisation from a
 * finished run), and the parallel dimensions (dim.h), which reach the
 * core through the services below.  Internal to sim/.
 */
#ifndef DT_SIM_INT_H
#define DT_SIM_INT_H

#include <gsl/gsl_rng.h>

#include "coll.h"
#include "dim.h"
#include "evq.h"
#include "maxmin.h"
#include "input.h"
#include "sim.h"

/* The core's events and flows; a dimension's come after them, EV_DIM +
 * id x SIM_DIM_EVENTS + its kind, and FL_DIM + id (sim_dim_push). */
enum { EV_FWD_DONE, EV_BWD_DONE, EV_BUCKET, EV_OPT_DONE, EV_PHASE_LAT, EV_STAGE_NOW, EV_TICK,
       EV_DIM };
enum { FL_STAGE, FL_PHASE, FL_DIM };
#define SIM_MAX_DIMS 8
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
    /* backward as work done at a rate (only when the group's comm_slowdown > 1);
       in a layer-by-layer step (dim.h), the use of a layer in progress */
    double bwd_total, bwd_done;   /* full-speed seconds: the pass, done so far */
    double bwd_t;                 /* when bwd_done was last brought up to date */
    double bwd_rate;              /* 1, or 1 / comm_slowdown while a collective runs */
    int bwd_gen;                  /* events of older generations are stale */
    int next_bucket;              /* the next bucket backward releases */
    /* a layer-by-layer step's use whose end the hooked dimensions take in turn (dim.c):
     * the next of them to ask, and the use's kind and dilation */
    int hook_at, hook_bwd;
    double hook_dil;
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
    struct coll_phase *ph;     /* nph for each run of equal-size buckets */
    int *ph_row;               /* per bucket: its run's row of ph (chain_phase) */
    int last_in_lane[COLL_MAX_PHASES];
    int *ready_cnt;            /* per bucket: members that released it */
    char *started, *done;      /* nb x nph */
    char *ticked;              /* per bucket: a tick of the background loop has seen it
                                  ready (sim_comm.cycle_s > 0) */
    int tick_pending;          /* an EV_TICK is queued for this chain */
    int active;                /* phases started and not done */
    int slow_mark;             /* active went to or from 0 since the members' backward
                                  rates were last brought in line (sim_apply_slow) */
    int buckets_done;
};

/* Phase p of bucket b of chain c. */
static inline const struct coll_phase *chain_phase(const struct chain *c, int b, int p)
{
    return &c->ph[c->ph_row[b] * c->nph + p];
}

struct sim {
    const struct sim_config *cfg;
    struct evq q;
    struct maxmin mm;
    gsl_rng *rng;
    double ps_duty;         /* asynchronous PS: fraction of a step a worker pushes (1: lockstep) */
    double now;
    long events;
    int slow_pending;       /* some chain's slow_mark is set */
    int nw;
    struct worker w[SIM_MAX_GROUPS];
    int nch;
    struct chain ch[SIM_MAX_GROUPS];
    void *dim[SIM_MAX_DIMS];   /* each dimension's state (dim.h), NULL: not in this run */
    int stepper;               /* the dimension that runs the step layer by layer, -1 none */
    int nhooked;               /* the other dimensions of the run that hook a layer's use */
    int hooked[SIM_MAX_DIMS];
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

/* sim.c's services for the parallel dimensions (dim.h): trace a worker's
 * activity change (SIM_NACT: none); start its optimizer (from
 * W_WAIT_COMM); is a step measured; how many times slower a worker
 * computes while collectives run (its group's comm_slowdown, at least 1). */
void sim_tr_worker(struct sim *s, int wi, int end, int begin);
void sim_worker_start_opt(struct sim *s, int wi);
int sim_measured(const struct sim *s, int step);
double sim_slowdown(const struct sim *s, const struct worker *w);
/* Dimension id's event of `kind` at time t; its flow of `amount` (as
 * mm_add_flow), which ends with its flow_done hook.  Inline: a layer-by-
 * layer step pushes several a layer. */
static inline void sim_dim_push(struct sim *s, int id, int kind, double t, int a, int b, int c)
{
    evq_push(&s->q, t, EV_DIM + id * SIM_DIM_EVENTS + kind, a, b, c);
}

/* A use that ends no sooner than `until` (an overlapped use's exposed
 * minimum): dimension id's event of `kind` then for worker wi, and 1; 0
 * when that time has come. */
static inline int sim_dim_hold(struct sim *s, int id, int kind, double until, int wi)
{
    if (!(until > s->now))
        return 0;
    evq_push(&s->q, until, EV_DIM + id * SIM_DIM_EVENTS + kind, wi, 0, 0);
    return 1;
}

static inline void sim_dim_flow(struct sim *s, int id, double amount, double bound,
                                const struct mm_use *use, int nuse, int a, int b, int c)
{
    mm_add_flow(&s->mm, amount, bound, use, nuse, FL_DIM + id, a, b, c);
}
/* The layer-by-layer step: every other dimension's use_begin hook, and
 * their use_end hooks in table order, one after another (1 when one runs
 * collectives for the use: its sim_use_done then asks the next, and the
 * stepper's use_done follows the last); the stepper's comm hook. */
int sim_use_begin(struct sim *s, int wi, int bwd, double dil);
int sim_use_end(struct sim *s, int wi, int bwd, double dil);
void sim_use_done(struct sim *s, int wi);
void sim_comm(struct sim *s, int delta);

/* The resources' busy totals now, into *dst (allocated on first use). */
void sim_window_snapshot(struct sim *s, double **dst);

/* sim_build.c: a run's resources, a train group's input producers, a
 * collective chain (its buckets and phases), and their release. */
void sim_build_resources(struct sim *s);
void sim_build_producers(struct sim *s, struct worker *w);
void sim_build_chain(struct sim *s, struct chain *c);
void sim_release(struct sim *s);

/* Fill res from a finished run (sim_stats.c). */
void sim_collect(struct sim *s, struct sim_result *res);

#endif
