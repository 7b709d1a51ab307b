/*
 * search.h - search the catalog for the best cluster (the scenario's plan:
 * section; docs/plan.md).
 *
 * search_enumerate() lists candidate clusters: training instance type x
 * train node count x data nodes (type, count) x parameter servers
 * (placement, type, count) x gradient strategy x bucket size, keeping only
 * what can run (same cloud, the plan's regions, memory fit, max GPUs, budget,
 * data channels; everything known before simulating).  search_eval() then
 * simulates candidates with few steps (plan.search_steps), one candidate at a
 * time, so a sweep can be split by index across processes (MPI ranks) and
 * the results put back together in index order.  search_finish() ranks them
 * by the objective, re-runs the top N, the Pareto front and the best of each
 * kind with the scenario's full simulation settings, and writes the
 * recommendation.
 *
 * A candidate is a cluster with its own communication choice (struct
 * sc_cluster's comm_own), evaluated against the one scenario with
 * plan_cluster_eval(), as plan_run() evaluates a listed cluster; its result
 * is the same struct plan_cluster.  Everything is deterministic: a
 * candidate's result depends only on the scenario (seed included) and the
 * candidate, never on which process evaluated it.  Library code: nothing
 * here prints or exits, and nothing is kept between calls.
 *
 * Cost: enumeration is O(candidates); one evaluation is one simulation of
 * one cluster at search_steps + search_warmup steps (a few tens of
 * microseconds for one distinct group, see `make bench`).
 */
#ifndef DT_SEARCH_H
#define DT_SEARCH_H

#include "planner.h"

/* One candidate cluster, compact (indices into the catalog's instances). */
struct search_cand {
    int train;              /* train instance index */
    int nodes;              /* train nodes, >= 1 */
    int data;               /* data node instance index, -1 none */
    int ndata;              /* data nodes (0 when data < 0) */
    int ps;                 /* dedicated PS instance index, -1 colocated or no PS */
    int nps;                /* dedicated PS nodes */
    int strategy;           /* enum sim_strategy */
    int bucket;             /* index into plan.bucket_bytes */
    int spot;               /* 1: every group at the spot price */
};

/* What the sweep keeps of one evaluation (plain doubles so that it can be
 * sent between processes as SEARCH_NFIELDS doubles). */
struct search_eval {
    double ok;              /* 1 evaluated, 0 the simulation failed (see search docs) */
    double feasible;        /* 1 meets deadline, budget, channels */
    double step_s;          /* mean step time */
    double price_usd_h;
    double cost_per_step_usd;
    double samples_per_s;
    double train_s;         /* NAN without a dataset size */
    double cost_to_train_usd;
    double objective;       /* smaller is better */
    double bound;           /* enum plan_bound */
    double sims;            /* simulations run (more than 1 when the layout was chosen) */
    double infeasible;      /* enum plan_infeasible: why not feasible */
    double over;            /* not feasible: how far over the limit that failed, as a ratio
                               (memory: need over usable; deadline: time to train over it;
                               budget: price over it; > 1); NAN otherwise */
};
#define SEARCH_NFIELDS 13

struct search_list {
    struct search_cand *c;
    int n, cap;
    long pruned_memory;     /* candidates dropped: model does not fit in GPU memory */
    long pruned_budget;     /* price over the budget */
    long pruned_channels;   /* more workers than data channels allowed */
    long pruned_gpus;       /* more GPUs than plan.max_gpus */
    long pruned_tp;         /* parallel.tp neither divides a node's GPUs nor spans whole nodes */
    long pruned_pp;         /* a fixed parallel.pp x tp that the nodes cannot place
                               (resolve_pp_fits) */
    int memory_unknown;     /* 1: activation memory of the model unknown, not pruned on it */
    double memory_bytes;    /* GPU memory a worker needs, as pruned on (search_memory_bytes);
                               NAN when memory_unknown */
    double state_bytes;     /* of it, the model state */
    int ntrain_types;       /* instance types considered for training */
    int skipped_peak;       /* GPU types left out: peak FLOP/s at the precision unknown */
    int single_node;        /* types searched on one node only: network rate unknown */
    char single_names[160]; /* the first of them, comma-separated */
    /* Pruned on memory, the one that came closest: the smallest share of
     * its usable memory at the least footprint its layouts allow
     * (plan_layout_least_memory); closest_nodes 0 when none was pruned. */
    int closest_train;      /* instance index */
    int closest_nodes;
    double closest_ratio;   /* need over usable, > 1 */
    struct mem_use closest_mem;
    char closest_layout[96];/* its layout, "" when the scenario fixes it */
    int skipped_cpu;        /* CPU types left out: a transformer over 1B parameters, not
                               listed in plan.instances (SEARCH_CPU_MAX_PARAMS) */
    int cpu_deadline;       /* CPU types left out: even at their peak on plan.max_nodes
                               they miss the deadline */
    int no_data_nodes;      /* 1: no data-node variants, the input has no work to move */
    struct memo *memo;      /* what the candidates' runs share (base/memo.h: a pipeline
                               schedule that several layouts and candidates run, once) */
};

/* Above this many parameters a transformer is not trained on CPU
 * instances unless plan.instances lists them. */
#define SEARCH_CPU_MAX_PARAMS 1e9

/* What simulating the candidates found (search_finish): how many could
 * not be simulated, and of those simulated, how many were not feasible, by
 * reason (enum plan_infeasible; [PLAN_OK] unused). */
struct search_counts {
    long failed;
    long infeasible[PLAN_INF_N];
};

/* One candidate re-run with the scenario's settings. */
struct search_pick {
    int index;                  /* candidate index */
    struct sc_cluster cl;       /* the cluster with its communication choice (named) */
    struct plan_cluster pc;     /* its result; pc.cl points at cl */
};

enum search_kind { SEARCH_SINGLE = 0, SEARCH_SCALE_OUT, SEARCH_HETERO, SEARCH_CPU, SEARCH_NKINDS };
#define SEARCH_MAX_CLOUDS 8    /* clouds whose best the report shows, at most */

struct search_result {
    const struct scenario *sc;
    long candidates;            /* enumerated and simulated */
    long feasible;
    struct search_counts counts; /* the others: not simulated, or not feasible and why */
    struct search_pick *top;    /* best first, at most plan.top */
    int ntop;
    struct search_pick *front;  /* Pareto front, by time ascending */
    int nfront;
    int front_train;            /* 1: time and cost to train; 0: step time and cost per step */
    struct search_pick kinds[SEARCH_NKINDS]; /* best of each kind; index -1 when none */
    struct search_pick clouds[SEARCH_MAX_CLOUDS]; /* the best on each cloud of the feasible
                                   candidates, in the order of their bests, when they span
                                   two clouds or more (each its train type's); else none */
    int nclouds;
    struct plan_cluster current;/* the scenario's first cluster, or the baseline's result */
    int current_listed;         /* 1: current is the scenario's clusters[0] */
    struct search_pick baseline;/* the baseline when no cluster is listed */
    enum plan_action action;
    int keep_current;           /* 1: the current choice does better on the objective than
                                   every candidate: it is recommended (action keep), and it
                                   leads the report below */
    char reason[PLAN_REASON_LEN];
    /*
     * The ranked clusters as one plan report, for the writers of `dtplan
     * SCENARIO` (CSV, HTML, trace): the top N in rank order, then the
     * Pareto front's clusters that are not among them, each named with its
     * strategy and bucket when it communicates (search_pick_label); best 0,
     * the action and the reason above.  With search_opts.trace, traces[0]
     * holds the recommended cluster's simulated steps.
     */
    struct plan_report report;
    struct sc_cluster *report_cl; /* the clusters report.clusters[i].cl point at */
};

/* How search_finish() goes about it. */
struct search_opts {
    int trace;                  /* 1: record the recommended cluster's steps (report.traces[0]) */
    size_t trace_max_records;   /* 0 = no cap */
    /* Called, when not NULL, after each pick search_finish runs again at
     * full settings: what the phase is ("the top 10"), picks done and the
     * phase's total. */
    void (*finishing)(void *arg, const char *phase, int done, int total);
    void *arg;
};


/*
 * The scenario every other call takes: a copy of sc with the input that
 * workload.measured_step solves for (plan_run on the listed clusters) carried
 * into it, so that it holds for every candidate.  base shares sc's clusters
 * and catalog.  Returns 0 or -1 with e set.
 */
int search_prepare(const struct scenario *sc, struct scenario *base, struct dt_err *e);

/* Enumerate the candidates of sc->plan.  Returns 0 or -1 with e set. */
int search_enumerate(const struct scenario *sc, struct search_list *l, struct dt_err *e);
void search_list_free(struct search_list *l);

/* Progress of search_eval, for a front end to show: after each candidate,
 * fn(arg, done, total, feasible, best), counting this part's candidates
 * only; best is the feasible one smallest on the objective so far (NULL:
 * none yet).  The planner prints nothing itself. */
struct search_progress {
    void (*fn)(void *arg, int done, int total, int feasible, const struct search_eval *best);
    void *arg;
};

/* Evaluate candidates i with i % nparts == part into ev[i] (ev has l->n
 * entries; others are left alone), reporting to pg when not NULL.
 * Returns 0 or -1 with e set. */
int search_eval(const struct scenario *sc, const struct search_list *l, int part, int nparts,
                struct search_eval *ev, const struct search_progress *pg, struct dt_err *e);

/* Rank, re-run the top N, the front and the best of each kind, recommend.
 * o may be NULL (no trace).  Returns 0 or -1 with e set. */
int search_finish(const struct scenario *sc, const struct search_list *l,
                  const struct search_eval *ev, const struct search_opts *o,
                  struct search_result *res, struct dt_err *e);
void search_result_free(struct search_result *res);

/* "2x g5.12xlarge + 1x c5.18xlarge data, ring, 25 MiB" */
void search_cand_name(const struct scenario *sc, const struct search_cand *c, char *buf,
                      size_t len);
const char *search_kind_name(enum search_kind k);

/* A pick's name with its strategy and bucket when it communicates (as the
 * table's columns say), so that picks that differ only in those do not look
 * alike: "4x p3.16xlarge, ring, 25 MiB". */
void search_pick_label(const struct search_pick *pk, char *out, size_t cap);

/* 1 when the pick's cluster communicates (more than one worker or group):
 * its strategy and bucket size mean something. */
int search_pick_comm(const struct search_pick *pk);

/* Bytes of GPU memory one worker needs (model state plus activations at
 * the micro-batch); NAN when the model's activation memory is unknown (then
 * only the model state is counted by the pruning). */
double search_memory_bytes(const struct scenario *sc, double *state_bytes);

#endif
