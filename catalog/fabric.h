/*
 * fabric.h - the networks between GPU nodes, by name (instances.csv column
 * `fabric`, an inline instance's `fabric`; docs/collectives.md "Fabrics"):
 * what the network plugin tells NCCL, which protocols and algorithms run
 * over it, and what a hop across it costs.  A table of facts, each row
 * with its source; no I/O.
 */
#ifndef DT_FABRIC_H
#define DT_FABRIC_H

#include <stddef.h>

enum cat_fabric_kind {
    CAT_FAB_IB = 0,     /* InfiniBand through NCCL's own IB verbs transport */
    CAT_FAB_ROCE,       /* RoCE through the same transport */
    CAT_FAB_EFA,        /* AWS Elastic Fabric Adapter through the aws-ofi-nccl plugin */
    CAT_FAB_TCPX,       /* GCP GPUDirect-TCPX (A3 High) */
    CAT_FAB_TCPXO,      /* GCP GPUDirect-TCPXO (A3 Mega) */
    CAT_FAB_TCP         /* plain Ethernet through NCCL's socket transport */
};

/* Protocols a fabric carries across nodes (a mask). */
enum { CAT_PROTO_LL = 1, CAT_PROTO_LL128 = 2, CAT_PROTO_SIMPLE = 4,
       CAT_PROTO_ALL = CAT_PROTO_LL | CAT_PROTO_LL128 | CAT_PROTO_SIMPLE };

struct cat_fabric {
    const char *name;           /* "ib", "efa-p5", ... */
    enum cat_fabric_kind kind;
    int generation;             /* EFA's generation (1 to 4); 0 for the others */
    double plugin_lat_us;       /* the latency the plugin reports to NCCL, us: NCCL adds it to
                                   each network hop (twice under Simple) when it chooses an
                                   algorithm; aws-ofi-nccl's is a tuning figure, not a wire
                                   latency */
    double hop_us;              /* a network hop's latency in the time, us, in place of NCCL's
                                   own (tuning.cc's hwLat for the network, measured on
                                   InfiniBand); NAN: NCCL's */
    double simple_us;           /* more a hop under the Simple protocol, us (a completion
                                   written back to the host) */
    int protocols;              /* CAT_PROTO_* the fabric carries across nodes */
    int ring_only;              /* 1: the fabric's recommended environment pins NCCL_ALGO=Ring */
    /* What the plugin or the provider's recommended environment sets, KiB; 0: NCCL's own:
     * NCCL_BUFFSIZE (a connection's Simple buffer), NCCL_NVLS_CHUNKSIZE and
     * NCCL_NVLSTREE_MAX_CHUNKSIZE (NVLS tree's chunk across nodes) */
    int buff_kib, nvls_chunk_kib, nvls_tree_max_kib;
    const char *tuner;          /* the tuner the plugin gives NCCL, by name (sim/nccl_tuner.c:
                                   "aws-p5", ...); NULL: NCCL's own choice */
    const char *source;
    /* A multi-node ring step's overhead across this network, us, [LL and LL128, Simple]:
     * each step of a ring that crosses nodes takes it at least, overlapped with the step's
     * transfer (docs/collectives.md "A ring's step period"); 0: NCCL's own (tuning.cc's
     * netOverhead, 1 us, 3 under Simple, added to the intra-node steps) */
    double step_us[2];
    /* An all-to-all across this network (docs/collectives.md "All-to-all"): its share of the
     * NICs' rate (every rank sends to every other at once, and the many concurrent messages
     * run below the rate one stream reaches; 0: all of it), and what a call costs beyond its
     * bytes, us: once a call and once a remote peer (0: nothing) */
    double a2a_eff, a2a_call_us, a2a_peer_us;
    /* In-network reduction (docs/collectives.md "In-network reduction (SHARP)"): 1 where the
     * switches reduce and NCCL runs its CollNet algorithms over them (NCCL_COLLNET_ENABLE=1
     * with the SHARP plugin); the share of the NICs' rate such an all-reduce reaches (0: NCCL's
     * price alone) */
    int collnet;
    double collnet_eff;
};

/* The fabric named `name`, NULL when there is none. */
const struct cat_fabric *catalog_fabric(const char *name);

/* The fabrics' names, comma-separated, into buf (for messages). */
void catalog_fabric_names(char *buf, size_t len);

/* The n-th fabric (0 first), NULL past the last. */
const struct cat_fabric *catalog_fabric_at(int n);

#endif
