/*
 * planner.h - from a scenario and the catalog to simulated, ranked clusters
 * and a recommendation in words.
 *
 * One pipeline serves the listed clusters and the catalog search alike:
 * plan_cluster_eval() resolves one cluster into a struct sim_config
 * (resolve.c: compute times from FLOPs and GPU peaks or from a measured
 * compute time, effective link bandwidths, prices), simulates it, derives
 * its costs and names its bottleneck, into one struct plan_cluster.
 * plan_run() solves for the scenario's unknown input when it gives a
 * measured step time (plan_solve.c), evaluates every listed cluster and
 * recommends one (plan_advice.c); the catalog search (search.h) evaluates
 * its candidates the same way.  Each struct plan_cluster carries all the
 * writers print of it (its collectives with NCCL's choice, the numbers a
 * profile measured), and struct plan_report its traces, so the front end
 * only formats.  Library code: nothing here prints, exits or keeps state
 * between calls.
 */
#ifndef DT_PLANNER_H
#define DT_PLANNER_H

#include "../scenario/scenario.h"
#include "memory.h"
#include "../sim/sim.h"
#include "../sim/trace.h"

#define PLAN_REASON_LEN 2048      /* a recommendation's reason, bytes with the NUL */

/* What the recommendation asks of the starting cluster (docs/output.md
 * "Actions"): keep it; larger or faster nodes, no more of them (scale_up);
 * more nodes (scale_out); fewer nodes of the same type (scale_in); add CPU
 * data nodes (heterogeneous); train on CPUs (cpu_only); another instance
 * type, neither more nodes nor larger ones (change_type); none feasible
 * (none). */
enum plan_action {
    PLAN_KEEP = 0,
    PLAN_SCALE_UP,
    PLAN_SCALE_OUT,
    PLAN_HETEROGENEOUS,
    PLAN_CPU_ONLY,
    PLAN_SCALE_IN,
    PLAN_CHANGE_TYPE,
    PLAN_NONE,
    PLAN_NACTION
};

enum plan_bound {
    PLAN_BOUND_COMPUTE = 0,   /* GPU (or CPU training) compute */
    PLAN_BOUND_CPU,           /* input pipeline CPU */
    PLAN_BOUND_INPUT_NET,     /* data nodes' network */
    PLAN_BOUND_PCIE,          /* host to device */
    PLAN_BOUND_NETWORK,       /* exposed gradient communication over NICs */
    PLAN_BOUND_GPU_LINK,      /* exposed communication inside the node */
    PLAN_BOUND_PS,            /* parameter-server NIC or CPU */
    PLAN_BOUND_INPUT,         /* each batch's preprocessing waited for, vCPUs to spare */
    PLAN_BOUND_LATENCY,       /* exposed communication over idle links: message latency */
    PLAN_BOUND_CYCLE          /* exposed communication waiting for a background cycle's tick */
};

#define PLAN_MAX_ASSUMED 6

/* Why a simulated cluster is not feasible (plan_cluster.infeasible). */
enum plan_infeasible {
    PLAN_OK = 0,
    PLAN_INF_MEMORY,          /* a worker's memory */
    PLAN_INF_BUDGET,          /* over objective.budget_usd_per_h */
    PLAN_INF_CHANNELS,        /* more workers than data channels allowed */
    PLAN_INF_DEADLINE,        /* misses objective.deadline_h */
    PLAN_INF_BATCH,           /* replicas x batch_per_gpu over the global batch */
    PLAN_INF_N
};

/*
 * One number of a resolved cluster that came from a calibration profile
 * rather than the catalog (docs/profile.md): what it is, its value in the
 * unit named, and the profile it came from.
 */
struct plan_measured {
    char instance[64];
    char what[32];             /* "cpu_speed", "gemm_fp16_tflops", "nic_gbytes_s", ... */
    double value;
    char unit[24];             /* "x reference core", "TFLOP/s", "GB/s", "us" */
    char profile[256];         /* the profile file */
    char detail[96];           /* what was measured, e.g. "mpi allreduce, 2 ranks on 2 hosts" */
    int poor_fit;              /* 1: the fit behind it is marked poor or underdetermined */
};

/* What a plan_cluster keeps of its step's collectives and its profile's
 * numbers; plan_measured() reports at most PLAN_MAX_MEASURED. */
#define PLAN_MAX_COLLECTIVES 16
#define PLAN_MAX_MEASURED 32

/* Where a spot node's preemption rate comes from (planner/goodput.c). */
enum plan_spot_from {
    PLAN_SPOT_SCENARIO = 0,     /* goodput.spot_preemptions_per_day */
    PLAN_SPOT_BAND,             /* its type's interruption band (catalog spot_interrupt) */
    PLAN_SPOT_DEFAULT           /* neither: the Advisor's top band */
};

/* A cluster's goodput (planner/goodput.c): on only with a goodput: section. */
struct plan_goodput {
    int on;
    double interruptions_per_day, mtbf_s; /* the job's, all its GPUs and nodes */
    double p_interrupt_30d;       /* the chance of one at least in 30 days */
    double spot_per_day;          /* a spot node's preemptions a day, the mean over the
                                     cluster's spot nodes; NAN none */
    double spot_saved_per_day;    /* of the job's preemptions a day, those a save at their
                                     notice covers (goodput.spot_notice_save); NAN off */
    int spot_from;                /* where the first spot group's rate comes from: enum
                                     plan_spot_from */
    char spot_type[64];           /* that group's instance type; "" none */
    char spot_band[8];            /* its interruption band (PLAN_SPOT_BAND) */
    double checkpoint_bytes;      /* the model state saved */
    double checkpoint_write_s;    /* its write to the store */
    double checkpoint_block_s;    /* what a save stops the steps for (async: the copy to
                                     the host) */
    double checkpoint_interval_s; /* compute between saves, whole steps */
    double restart_s;             /* the restart and the checkpoint's read */
    double ettr;                  /* effective training time ratio: compute over wall time */
    double train_nofail_s, cost_nofail_usd; /* to train without failures (NAN unknown) */
    double train_p10_s, train_p90_s; /* goodput.samples runs sampled: the 10th and 90th
                                     percentiles of the time to train; NAN none */
};

struct plan_cluster {
    const struct sc_cluster *cl;  /* points into the scenario */
    struct sim_config cfg;        /* what was simulated */
    struct sim_result res;
    double price_usd_h;           /* whole cluster */
    double cost_per_step_usd;
    double steps_per_epoch;       /* NAN when the dataset size is unknown */
    double epoch_s, cost_per_epoch_usd;
    double train_s, cost_to_train_usd; /* epochs x epoch and the evaluations; with a goodput:
                                     section, the expected ones, failures included (goodput) */
    int evals;                    /* evaluation passes in the time to train (input.eval_*) */
    double eval_s;                /* their time, within train_s */
    struct plan_goodput goodput;
    double scaling_eff;           /* samples/s over workers x one-GPU samples/s */
    int feasible;                 /* fits in memory, meets deadline and budget */
    enum plan_infeasible infeasible; /* why not, when not feasible */
    char infeasible_why[320];
    struct mem_use mem;           /* per GPU (or CPU worker) of the train group that fills
                                     its memory most (memory.h) */
    double tokens_per_s;          /* samples/s x sequence length; NAN when the model has no
                                     sequence (not given by its shape) */
    double causal_flops_per_token; /* forward and backward FLOPs a token as Megatron-LM counts
                                     them, attention causal (shape.h); NAN likewise */
    int grad_accum;               /* micro-batches a worker accumulates per step */
    double ep_comm_s;             /* expert parallelism: a GPU's waits a step for its MoE layers'
                                     all-to-alls, res.ep_comm_s (sim/ep.c, sim/pp.c); 0 none */
    double ep_gather_s;           /* and for the expert tensor-parallel gathers beside them,
                                     inside compute_s (resolve_ep.c); 0 none */
    int ep_over_nics;             /* 1: the expert-parallel group spans nodes */
    double ep_sm_slow_s;          /* of compute_s, a GPU's seconds a step lost beside the
                                     overlapped all-to-alls to the SMs the dispatcher holds
                                     (ep_sms of them; resolve_ep.c); 0 none */
    int ep_sms;
    int ep_dispatch;              /* parallel.ep_dispatch (SC_EP_*) under expert parallelism */
    double ep_nvl_share;          /* its kernels' NVLink rate over NCCL's all-to-all's there
                                     (resolve_ep_nvl_share; 1 for NCCL's own) */
    double host_wait_s;           /* without CUDA graphs: a GPU's waits a step for the host to
                                     issue its MoE layers' kernels, inside compute_s
                                     (resolve_host.c); 0 none */
    int cp;                       /* context-parallel ranks (parallel.cp), >= 1 */
    int ep, etp;                  /* expert-parallel ranks (>= 1) and expert tensor
                                     parallelism (parallel.etp; 0: tp's) simulated */
    int ep_overlap;               /* 1: the all-to-alls ran beside another micro-batch's
                                     compute (parallel.ep_overlap) */
    double global_batch;          /* samples per optimizer step over all workers */
    double mfu;                   /* model FLOPs utilisation (PaLM's: 3 x forward FLOPs per
                                     sample, no recompute, over the train workers' dense peak
                                     at the precision); NAN when unknown */
    enum plan_bound bound;
    char bound_text[512];         /* e.g. "CPU-bound: 96 vCPU keep 8 A100 busy 45%" */
    double band_lo_s, band_hi_s;  /* where the real step time is expected to lie, from the
                                     validated error of the parts (docs/model.md) */
    double train_band_lo_s, train_band_hi_s; /* the time to train over that band (NAN
                                     unknown); the cost to train is the price times it */
    char compute_note[128];       /* how the precision runs on the train GPU when it is not
                                     as asked ("V100 has no bf16: runs fp16"), else "" */
    char batch_note[192];         /* when the samples a step differ from workload.global_batch
                                     (whole micro-batches a replica): by how much; else "" */
    enum sc_sharding sharding;    /* the stage simulated */
    int batch_per_gpu;            /* the micro-batch simulated */
    enum sc_recompute recompute;  /* the activation recompute simulated */
    char layout_why[896];         /* sharding or batch_per_gpu auto: the layout the planner
                                     chose and why (layout.c); "" otherwise */
    int nsim;                     /* simulations run for this cluster (layouts tried) */
    char assumed[PLAN_MAX_ASSUMED][320]; /* what was assumed where the catalog or scenario is
                                     silent (assume.c) */
    int nassumed;
    struct sim_coll_choice collectives[PLAN_MAX_COLLECTIVES]; /* under strategy auto, the
                                     step's distinct collectives with NCCL's choice for each
                                     (sim_collectives), the first ncollectives; none otherwise.
                                     Filled for the clusters plan_run() and the search return */
    int ncollectives;
    struct plan_measured measured[PLAN_MAX_MEASURED]; /* the numbers of the resolved cluster
                                     that a calibration profile gave (plan_measured), the first
                                     nmeasured; none without a profile.  Filled as collectives */
    int nmeasured;
};

/* A listed cluster that could not be simulated (its GPU's peak unknown,
 * say): left out of the comparison with its reason. */
struct plan_failed {
    char name[64];
    char why[1024];
};

/*
 * A tie on the objective (docs/plan.md "Ties"): clusters within the part of
 * the model's error their comparison does not share, at most 2% worse on
 * the objective than its best; the second criterion picks among them.
 */
struct plan_tie_report {
    int n;                        /* clusters that tie with the objective's best; 0: none,
                                     and the rest is unset */
    int first;                    /* the objective's best (clusters[] or the search's top) */
    int other;                    /* the one the recommendation is compared with: the
                                     objective's best, or when that is the recommendation,
                                     the closest of those tying with it */
    const char *by;               /* the second criterion: "time" or "cost" */
    double gap;                   /* the worse one's objective over the better's, less 1 */
    double error;                 /* the uncorrelated relative error of that comparison */
    double limit;                 /* the gap a tie allows: error, at most 0.02 */
};

struct plan_report {
    const struct scenario *sc;
    struct plan_cluster *clusters; /* the clusters compared, in the scenario's order */
    int nclusters;
    struct plan_failed *failed;   /* those that could not be simulated, in order */
    int nfailed;
    struct sim_trace *traces;     /* per cluster, the simulated steps when asked for
                                     (plan_opts.trace); NULL otherwise.  Owned. */
    double solved_value;          /* the input solved from measured_step (NAN if none) */
    double solved_lo, solved_hi;  /* when the measured step only bounds it: its range, the
                                     middle in solved_value; NAN when solved exactly */
    char solved_what[64];         /* "cpu_s_per_sample" or "compute_s" */
    int best;                     /* index of the recommended cluster, -1 if none feasible */
    enum plan_action action;
    char reason[PLAN_REASON_LEN];
    char ranked_by[128];          /* what the objective compared: "time to train", "cost per
                                     sample (the clusters' global batches differ: ...)" */
    struct plan_tie_report tie;   /* how best won a tie, if it did */
    char today[11];               /* YYYY-MM-DD the prices' ages are taken at (the CLI's,
                                     cli/report_prices.c); "" unknown: no ages */
};

/* How plan_run() goes about it. */
struct plan_opts {
    int trace;                    /* 1: record each cluster's simulated steps (rep->traces) */
    size_t trace_max_records;     /* spans and samples kept per cluster; 0 = no cap */
};

/*
 * Evaluate every cluster of sc (after solving for its measured unknown) and
 * recommend one.  o may be NULL (no trace).  A cluster that cannot be
 * simulated is left out, into rep->failed with its reason, and the others
 * compared.  Returns 0, or -1 with e set, the message naming the cluster,
 * when none can be.  Free rep with plan_report_free().
 */
int plan_run(const struct scenario *sc, const struct plan_opts *o, struct plan_report *rep,
             struct dt_err *e);
void plan_report_free(struct plan_report *rep);

/* What plan_cluster_eval() takes besides the scenario and the cluster. */
struct plan_eval_opts {
    double cpu_s_per_sample;      /* NAN: the scenario's; else a solved value */
    double compute_scale;         /* multiplies compute time (1: as resolved) */
    int unit_flops;               /* 1: compute_scale was solved on a model without FLOPs
                                     (resolve.h resolve_opts.unit_flops) */
    int steps;                    /* > 0: measured steps instead of the scenario's */
    int warmup;                   /* >= 0: warm-up steps instead of the scenario's; -1 keep */
    struct sim_trace *trace;      /* NULL, or a recorder this run fills (sim/trace.h) */
    int whatif;                   /* 1 (default): name the bound by speeding each resource up
                                     in turn (bound.c, a simulation each); 0: from the one
                                     simulation's waits (the search's sweep) */
    struct memo *memo;            /* NULL, or results the runs share (base/memo.h; the layout
                                     search makes its own when NULL) */
};

/* The simulator input of one cluster as the scenario states it (resolve.c). */
int plan_resolve(const struct scenario *sc, const struct sc_cluster *cl,
                 struct sim_config *cfg, struct dt_err *e);

/* What pc's prediction assumed where the catalog or the scenario is silent,
 * into pc->assumed (assume.c). */
void plan_assumptions(const struct scenario *sc, struct plan_cluster *pc);

/* The options that change nothing: the scenario as it is. */
void plan_eval_defaults(struct plan_eval_opts *o);

/*
 * One cluster of sc: resolved, simulated, costed, its bottleneck named,
 * into *pc (pc->cl = cl).  With gradients.sharding or batch_per_gpu auto,
 * the best of the layouts that fit (layout.c).  Errors (exit-1 kind) are
 * the resolver's or the simulator's, without the cluster's name: callers
 * add it.
 */
int plan_cluster_eval(const struct scenario *sc, const struct sc_cluster *cl,
                      const struct plan_eval_opts *o, struct plan_cluster *pc, struct dt_err *e);

/* The measured numbers in cfg (resolved from cl) into out[0..max-1];
 * returns how many.  plan_run() and the search keep them in
 * plan_cluster.measured. */
int plan_measured(const struct scenario *sc, const struct sc_cluster *cl,
                  const struct sim_config *cfg, struct plan_measured *out, int max);

const char *plan_action_name(enum plan_action a);
const char *plan_bound_name(enum plan_bound b);

/* NCCL's view (sim/nccl.h) of `nodes` nodes of instance type `in`, every
 * GPU a rank, with the links a simulation gives them (resolve.c); units of
 * a wider NVLink domain share it as resolve_domain_nodes takes them.  -1 with
 * e when the catalog lacks the GPU or, across nodes, the network. */
struct nccl_shape;
int plan_nccl_shape(const struct cat_instance *in, int nodes, struct nccl_shape *sh,
                    struct dt_err *e);

#endif
