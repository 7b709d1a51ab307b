/*
 * coll.h - gradient-sharing algorithms as phases of fluid flows.
 *
 * A collective on one gradient bucket is a short list of phases.  Each phase
 * waits for a latency (the alpha terms of the alpha-beta model), then moves
 * `amount` per flow instance through resources with multiplicities (see
 * maxmin.h).  Phases in the same lane run in bucket order (one stream, as
 * NCCL and Horovod do); different lanes pipeline across buckets (a parameter
 * server pulls bucket i while workers push bucket i+1).
 *
 * Each algorithm is one file that fills phases (coll_ring.c, coll_tree.c,
 * coll_hd.c, coll_hier.c, coll_ps.c); adding one never touches the event
 * loop.  The closed forms each reproduces on an uncontended network are
 * derived in docs/model.md.
 */
#ifndef DT_COLL_H
#define DT_COLL_H

#include "maxmin.h"
#include "nccl.h"
#include "sim.h"

#define COLL_MAX_PHASES 6

/* One train group as the collective sees it. */
struct coll_group {
    int nodes;            /* nodes in the group */
    int wpn;              /* workers per node (GPUs, or 1 for a CPU node) */
    double alpha_intra;   /* s per intra-node hop */
    double alpha_net;     /* s per network message */
    int r_intra;          /* resource ids, -1 when absent */
    int r_tx, r_rx, r_cpu;
};

struct coll_ctx {
    struct coll_group tg[SIM_MAX_GROUPS];
    int ntg;
    int ps_nodes;         /* dedicated PS nodes, 0 when colocated */
    int r_ps_tx, r_ps_rx, r_ps_cpu;
    double ps_alpha_net;
    double lat_scale;     /* sim_comm.lat_scale: NCCL's latency x this; 0: x 1 */
    int ps_servers;       /* shards */
    int ps_dedicated;
    int ps_serial;        /* 1: every phase in one lane: bucket by bucket */
    double ps_turn_weight;/* > 0: servers take pushes in turn; a worker's transmit
                             carries this many shard times per push (coll_ps.c) */
    double ps_incast;     /* worker nodes whose pushes meet at the servers at once:
                             all of them (sync), fewer when asynchronous */
    double ps_reduce_s_per_byte;
    double ps_first_pull; /* (0, 1]: the pull ends, for the chain, at this fraction
                             (coll_ps.c); 0: when every pull ends */
    int r_fabric;         /* -1 for a non-blocking fabric */
    struct nccl_model nccl; /* strategy auto: NCCL's model of the train groups' shape */
};

struct coll_phase {
    int lane;
    double lat_s;         /* latency before the flow */
    double amount;        /* per flow instance: bytes, or core-seconds for CPU */
    double bound;         /* per-instance rate bound, INFINITY if none */
    int nuse;
    struct mm_use use[MM_MAX_USE];
};

struct coll_ops {
    const char *name;     /* as the scenario spells the strategy */
    int is_ps;            /* 1: a parameter-server strategy (push/pull, servers) */
    /* Fill up to COLL_MAX_PHASES phases for a bucket of `bytes`; return the count. */
    int (*build)(const struct coll_ctx *ctx, double bytes, struct coll_phase *ph);
};

/* One per algorithm file; coll.c's table maps enum sim_strategy to them. */
extern const struct coll_ops coll_ring, coll_tree, coll_hd, coll_hier, coll_ps_sync, coll_ps_async,
    coll_auto;
const struct coll_ops *coll_for(enum sim_strategy s);

/* Shared helpers for the algorithm files (coll.c). */
int coll_ranks(const struct coll_ctx *ctx);
int coll_nodes(const struct coll_ctx *ctx);
int coll_max_wpn(const struct coll_ctx *ctx);
double coll_alpha_intra(const struct coll_ctx *ctx);
double coll_alpha_net(const struct coll_ctx *ctx);
void coll_use(struct coll_phase *ph, int res, double w);
/* One phase in which every rank's flow moves `amount` over its GPU link (if
 * the node has several workers) and, when the job spans nodes, its node's
 * NIC in both directions: the shape of ring, tree and halving-doubling. */
void coll_flat_phase(const struct coll_ctx *ctx, struct coll_phase *ph, double amount, double lat_s);
int ilog2_ceil(int n);
/* One collective of model m's kind on `bytes` as NCCL's choice runs it
 * (coll_auto.c): one phase, 0 with one rank. */
int coll_auto_phase(const struct coll_ctx *ctx, const struct nccl_model *m, double bytes,
                    struct coll_phase *ph);
/* Collective `kind` on `bytes` under strategy st (an all-reduce family one;
 * m: auto's model of that kind, unused otherwise), into ph; the count. */
int coll_build_kind(const struct coll_ctx *ctx, enum sim_strategy st, enum nccl_coll kind,
                    const struct nccl_model *m, double bytes, struct coll_phase *ph);
/* Collectives run one after another, each as its phases in order: a layer's
 * gathers or reductions (shard.c), its tensor-parallel collectives (tp.c). */
#define COLL_SEQ_MAX_PHASES (2 * COLL_MAX_PHASES)
struct coll_seq {
    int nph;
    struct coll_phase ph[COLL_SEQ_MAX_PHASES];
};
/* Append the phases of collective `kind` of `bytes` over ctx under strategy
 * st to sq (auto: NCCL's choice on shape, which may then not be NULL), the
 * uses of links other than the GPUs' own scaled by nic_scale (parallel
 * groups sharing a node's NICs); phases past the room are dropped
 * (coll_seq.c). */
void coll_seq_add(struct coll_seq *sq, const struct coll_ctx *ctx, enum sim_strategy st,
                  enum nccl_coll kind, const struct nccl_shape *shape, double bytes,
                  double nic_scale);

/* The time a collective of `kind` on `bytes` takes alone on a group of
 * `nodes` x `wpn` GPUs of g under cfg's strategy (auto: NCCL's choice on
 * shape, NULL for the default model), each phase at the rate its busiest
 * link allows (coll_seq.c). */
double coll_alone_s(const struct sim_config *cfg, const struct sim_group *g,
                    const struct nccl_shape *shape, int nodes, int wpn, enum nccl_coll kind,
                    double bytes);

/* Expected largest bin when `balls` balls fall uniformly and independently
 * into `bins` bins (exact; 1 for one ball, 0 for none). */
double coll_expected_max_load(int balls, int bins);

#endif
