/*
 * sim.h - the public interface of the simulation core.
 *
 * The core is pure: it takes a fully resolved struct sim_config (plain
 * numbers, SI units: seconds, bytes, bytes/s) and fills a struct sim_result.
 * It does no I/O, never prints and never exits; it depends on libc, libm and
 * GSL only.  The front end and the planner build the config from the
 * catalog, the scenario and calibration profiles.
 *
 * What is simulated: steady-state synchronous (or asynchronous PS) data-
 * parallel training steps of one representative worker per distinct group.
 * Identical workers are simulated once and carried as multiplicities on the
 * shared resources, so the cost grows with the number of distinct groups and
 * gradient buckets, not with the number of GPUs.  See docs/model.md.
 */
#ifndef DT_SIM_H
#define DT_SIM_H

#include "../base/xmem.h"
#include "nccl.h"

#define SIM_MAX_GROUPS 8
#define SIM_MAX_PP_CHUNKS 256   /* model chunks a pipeline's layers are given in (pp_layers) */
#define SIM_MAX_BUCKETS 1000000 /* gradient buckets a step (sim_check; scenarios stop at 1e5) */

struct sim_trace;
struct memo;

enum sim_role { SIM_TRAIN = 0, SIM_DATA, SIM_PS };

/* How the GPUs of a node reach each other (NCCL's view, sim/nccl.h). */
enum sim_link { SIM_LINK_PCIE = 0, SIM_LINK_NVLINK, SIM_LINK_NVSWITCH };

enum sim_strategy {
    SIM_RING = 0,
    SIM_TREE,
    SIM_HALVING_DOUBLING,
    SIM_HIERARCHICAL,
    SIM_PS_SYNC,
    SIM_PS_ASYNC,
    SIM_AUTO,               /* per bucket, what NCCL's cost model picks (sim/nccl.h) */
    SIM_NSTRATEGY
};

/* A group of identical nodes. */
struct sim_group {
    enum sim_role role;
    int count;              /* nodes in the group, >= 1 */
    int gpus;               /* GPUs per node; 0 = CPU node (a CPU train node is one worker) */
    double vcpus;           /* vCPUs per node */
    double loader_vcpus;    /* vCPUs per node the input pipeline may use */
    double core_speed;      /* speed of one vCPU relative to the reference core, > 0 */
    double nic_Bps;         /* effective NIC bandwidth per node per direction, bytes/s */
    double net_alpha_s;     /* latency of one message across the network, s */
    double intra_Bps;       /* effective GPU-to-GPU bandwidth per GPU per direction, bytes/s */
    double intra_alpha_s;   /* latency of one intra-node hop, s */
    double pcie_Bps;        /* host-to-device bandwidth per GPU, bytes/s */
    /* What strategy auto needs of a GPU node (NCCL's tuning model): */
    int gpu_cc;             /* compute capability x 10 (70 V100, 80 A100, 90 H100); 0 unknown */
    int gpu_cdna;           /* AMD Instinct's CDNA generation (3 MI300X); 0: NVIDIA's, NCCL */
    enum sim_link link;     /* the GPU-to-GPU link's kind */
    int nics;               /* NICs per node (rails); 0 unknown: 1 */
    int cpu_amd;            /* 1: AMD host processors */
    /* The network between nodes as NCCL runs over it (catalog/fabric.h): the
     * latency its plugin reports (the choice only), a hop's latency in the
     * time in place of NCCL's (0: NCCL's) and what Simple adds to it, the
     * protocols across nodes (1 << NCCL_LL | ...; 0: all) and a ring pinned
     * by the fabric's environment (NCCL_ALGO=Ring); the buffer and NVLS tree
     * chunks that environment sets, bytes (0: NCCL's); the plugin's tuner
     * (enum nccl_tuner, 0: none); a multi-node ring step's overhead,
     * [LL and LL128, Simple] (0: NCCL's netOverhead; nccl_shape.net_step_s). */
    double net_plugin_lat_s, net_hop_s, net_simple_s, net_step_s[2];
    struct nccl_a2a_net net_a2a; /* an all-to-all across the network (nccl_a2a.c) */
    int net_protos, net_ring_only, net_tuner;
    double net_buff_bytes, net_nvls_chunk_bytes, net_nvls_tree_max_bytes;
    /* in-network reduction: 1 where the switches reduce (NCCL's CollNet), and the share of
     * the NICs such an all-reduce reaches (nccl_shape.collnet, collnet_eff) */
    int net_collnet;
    double net_collnet_eff;
    /* A calibration's own all-reduce (docs/profile.md): t = coll_alpha_s + coll_beta_s S over
     * coll_ranks ranks on coll_nodes nodes; strategy auto runs the measured time on that shape
     * and NCCL's model on the others.  coll_beta_s 0: none */
    double coll_alpha_s, coll_beta_s;
    int coll_ranks, coll_nodes;
    double fwd_s;           /* forward time of one worker per step, s (train groups) */
    double bwd_s;           /* backward time of one worker per step, s */
    /* The planner's account of the host's launches (planner/resolve_host.c), not read here:
     * of fwd_s + bwd_s, host_wait_s waits for the host to issue the kernels, s, where each
     * of host_passes layer passes a step takes at least host_floor_s, for the share
     * host_moe_share of them (the MoE layers) */
    double host_wait_s, host_floor_s, host_passes, host_moe_share;
    /* The planner's account of expert parallelism's overlap (planner/resolve_ep.c), not read
     * here: of fwd_s + bwd_s, the seconds the compute beside the all-to-alls loses to the SMs
     * the dispatcher holds (parallel.ep_sms), and that count */
    double ep_sm_slow_s;
    int ep_sms_held;
    double ep_gather_wait_s;    /* of fwd_s + bwd_s, the exposed expert tensor-parallel
                                   gathers and reduce-scatters beside the all-to-alls, s */
    double ep_flow_s;           /* the exposed all-to-alls' time alone where they run as
                                   flows (sim_comm.ep_*), not in fwd_s + bwd_s, s */
    /* Of fwd_s + bwd_s, the seconds the layers spend beyond their compute, s: layer_wait_s
     * in every layer alike (context parallelism's exchanges, offloading's copies), moe_wait_s
     * in the MoE layers alone (expert parallelism's all-to-alls and the compute they slow, the
     * host's floor).  A pipeline (pp.c) charges them to the chunks holding those layers and
     * none to the output layer and loss; 0: none */
    double layer_wait_s, moe_wait_s;
    /* Of moe_wait_s, the seconds expert parallelism's all-to-alls keep the layers waiting
     * where a pipeline runs them as waits (sim_comm.ep_nvl_bytes and ep_net_bytes 0): pp.c
     * reports that share of the MoE layers' waits as ep_comm_s; 0: none */
    double ep_wait_s;
    double opt_s;           /* optimizer update per step, s */
    double comm_slowdown;   /* >= 1: backward runs this many times slower while a gradient
                               collective of the group's chain is in flight (its kernels
                               hold SMs); 0 or 1: not at all */
    double price_usd_h;     /* price of one node per hour */
};

struct sim_workload {
    double batch;               /* samples per worker per step (accumulation included) */
    int accum;                  /* micro-batches a step whose gradients accumulate before
                                   they are shared (grad_accum); <= 1 none.  Only the last
                                   one's backward releases buckets (sim.c) */
    double grad_bytes;          /* gradient bytes per worker per step, as sent */
    double cpu_s_per_sample;    /* input pipeline cost on the reference core, s */
    double prep_bytes;          /* bytes per preprocessed sample (H2D, data node -> GPU node) */
    int loader_workers;         /* pipeline threads per worker, >= 1 */
    int prefetch;               /* batches the pipeline may hold ahead; 0 = on demand, no overlap */
    int local_with_data_nodes;  /* train nodes preprocess too when data nodes exist */
    double send_cpu_s_per_byte; /* data service: reference-core s per byte to serialize a batch */
    double recv_cpu_s_per_byte; /* data service: reference-core s per byte to receive it on the train node */
    double ps_reduce_s_per_byte;/* PS summation cost, core-seconds per byte received */
    double step_overhead_s;     /* fixed time a step, s, taken with the optimizer's update:
                                   what a framework spends a step beyond the kernels it
                                   times (the loss and norm syncs, the scheduler, logging) */
};

/* Sharded data parallelism (ZeRO, Rajbhandari et al. 2020; PyTorch FSDP),
 * sim/shard.c.  The model runs in `units`; gradients are reduce-scattered
 * unit by unit after their backward (instead of all-reduced in buckets),
 * and parameters all-gathered unit by unit one unit ahead of their use.
 * OPT (ZeRO-1): the updated parameters gathered before the step's first
 * forward, the gradients accumulated whole and reduced after the last
 * micro-batch's backward (Megatron's distributed optimizer with overlapped
 * gathers).  OPT_GRAD (ZeRO-2; FSDP SHARD_GRAD_OP): reduced after every
 * micro-batch's backward.  FULL (ZeRO-3; FSDP FULL_SHARD): also gathered
 * again before each backward and each micro-batch's forward.  HYBRID (FSDP
 * HYBRID_SHARD): FULL within a node, and each reduced shard all-reduced
 * across the nodes. */
/* sim_comm.tp_recompute */
enum { SIM_TP_REDO_NONE = 0, SIM_TP_REDO_ALL, SIM_TP_REDO_GATHERS };

enum sim_shard { SIM_SHARD_NONE = 0, SIM_SHARD_OPT, SIM_SHARD_OPT_GRAD, SIM_SHARD_FULL,
                 SIM_SHARD_HYBRID };

struct sim_comm {
    enum sim_strategy strategy;
    enum sim_shard shard;       /* not with the parameter-server strategies */
    double param_bytes;         /* sharded: the parameters as gathered, bytes */
    int units;                  /* sharded: units of the model (layers), >= 1 */
    int micro_batches;          /* sharded: forward-backward passes per step, >= 1 */
    int tp;                     /* tensor-parallel ranks (Megatron style), >= 1; they divide
                                   a node's GPUs or are whole nodes (sim/tp.c).  Data
                                   parallelism runs over the ranks / tp at one position */
    double tp_gather_bytes;     /* sequence parallel: the forward's all-gathers' bytes where
                                   they move fp8 (a byte an element: Transformer Engine's
                                   and torchao's fp8 all-gather); 0: tp_bytes */
    double tp_bytes;            /* tp > 1: one layer's activation all-reduce, s b h at 16
                                   bits, bytes a micro-batch; two after each layer's forward
                                   and two after its backward, the layer waiting for them */
    double tp_moe_share;        /* of the layers, the share whose feed-forward block is a
                                   mixture of experts without shared experts: it runs no
                                   dense block's second pair of collectives (its experts'
                                   own, over their expert tensor-parallel ranks, are the
                                   planner's: planner/resolve_ep.c); 0: every layer's */
    int tp_sp;                  /* 1: sequence parallel: each all-reduce runs as a reduce-
                                   scatter and an all-gather of the same bytes */
    int tp_recompute;           /* SIM_TP_REDO_*: what a recomputing backward runs again of
                                   its forward's collectives after its own: all of them
                                   (full recompute), the all-gathers (per-operator
                                   recompute, which saves reduce-scatters' outputs and
                                   not all-gathers'; unsplit, the projection's all-reduce) */
    double tp_redo_skip;        /* of the layers, the share that does not recompute
                                   (workload.recompute_layers): tp_recompute's pass runs
                                   1 - this of its collectives' bytes and latency; 0 all */
    int tp_overlap;             /* 1: a layer's collectives run beside its compute (split
                                   GEMMs, Megatron's --tp-comm-overlap): the layer ends when
                                   both have, and computes slower (comm_slowdown) meanwhile;
                                   0: after it, waited for */
    double tp_gemm_share[4];    /* tp_overlap: of a layer's compute, the shares of the four
                                   products next to its collectives (the Q, K, V projection,
                                   the attention's output projection, the two feed-forward
                                   products), each the only compute its collective hides
                                   under; all 0: the whole layer's */
    /* Expert parallelism's all-to-alls (sim/ep.c; planner/resolve_ep.c) as flows: in each
     * MoE layer every GPU sends its tokens' copies to the ranks of their experts and takes
     * the results back, on the compute stream.  One all-to-all of one micro-batch moves
     * ep_nvl_bytes of a GPU's over its GPU link and ep_net_bytes over its share of the
     * node's NICs (every GPU of a node runs its own at once).  A layer's forward runs
     * ep_fwd of them and its backward ep_bwd (the MoE layers' share of the layers counted
     * in).  ep_exposed of their time alone is waited for after the layer's compute; under
     * ep_overlap they start with the compute (one micro-batch's beside another's: the
     * planner's share hidden) and the layer waits at least that long after it.  Both bytes
     * 0: none here (a pipeline's stages take them as waits, sim_group.ep_wait_s). */
    int ep;                     /* expert-parallel ranks, >= 1 (0: none) */
    double ep_nvl_bytes, ep_net_bytes;
    double ep_net_lat_s;    /* what each all-to-all across nodes costs beyond its bytes
                               (nccl_a2a_over_s), s; 0: nothing */
    double ep_fwd, ep_bwd;      /* all-to-alls a layer's forward, backward, >= 0 */
    double ep_exposed;          /* (0, 1]: the share of their time alone waited for */
    int ep_overlap;             /* 1: they start with the layer's compute */
    /* Pipeline parallelism (sim/pp.c): pp > 1 stages, each a block of tp x dp ranks in
     * Megatron's order (tp innermost, then dp, then pp); one train group.  units are the
     * model's layers, micro_batches the micro-batches a pipeline runs a step. */
    int pp;                     /* pipeline stages, >= 1 (0: none) */
    int pp_interleave;          /* model chunks a stage (interleaved 1F1B), >= 1; > 1 needs
                                   micro_batches a multiple of pp */
    int pp_order;               /* rank placement: SIM_ORDER_TP_DP_PP (0, Megatron's: a
                                   stage's tp x dp ranks together) or SIM_ORDER_TP_PP_DP (a
                                   replica's tp x pp ranks together) */
    int pp_dualpipe;            /* 1: DeepSeek-V3's DualPipe schedule (sim/pp.c schedule): each
                                   rank runs stages s and pp - 1 - s, half the micro-batches
                                   each way; pp even, one chunk a stage */
    int pp_ends;                /* 1: the embedding and the loss each count as a layer when
                                   the layers are cut into chunks (sim_pp_layers) */
    int pp_nlayers;             /* > 0: pp x interleave counts in pp_layers, each chunk's
                                   layers (chunk k of stage s at k x pp + s), adding up to
                                   units, given rather than cut evenly */
    int pp_layers[SIM_MAX_PP_CHUNKS];
    double pp_head_frac;        /* of a micro-batch's forward and backward compute (the
                                   train group's fwd_s + bwd_s less its layer_wait_s and
                                   moe_wait_s), the share outside the layers (embedding, final
                                   norm, output layer and loss): the last stage runs it */
    int pp_moe_layers[SIM_MAX_PP_CHUNKS];   /* each chunk's MoE layers (of pp_layers, or of
                                   sim_pp_layers' cut), which take the train group's
                                   moe_wait_s; all 0: every layer a share */
    double pp_embed_frac;       /* of grad_bytes, the share of the input embedding (first
                                   stage) */
    double pp_out_frac;         /* of grad_bytes, the share of the output layer (last stage;
                                   a tied embedding's copy) */
    double pp_p2p_bytes;        /* activation bytes a GPU sends to the next stage a micro-
                                   batch (and its gradient back) */
    int all_micro_batches;      /* sharded: 1 simulates every micro-batch; 0 the first, the
                                   last, and one in the middle that stands for the others,
                                   dilated in time (shard.c) */
    double bucket_bytes;        /* gradient bucket size, bytes, > 0 */
    const double *bucket_list;  /* sizes of the first buckets in the order backward
                                   releases them (PyTorch DDP's, say), bytes; later
                                   ones bucket_bytes; NULL: all bucket_bytes */
    int nbucket_list;
    int overlap;                /* 1: buckets start during backward */
    int ps_servers;             /* number of servers (shards); dedicated: PS nodes count */
    int ps_dedicated;           /* 1: servers are the SIM_PS group; 0: colocated on train nodes */
    int ps_serial;              /* 1: a worker finishes bucket b's pull before pushing b+1
                                   (no pipelining across buckets); 0: pipelined */
    int ps_in_turn;             /* 1: a synchronous dedicated server takes one worker's push
                                   at a time, in random order (coll_ps.c); 0: all at once */
    double ps_first_pull;       /* synchronous dedicated servers: of the pull time, when the
                                   first worker has its pull (calibrated pull_overlap;
                                   coll_ps.c); 0: the pulls end together */
    double cycle_s;             /* all-reduce strategies: a bucket all members released starts
                                   on the next tick of a background loop of this period, ticks
                                   at whole multiples of it (Horovod's cycle time); 0: at once */
    double lat_scale;           /* multiplies the latency NCCL's model gives a collective (a
                                   what-if, the planner's bottleneck search); 0: 1 */
};

struct sim_config {
    struct sim_group groups[SIM_MAX_GROUPS];
    int ngroups;
    struct sim_workload w;
    struct sim_comm c;
    double fabric_oversub;      /* >= 1; 1 = non-blocking fabric */
    int steps;                  /* measured steps, >= 1 */
    int warmup;                 /* discarded steps, >= 0 */
    double jitter_cv;           /* compute-time jitter (lognormal cv), >= 0 */
    unsigned long seed;
    struct sim_trace *trace;    /* NULL, or a recorder filled by sim_run (trace.h); not owned */
    struct memo *memo;          /* NULL, or results kept between one caller's runs
                                   (base/memo.h: the pipeline's schedules); not owned */
};

/* Per-group utilisation and traffic, averaged over the measured steps. */
struct sim_group_stats {
    double cpu_util;            /* busy vCPUs / vCPUs (0..1) */
    double nic_tx_util;         /* 0..1 */
    double nic_rx_util;
    double intra_util;          /* GPU link, 0..1 */
    double pcie_util;
    double gpu_util;            /* compute time / step time (train groups) */
};

struct sim_result {
    double step_mean_s, step_p50_s, step_p95_s;
    double compute_s;           /* mean fwd+bwd per step of the slowest train group */
    double data_stall_s;        /* mean wait for an input batch */
    double exposed_comm_s;      /* mean time from end of backward to last bucket shared;
                                   sharded, also the waits for parameters to arrive */
    double comm_interference_s; /* mean time backward lost to collectives in flight
                                   (sim_group.comm_slowdown), not in compute_s */
    double optimizer_s;
    double tp_comm_s;           /* of exposed_comm_s, the tensor-parallel collectives a layer
                                   waits for (sim/tp.c) */
    double ep_comm_s;           /* of exposed_comm_s, expert parallelism's all-to-alls the MoE
                                   layers wait for (sim/ep.c; a pipeline's, sim/pp.c) */
    double pp_bubble_s;         /* pipelined: time the step's slowest stage waits on the others
                                   (the bubble, activations in transit), not in compute_s */
    double workers;             /* data-parallel workers (GPUs, or CPU train nodes) */
    double samples_per_s;
    double util_gpu, util_cpu, util_nic; /* cluster-level: mean GPU busy, busy/total vCPUs, busiest NIC direction */
    struct sim_group_stats g[SIM_MAX_GROUPS];
    long events;                /* events processed (for benchmarks) */
};

/* Validate cfg (asserts of the core turn into an error record here). */
int sim_check(const struct sim_config *cfg, struct dt_err *e);

/* Gradient buckets per step for grad_bytes: the listed ones, then bucket_bytes each. */
int sim_bucket_count(const struct sim_comm *c, double grad_bytes);
/* Bucket b's size before the last, which holds what is left (bucket.c). */
double sim_bucket_cap(const struct sim_comm *c, int b);

/* One collective of a step as strategy auto runs it: NCCL's choice on the
 * cluster's shape (sim/nccl.h). */
struct sim_coll_choice {
    const char *collective;     /* "all_reduce", "all_gather", "reduce_scatter" */
    double bytes;
    const char *library;        /* "NCCL", or "RCCL" on AMD GPUs (nccl_shape.rccl) */
    const char *algorithm;      /* "ring", "tree", "nvls", "nvls_tree", "pat", "allpairs" */
    const char *protocol;       /* "LL", "LL128", "Simple" */
    int channels;
    double time_s;              /* uncontended */
    double busbw_Bps;           /* nccl-tests' bus bandwidth */
};

/* The distinct collectives of a step of cfg with the choice for each, into
 * out (at most max); returns how many.  Unsharded, each bucket size's
 * all-reduce in release order; sharded, a unit's all-gather and reduce-
 * scatter (HYBRID across nodes: within a node, then the all-reduce
 * across).  0
 * when the strategy is not auto or there is one worker. */
int sim_collectives(const struct sim_config *cfg, struct sim_coll_choice *out, int max);

/* NCCL's view of cfg's train groups (sim/nccl.h; coll_auto.c): the most
 * GPUs per node, every node, and of the groups the oldest GPU, the slowest
 * links and the fewest NICs.  -1 when no train group has a GPU. */
struct nccl_shape;
int sim_nccl_shape(const struct sim_config *cfg, struct nccl_shape *sh);
/* HYBRID's two shapes of sh: one node; and one rank a node, each such ring
 * with its share of the node's NICs. */
void sim_hybrid_shapes(const struct nccl_shape *sh, struct nccl_shape *node,
                       struct nccl_shape *across);
/* Under tp tensor-parallel ranks, the shape of a tensor-parallel group (tp
 * GPUs of a node, or tp / ppn whole nodes) and of a data-parallel group
 * (the ranks at one tensor-parallel position: ppn / tp a node, or one every
 * tp / ppn nodes), with its share of the node's NICs: the min(tp, ppn)
 * groups a node holds divide them (*nic_share). */
void sim_tp_shapes(const struct nccl_shape *sh, int tp, struct nccl_shape *tpg,
                   struct nccl_shape *dpg, int *nic_share);

/* Run the simulation.  Deterministic for a given cfg (seed included). */
int sim_run(const struct sim_config *cfg, struct sim_result *res, struct dt_err *e);

/* The closed sets of the core (base/names.h): the i-th name, NULL past the
 * end.  Strategies are listed once, in coll.c's table. */
const char *sim_strategy_name(int s);
const char *sim_role_name(int r);
/* The value of a name, -1 when it is none of the set's. */
int sim_strategy_parse(const char *name);
int sim_role_parse(const char *name);

/* 1 for the parameter-server strategies, 0 for the all-reduce family. */
int sim_is_ps(int s);

/* Whether tensor parallelism tp fits `count` nodes of `gpus` GPUs: it
 * divides a node's GPUs, or spans whole nodes (sim/tp.c). */
int sim_tp_fits(int gpus, int count, int tp);

/* Rank placements of a 3D layout (sim_comm.pp_order), tensor-parallel ranks
 * innermost: Megatron's, then data-parallel, then pipeline; or pipeline
 * before data-parallel. */
enum { SIM_ORDER_TP_DP_PP = 0, SIM_ORDER_TP_PP_DP = 1 };

/* Whether pp pipeline stages of tp-wide tensor-parallel groups fit `count`
 * nodes of `gpus` GPUs in Megatron's order: tp x pp divides the GPUs, and a
 * stage's tp x dp ranks are whole nodes or divide one (sim/pp.c). */
int sim_pp_fits(int gpus, int count, int tp, int pp);
/* The same in placement order (SIM_ORDER_*): with pipeline before data
 * parallelism, a replica's tp x pp ranks are whole nodes or divide one. */
int sim_pp_fits_in(int gpus, int count, int tp, int pp, int order);

/* Transformer layers of each of the pp x v model chunks (chunk c of stage s
 * at index c pp + s) into out: as even as can be, the first and last chunks
 * giving up one each first when they do not divide.  With ends, the
 * embedding and the loss take a layer's place in the first and the last
 * chunk (sim_comm.pp_ends): layers + 2 are cut, the inner chunks giving up
 * first, and needs layers + 2 >= pp v. */
void sim_pp_layers(int layers, int pp, int v, int ends, int *out);

/* Data-parallel workers on one node of g: its GPUs, or 1 for a CPU node. */
static inline int sim_workers_per_node(const struct sim_group *g)
{
    return g->gpus > 0 ? g->gpus : 1;
}

#endif
