/*
 * nccl.h - NCCL's own cost model of a collective, as NCCL 2.30.7 evaluates
 * it to choose an algorithm and a protocol (src/graph/tuning.cc,
 * ncclTopoTuneModel and ncclTopoGetAlgoTime; docs/collectives.md "How NCCL
 * chooses").
 *
 * A cluster shape (GPUs per node, nodes, the GPU generation, the intra-node
 * link and its rate, the NICs) gives, per algorithm, the channels and the
 * per-channel bandwidths that NCCL's topology search would find (nccl.c,
 * graph_of), then NCCL's latency and bandwidth for every (algorithm,
 * protocol) pair.  A message of S bytes costs lat + S / bw on each pair; the
 * cheapest enabled pair is the choice.  Pure: no I/O.  O(1) per message.
 */
#ifndef DT_NCCL_H
#define DT_NCCL_H

/* NCCL_COLLNET_DIRECT, NCCL_COLLNET_CHAIN: the network's switches reduce
 * (InfiniBand SHARP through NCCL's CollNet plugin), only on a shape with
 * `collnet` set.  NCCL_ALLPAIRS: RCCL's MSCCL all-pairs all-reduce on one
 * 8-GPU AMD node (rccl.c); never enabled under NCCL. */
enum nccl_algo {
    NCCL_TREE = 0, NCCL_RING, NCCL_NVLS, NCCL_NVLS_TREE, NCCL_PAT, NCCL_COLLNET_DIRECT,
    NCCL_COLLNET_CHAIN, NCCL_ALLPAIRS, NCCL_NALGO
};
/* The collectives the model covers: S is the buffer of an all-reduce, the
 * gathered buffer of an all-gather, the input of a reduce-scatter (as
 * nccl-tests sizes them). */
enum nccl_coll { NCCL_ALLREDUCE = 0, NCCL_ALLGATHER, NCCL_REDUCESCATTER, NCCL_NCOLL };
enum nccl_proto { NCCL_LL = 0, NCCL_LL128, NCCL_SIMPLE, NCCL_NPROTO };
enum nccl_link { NCCL_LINK_PCI = 0, NCCL_LINK_NVLINK, NCCL_LINK_NVSWITCH };

/* An all-to-all across a network (nccl_a2a.c; catalog/fabric.h a2a_*): its
 * share of the NICs' rate (0: all of it) and what it costs beyond its bytes,
 * s, once a call and once a remote peer (0: nothing). */
struct nccl_a2a_net {
    double eff, call_s, peer_s;
};

struct nccl_shape {
    int nodes;              /* >= 1 */
    int ppn;                /* GPUs (ranks) per node, >= 1 */
    int cc;                 /* compute capability x 10 of the oldest GPU (70 Volta, 80
                               Ampere, 90 Hopper, 100 Blackwell); 0 unknown: Ampere's
                               tables, and the caller says so */
    enum nccl_link link;    /* how the GPUs of a node reach each other */
    double intra_Bps;       /* per GPU, per direction, all its links, at the rate NCCL
                               counts them (nccl_link_rate), bytes/s */
    double net_Bps;         /* per node, per direction, all NICs, bytes/s */
    int nics;               /* per node, >= 1 */
    int amd_cpu;            /* 1: AMD host CPUs (NCCL's multi-node LL cap and post overhead) */
    double net_lat_s;       /* latency the network plugin reports (graph latencyInter):
                               0 for InfiniBand and RoCE, 35 to 150 us for AWS EFA; NCCL
                               adds it to each network hop when it chooses */
    double net_hop_s;       /* a network hop's latency in the time, in place of NCCL's
                               hwLat for the network; 0: NCCL's */
    double net_simple_s;    /* with net_hop_s, more a hop under Simple */
    double net_step_s[2];   /* a multi-node ring step's overhead on this network, [LL and
                               LL128, Simple]: every step of such a ring takes it at least,
                               overlapped with the step's transfer in quadrature (run time
                               only; nccl.c ring_step); 0: NCCL's netOverhead */
    struct nccl_a2a_net a2a; /* an all-to-all across this network (nccl_a2a.c) */
    int protos;             /* protocols across nodes, 1 << NCCL_LL | ...; 0: all */
    double buff_bytes;      /* NCCL_BUFFSIZE, the Simple protocol's buffer a connection;
                               0: NCCL's 4 MiB */
    double nvls_chunk_bytes, nvls_tree_max_bytes; /* NCCL_NVLS_CHUNKSIZE and
                               NCCL_NVLSTREE_MAX_CHUNKSIZE; 0: NCCL's tuning */
    int ring_only;          /* 1: NCCL_ALGO=Ring (the fabric's environment) */
    int collnet;            /* 1: the network reduces in its switches (InfiniBand SHARP
                               through NCCL's CollNet plugin, NCCL_COLLNET_ENABLE=1): NCCL
                               weighs CollNetDirect and CollNetChain across nodes */
    double collnet_eff;     /* with collnet, the share of the node's NICs an in-network
                               all-reduce runs at (the switches' aggregation rate);
                               0: NCCL's price alone (nccl_collnet.c) */
    int tuner;              /* the network plugin's tuner (enum nccl_tuner; nccl_tuner.c):
                               the pair it names runs in place of NCCL's choice */
    double meas_alpha_s, meas_beta_s; /* an all-reduce measured on meas_nodes x meas_ppn: on
                                   that shape it runs alpha + beta S whatever NCCL picks
                                   (nccl_on); meas_beta_s 0: none */
    int meas_nodes, meas_ppn;
    int node_gpus;          /* GPUs a node holds, >= ppn (0: ppn); over a point-to-point
                               mesh (NCCL_LINK_NVLINK under RCCL) a group of ppn of them
                               reaches the others over ppn - 1 of their node_gpus - 1
                               links */
    int rccl;               /* the collectives are RCCL's on AMD Instinct GPUs of this CDNA
                               generation (3: MI300X, MI325X; 4: MI350X, MI355X), timed by
                               rccl.c; 0: NCCL's */
};

/* What NCCL's model gives each (algorithm, protocol) pair on a shape, and
 * what the pair runs at (docs/collectives.md "Choice and time").  They
 * differ in two places: NCCL rates NVLS from the search's rounded
 * per-channel speed, which undervalues fewer than 8 GPUs, where run_bw
 * takes NCCL's own NVLS efficiency at the GPU's full link rate
 * (nvls_run_bw); and the network plugin's latency, which counts in the
 * choice only. */
struct nccl_model {
    struct nccl_shape sh;
    enum nccl_coll coll;
    int nch[NCCL_NALGO];                  /* channels of each algorithm's graph */
    double bw[NCCL_NALGO][NCCL_NPROTO];   /* NCCL's algorithm bandwidth, bytes/s; 0: disabled */
    double run_bw[NCCL_NALGO][NCCL_NPROTO]; /* the bandwidth a collective runs at, bytes/s */
    double lat[NCCL_NALGO][NCCL_NPROTO];  /* NCCL's latency, s */
    double run_lat[NCCL_NALGO][NCCL_NPROTO]; /* the latency a collective runs with: NCCL's
                                            without the network plugin's (net_lat_s), a
                                            figure aws-ofi-nccl sets to steer the choice */
    double run_step[NCCL_NALGO][NCCL_NPROTO]; /* a multi-node ring's steps times the
                                            network's step overhead (net_step_s), s, run in
                                            quadrature with the transfer; 0: none */
};

struct nccl_choice {
    enum nccl_algo algo;
    enum nccl_proto proto;
    int channels;
    double lat_s;           /* the latency term it runs with */
    double fill_s;          /* the pipeline's start (nccl_fill_s) */
    double algbw_Bps;       /* bytes / (time - lat - fill), with the model's per-size
                               corrections */
    double time_s;          /* lat + fill + bytes / algbw: what the collective takes */
    double nccl_time_s;     /* what NCCL's model predicts (the choice's criterion) */
    double busbw_Bps;       /* nccl-tests' bus bandwidth: bytes / time_s x 2(k-1)/k for an
                               all-reduce, x (k-1)/k for the others */
    int by_tuner;           /* 1: the network plugin's tuner named the pair (nccl_pick) */
};

/* NCCL's bandwidth of one NVLink of a GPU of compute capability cc, per
 * direction, over the link's line rate: the share NCCL's topology counts
 * (src/graph/topo.h: SM60 18.0, SM70 and SM80 20.0, SM86 12.0, SM90 20.6,
 * SM100 40.1 GB/s per link, against 20, 25, 14.06, 25 and 50 GB/s line
 * rates). */
double nccl_link_eff(int cc);

/* The share of that counted rate a ring or point-to-point transfer over
 * NVLink runs at: 0.923 on NVLink 5 (cc >= 100), from Oracle's GB200 tray
 * (a ring of 4 GPUs at 8 GiB, 663.34 GB/s against 718.8: the input,
 * validate/published/nccl_cases.csv), 1 elsewhere (Hopper's one-node rings
 * within 2.3% of NCCL's count).  NCCL's graph search and choice keep the
 * count; NVLS keeps its own efficiency (docs/collectives.md "NVLink 5's
 * run rate"). */
double nccl_link_run(int cc);

/* NCCL's bandwidth of a PCIe link over its per-direction rate (topo.h:
 * PCI_BW 12.0 for a Gen3 x16 link of 16 GB/s). */
#define NCCL_PCI_EFF 0.75

/* Fill m for collective c on shape sh.  O(1). */
void nccl_model_init(struct nccl_model *m, const struct nccl_shape *sh, enum nccl_coll c);

/* The time of m's collective on `bytes` by pair (a, p); -1 when the pair
 * is disabled on this shape, else 0 and *c filled. */
int nccl_on(const struct nccl_model *m, enum nccl_algo a, enum nccl_proto p, double bytes,
            struct nccl_choice *c);

/* The start of the pipeline of pair (a, p) on `bytes` across nodes, s: one
 * window of NCCL_STEPS steps, at the chunk NCCL uses for that size, of
 * every connection leaving a node, through the node's NICs (nccl_fill.c;
 * docs/collectives.md "Pipeline fill").  On one node, NVLS's all-reduce
 * only: NVLS_FILL_ROUNDS rounds of its concurrent operations' chunk at its
 * rate ("NVLS's fill on one node"); 0 for the rest.  Part of the time, not
 * of NCCL's choice. */
double nccl_fill_s(const struct nccl_model *m, enum nccl_algo a, enum nccl_proto p, double bytes);

/* The part of a ring's step latencies that its own transfer leaves
 * exposed, s, for `bytes` under protocol p at step_lat_s a step and an
 * algorithm bandwidth of algbw_Bps: a step waits for its latency past half
 * a chunk's crossing of a channel, each loop of the ring again, at most
 * the steps' latency once (nccl_fill.c; docs/collectives.md "A ring's
 * latency behind its transfer").  Simple only; under LL and LL128 the
 * steps' latency whole. */
double nccl_ring_exposed_s(const struct nccl_model *m, enum nccl_proto p, double bytes,
                           double step_lat_s, double algbw_Bps);

/*
 * CollNet, the network's switches reducing (nccl_collnet.c; docs/
 * collectives.md "In-network reduction (SHARP)").
 */
/* The graph NCCL's search finds for CollNet algorithm a (Direct or Chain)
 * on sh, over the n speeds v its search tries across nodes (fastest first,
 * GB/s), the ring's graph having ring_nch channels: *nch channels at
 * *bw_intra and *bw_inter GB/s a channel (*nch 0: none). */
void nccl_collnet_graph(const struct nccl_shape *sh, enum nccl_algo a, const double *v, int n,
                        int ring_nch, int *nch, double *bw_intra, double *bw_inter);
/* Whether NCCL runs CollNet pair (a, p) for collective c on sh with nch
 * channels (tuning.cc's enables). */
int nccl_collnet_ok(const struct nccl_shape *sh, enum nccl_coll c, enum nccl_algo a, int p,
                    int nch);
/* tuning.cc's algorithm bandwidth of CollNet algorithm a for c, GB/s. */
double nccl_collnet_bw(const struct nccl_shape *sh, enum nccl_coll c, enum nccl_algo a, int nch,
                       double bw_intra, double bw_inter);
/* tuning.cc's latency of CollNet algorithm a past its base, us, from a hop's
 * latency inside the node and across. */
double nccl_collnet_lat_us(const struct nccl_shape *sh, enum nccl_algo a, double intra_us,
                           double net_us);
/* What a CollNet collective c priced at bw_Bps runs at, bytes/s: an
 * all-reduce no faster than the node's NICs at the fabric's collnet_eff. */
double nccl_collnet_run_bw(const struct nccl_shape *sh, enum nccl_coll c, double bw_Bps);

/* The messages a channel of the tree sends on `bytes` across nodes under
 * protocol p: its chunks at NCCL's chunk for that size (nccl_fill.c) and
 * the tree's depth, up and down; each waits for a network's step overhead
 * (net_step_s) where it has one.  0 on one node. */
double nccl_tree_msgs(const struct nccl_model *m, enum nccl_proto p, double bytes);

/* NCCL's choice for m's collective on `bytes`: the pair of least time under
 * NCCL's model (nccl_time_s).  -1 when the shape has one rank. */
int nccl_pick(const struct nccl_model *m, double bytes, struct nccl_choice *c);

/* An all-to-all's time (nccl_a2a.c): a rank sending nvl_bytes inside its node
 * at intra_Bps and net_bytes to other nodes at gpu_net_Bps (its share of the
 * node's NICs) plus net_over_s, the slower of the two. */
double nccl_a2a_s(double intra_Bps, double gpu_net_Bps, double nvl_bytes, double net_bytes,
                  double net_over_s);
/* The share of the NICs' rate an all-to-all reaches across a (1 unless set). */
double nccl_a2a_share(const struct nccl_a2a_net *a);
/* What an all-to-all to remote_peers ranks of other nodes costs across a
 * beyond its bytes: a call's cost once and a peer's each; 0 with none. */
double nccl_a2a_over_s(const struct nccl_a2a_net *a, double remote_peers);
/* into *to the stricter of its figures and from's: the smaller share, the
 * larger costs */
void nccl_a2a_merge(struct nccl_a2a_net *to, const struct nccl_a2a_net *from);
/* nccl-tests' alltoall on sh: each rank sends `bytes` in all, bytes / n to
 * each of the n ranks; 0 on one rank. */
double nccl_alltoall_s(const struct nccl_shape *sh, double bytes);

/* The same choice restricted as NCCL_ALGO and NCCL_PROTO restrict it: only
 * algorithm `algo` (-1 any) and protocol `proto` (-1 any) are weighed, so a
 * forced algorithm still gets the protocol NCCL's model picks for it.  -1
 * when no allowed pair is enabled on the shape. */
int nccl_pick_only(const struct nccl_model *m, double bytes, int algo, int proto,
                   struct nccl_choice *c);

/* The steps a ring of k ranks takes for collective c (tuning.cc's nsteps):
 * 2(k - 1) for an all-reduce, k - 1 for a gather or a scatter. */
static inline double nccl_ring_steps(enum nccl_coll c, int k)
{
    return c == NCCL_ALLREDUCE ? 2.0 * (k - 1) : k - 1.0;
}

/* The floor of log2 n (tuning.cc's log2i), 0 for n <= 1. */
static inline int nccl_log2i(int n)
{
    int l = 0;

    while (n > 1) {
        n >>= 1;
        l++;
    }
    return l;
}

/*
 * Tuners that network plugins ship with NCCL: a measured map from (bytes,
 * ranks) to the (algorithm, protocol) pair that runs, which NCCL 2.21 and
 * later load from the plugin's library and obey (nccl_tuner.c).
 */
enum nccl_tuner {
    NCCL_TUNER_NONE = 0,
    NCCL_TUNER_AWS_P5,          /* aws-ofi-nccl's regions for p5 and p5e */
    NCCL_TUNER_AWS_P5EN,        /* ... p5en */
    NCCL_TUNER_AWS_P6_B200,     /* ... p6-b200 */
    NCCL_TUNER_AWS_P6_B300,     /* ... p6-b300 */
    NCCL_NTUNER
};

/* The tuner named `name` ("aws-p5", "aws-p5en", "aws-p6-b200",
 * "aws-p6-b300"); -1 when there is none of that name. */
int nccl_tuner_by_name(const char *name);
const char *nccl_tuner_name(int t);

/* The pair m's shape's tuner names for `bytes`: 0 and *a, *p set when it
 * names an enabled pair, -1 when NCCL's own choice stands (no tuner, two
 * nodes or fewer, a ranks-per-node count it has no map for, a point
 * outside its regions).  O(vertices of one map). */
int nccl_tuner_pick(const struct nccl_model *m, double bytes, enum nccl_algo *a,
                    enum nccl_proto *p);

const char *nccl_algo_name(int a);     /* tree, ring, nvls, nvls_tree, pat, collnet_direct,
                                          collnet_chain, allpairs */
const char *nccl_proto_name(int p);

/*
 * RCCL, AMD's fork of NCCL, as it chooses and runs on AMD Instinct nodes
 * (rccl.c; docs/collectives.md "RCCL on AMD Instinct").
 */

/* RCCL's bandwidth of one xGMI link over its line rate (topo.h:
 * GFX94X_XGMI_WIDTH 48 of 64 GB/s a direction), as nccl_link_eff for
 * NVLink. */
double rccl_link_eff(int cdna);

/* Overwrite m, filled by NCCL's model for shape sh, with RCCL's: its tables
 * for the choice, and what the choice runs at (called by nccl_model_init
 * when sh->rccl). */
void rccl_model_init(struct nccl_model *m, const struct nccl_shape *sh, enum nccl_coll c);

/* RCCL's per-size factor on the bandwidth of pair (a, p) for `bytes`
 * (ncclTopoGetAlgoTime: trees always, rings across nodes); 1 elsewhere. */
double rccl_corr(const struct nccl_model *m, int a, int p, double bytes);

/* The protocol MSCCL's all-pairs all-reduce runs `bytes` with, 0 and *p
 * set, where its algorithm files cover that size on m's shape; -1 where
 * RCCL's own choice stands. */
int rccl_msccl_pick(const struct nccl_model *m, double bytes, enum nccl_proto *p);

/* The channels MSCCL's all-pairs file for `bytes` runs (its nchannels). */
int rccl_allpairs_channels(double bytes);
const char *nccl_coll_name(int c);     /* all_reduce, all_gather, reduce_scatter */

#endif
