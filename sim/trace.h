/*
 * trace.h - an optional recorder of what the simulator does, for timelines.
 *
 * The caller owns a struct sim_trace, sets sim_config.trace to it and runs
 * sim_run(); the simulator then appends, where it already starts and finishes
 * activities, one span per activity and resource (a forward pass on the
 * group's compute track, a batch on the CPU, PCIe and NIC tracks it crosses,
 * each phase of each gradient bucket on the collective's track and on every
 * link it uses) and counter samples (batches ready for the worker, the load
 * of every resource over its capacity after each change of the flow set).
 * With sim_config.trace NULL nothing is recorded and nothing is allocated:
 * every hook is one branch.  Recording never feeds back into the simulation,
 * so results are identical with tracing on or off.
 *
 * Identical ranks are simulated once (sim.h): a track stands for every rank
 * or node of its group (stands_for), and a span's mult says how many flow
 * instances of its kind cross one instance of the resource.
 *
 * Pure: no I/O.  cli/chrome_trace.c turns a recording into the Chrome trace event
 * format.  Cost: O(1) amortised per record (a hash of open activities),
 * memory O(records), bounded by max_records.
 */
#ifndef DT_TRACE_H
#define DT_TRACE_H

#include <stddef.h>

#include "maxmin.h"
#include "sim.h"

/* What a track stands for. */
enum sim_track_kind {
    SIM_TRACK_COMPUTE = 0,  /* a train group's worker: waits, forward, backward, optimizer */
    SIM_TRACK_CPU,          /* a group's CPU: loader workers, data service, PS summation */
    SIM_TRACK_PCIE,         /* host to device, one GPU's share */
    SIM_TRACK_NIC_TX,       /* a node's NIC, transmit direction */
    SIM_TRACK_NIC_RX,       /* a node's NIC, receive direction */
    SIM_TRACK_GPU_LINK,     /* one GPU's intra-node link */
    SIM_TRACK_FABRIC,       /* the oversubscribed fabric (present only when oversubscribed) */
    SIM_TRACK_CHAIN,        /* a collective chain: one span per bucket phase, latency included */
    SIM_TRACK_NKIND
};

/* Activities.  a, b, c identify one instance among those running at once. */
enum sim_act {
    SIM_ACT_WAIT_BATCH = 0, /* a = worker: waiting for an input batch (data stall) */
    SIM_ACT_FWD,            /* a = worker */
    SIM_ACT_BWD,            /* a = worker */
    SIM_ACT_WAIT_COMM,      /* a = worker: backward done, last bucket not yet shared */
    SIM_ACT_OPT,            /* a = worker */
    SIM_ACT_STAGE,          /* a, b, c = worker, producer, stage: a batch in one stage */
    SIM_ACT_PHASE,          /* a, b, c = chain, bucket, phase: latency then transfer */
    SIM_ACT_PHASE_FLOW,     /* a, b, c = chain, bucket, phase: the transfer on its resources */
    SIM_ACT_BUCKET,         /* a, b, c = chain, bucket, worker: bucket released (instant) */
    SIM_ACT_SHARD,          /* a, b, c = lane (SIM_LANE_*), collective of the step (on the
                               tensor-parallel lane, the worker), phase: a per-layer
                               collective's latency then transfer (shard.c, tp.c) */
    SIM_ACT_SHARD_FLOW,     /* a, b, c as SIM_ACT_SHARD: the transfer on its resources */
    SIM_NACT
};

/* The lanes of SIM_ACT_SHARD: a unit's parameter all-gathers, its gradient
 * reductions (shard.c), a layer's tensor-parallel collectives (tp.c), a
 * MoE layer's all-to-alls (ep.c). */
enum { SIM_LANE_GATHER = 0, SIM_LANE_REDUCE, SIM_LANE_TP, SIM_LANE_EP };

enum sim_counter {
    SIM_CNT_READY = 0,      /* batches ready for a worker (the prefetch queue), track = compute */
    SIM_CNT_LOAD            /* resource load over capacity, 0..1, track = the resource */
};

struct sim_trace_track {
    enum sim_track_kind kind;
    int group;              /* index in sim_config.groups; -1 for fabric and chains */
    int index;              /* resource id (resource kinds), worker or chain index */
    double cap;             /* capacity: bytes/s, or reference cores for a CPU; 0 otherwise */
    double stands_for;      /* ranks (compute) or nodes (resources) this track represents */
    /* private */
    double last_ready, last_load;
};

struct sim_trace_span {
    int track;              /* index into tracks */
    enum sim_act act;
    int a, b, c;            /* see enum sim_act */
    int step;               /* step of the worker or chain (warm-up included), -1 unknown */
    double t0_s, t1_s;      /* simulated seconds; t1_s is NAN while the activity runs */
    double amount;          /* bytes or reference-core seconds moved; 0 for waits */
    double mult;            /* flow instances per resource instance (maxmin w); 1 otherwise */
    unsigned long long flow;/* links the spans of one batch or one bucket; 0 none */
};

struct sim_trace_sample {
    int track;
    enum sim_counter what;
    double t_s;
    double v;
};

struct sim_trace_open;      /* private: open activities and begin counts */

struct sim_trace {
    size_t max_records;     /* cap on spans + samples, 0 = none (set by the caller) */
    int truncated;          /* 1: records were dropped at the cap */
    double end_s;           /* simulated time the run stopped */
    struct sim_trace_track *tracks;
    int ntracks, cap_tracks;
    struct sim_trace_span *spans;
    size_t nspans, cap_spans;
    struct sim_trace_sample *samples;
    size_t nsamples, cap_samples;
    /* private */
    struct sim_trace_open *open;
    size_t nopen, cap_open;
    int *res_track;         /* resource id -> track, -1 */
    int nres_track;
    int worker_track[SIM_MAX_GROUPS], chain_track[SIM_MAX_GROUPS];
};

/* Release everything the recording holds; the struct may be reused (max_records kept). */
void sim_trace_free(struct sim_trace *t);

/* ---- hooks, called by the simulator only ---------------------------------- */

void sim_trace_reset(struct sim_trace *t);
void sim_trace_add_track(struct sim_trace *t, enum sim_track_kind kind, int group, int index,
                         double cap, double stands_for);
void sim_trace_begin(struct sim_trace *t, double now, enum sim_act act, int a, int b, int c,
                     int step, double amount, const struct mm_use *use, int nuse);
void sim_trace_end(struct sim_trace *t, double now, enum sim_act act, int a, int b, int c);
void sim_trace_ready(struct sim_trace *t, double now, int worker, int ready);
/* Sample every resource track's load (after mm_solve). */
void sim_trace_loads(struct sim_trace *t, double now, const struct maxmin *m);

#endif
