/*
 * fabric.c - the networks between GPU nodes (fabric.h).
 *
 * The EFA rows follow aws-ofi-nccl (aws/aws-ofi-nccl@2daf7d30), which sets
 * what NCCL sees of EFA per instance family (src/platform-aws.cpp's
 * platform table): the latency it reports is a figure fitted so that NCCL's
 * own model picks ring or tree as measured (PR #93, #901), so it steers the
 * choice and is not charged as time.  The time takes the per-hop latency of
 * AWS's own alpha-beta tuner (src/tuner/nccl_ofi_model.cpp: net_lat) and,
 * under Simple, its completion overhead (include/nccl_ofi_param.h:
 * OFI_NCCL_TUNER_NET_COMP_OVERHEAD, "~2usec cost in the device and ~1usec
 * cost to write that completion up to the host").  InfiniBand and RoCE run
 * NCCL's own transport, which reports no latency, at NCCL's constants.
 * efa-p5 also carries a ring step's overhead (step_us): the pace at which a
 * ring across its nodes moves, one message a step, which no plugin table
 * publishes; it is set from two published p5 all-gathers (docs/
 * collectives.md "A ring's step period").
 */
#include "fabric.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define PLAT "aws/aws-ofi-nccl@2daf7d30 src/platform-aws.cpp"

static const struct cat_fabric fabrics[] = {
    {"ib", CAT_FAB_IB, 0, 0, NAN, 0, CAT_PROTO_ALL, 0, 0, 0, 0, NULL,
     "NVIDIA/nccl@5067397c: src/transport/net_ib.cc reports latency 0; src/graph/tuning.cc "
     "hwLat[NET] (2.7/4.0/14 us ring, 5.0/8.5/14 us tree, LL/LL128/Simple) is NCCL's own "
     "figure for an InfiniBand hop", {0, 0}, 0, 0, 0, 0, 0},
    {"ib-sharp", CAT_FAB_IB, 0, 0, NAN, 0, CAT_PROTO_ALL, 0, 0, 0, 0, NULL,
     "InfiniBand as ib, with the switches reducing: SHARP through NCCL's CollNet plugin "
     "(Mellanox/nccl-rdma-sharp-plugins) and NCCL_COLLNET_ENABLE=1, so that NCCL weighs "
     "CollNetDirect and CollNetChain (NVIDIA/nccl@5067397c src/graph/tuning.cc, search.cc); an "
     "in-network all-reduce at 0.7452 of the NICs' rate (the rate dtplan holds, 0.96 of the "
     "line), set from Together AI's 4-node B200 NDR run under NCCL 2.30.7 "
     "(togethercomputer/together-nccl-tests@5fa38e7b baselines/flapping-airplanes/2026-07-11 "
     "report, tuned collnet_sharp at 8 GiB: 554.4 GB/s busbw, algbw 286.1 over 8 x 400 Gbit/s "
     "x 0.96 = 384 GB/s; validate/published/nccl_cases.csv marks it the calibration "
     "input); NVLS across nodes, which NCCL also enables with CollNet, is not modelled",
     {0, 0}, 0, 0, 0, 1, 0.7452},
    {"roce", CAT_FAB_ROCE, 0, 0, NAN, 0, CAT_PROTO_ALL, 0, 0, 0, 0, NULL,
     "RoCE runs NCCL's IB verbs transport (NVIDIA/nccl@5067397c src/transport/net_ib.cc): as ib", {0, 0}, 0, 0, 0, 0, 0},
    {"efa-p3dn", CAT_FAB_EFA, 1, 150, NAN, 0, CAT_PROTO_SIMPLE, 0, 0, 0, 0, NULL,
     PLAT " lines 111-120 (p3dn.24xlarge: latency 150); Simple only: EFA of this generation "
     "does not deliver 128-byte writes in order, and the plugin forces NCCL_PROTO=simple "
     "(lines 843-933; doc/efa-env-var.md); per-hop latency not published: NCCL's", {0, 0}, 0, 0, 0, 0, 0},
    {"efa-p4d", CAT_FAB_EFA, 1, 75, NAN, 0, CAT_PROTO_SIMPLE, 0, 8192, 0, 0, NULL,
     PLAT " lines 83-109 (p4d.24xlarge, p4de.24xlarge: latency 75); Simple only as efa-p3dn "
     "(lines 843-933); per-hop latency not published: NCCL's; the plugin sets "
     "NCCL_BUFFSIZE=8388608 (lines 83-109)", {0, 0}, 0, 0, 0, 0, 0},
    {"efa-p5", CAT_FAB_EFA, 2, 75, 20, 3, CAT_PROTO_ALL, 0, 8192, 512, 512, "aws-p5",
     PLAT " lines 133-148 (p5, p5e: latency 75); LL and LL128 allowed (128-byte in-order "
     "delivery); src/tuner/nccl_ofi_model.cpp P5/P5e net_lat 20 us; "
     "include/nccl_ofi_param.h lines 287-291: 3 us completion overhead under Simple; the "
     "plugin sets NCCL_BUFFSIZE=8388608, NCCL_NVLS_CHUNKSIZE=524288 and "
     "NCCL_NVLSTREE_MAX_CHUNKSIZE=524288 (lines 61-71, 133-148); a ring step's overhead 8 us "
     "(LL, LL128) and 55 us (Simple), set from two published all-gathers on p5 "
     "(crazyguitar/aws-gpu-communication-benchmark@a77f70d: 32 nodes at 32 MiB, 4 nodes at "
     "512 MiB; validate/published/nccl_cases.csv marks them calibration inputs); an all-to-all "
     "at 0.872 of the NICs' rate, set from the same repository's alltoall_perf on 4 nodes at 2 "
     "GiB a rank (54.07 GB/s busbw against 62.0 at the full rate), and 280 us a call and 2.58 "
     "a remote peer beyond its bytes, from its 32 MiB points on 2 and 32 nodes (0.70 and 1.70 "
     "ms; the three marked calibration inputs)",
     {8, 55}, 0.872, 280, 2.58, 0, 0},
    {"efa-p5en", CAT_FAB_EFA, 3, 35, 18, 3, CAT_PROTO_ALL, 0, 8192, 512, 512, "aws-p5en",
     PLAT " lines 150-174 (p5en, p6-b200: latency 35, from PR #901's empirical search); "
     "lines 864-886 keep LL and LL128 on p5en; src/tuner/nccl_ofi_model.cpp P5en net_lat 18 us; "
     "3 us completion overhead under Simple as efa-p5; the same buffer and NVLS chunks as "
     "efa-p5 (lines 150-174)", {0, 0}, 0, 0, 0, 0, 0},
    {"efa-p6", CAT_FAB_EFA, 4, 35, 18, 3, CAT_PROTO_ALL, 0, 8192, 512, 512, "aws-p6-b200",
     PLAT " lines 150-174 (p6-b200: latency 35); per-hop latency: p5en's 18 us assumed (the "
     "model tuner has no p6 entry); the same buffer and NVLS chunks as efa-p5 (lines 150-174)", {0, 0}, 0, 0, 0, 0, 0},
    {"efa-p6-b300", CAT_FAB_EFA, 4, 35, 18, 3, CAT_PROTO_ALL, 0, 8192, 512, 512, "aws-p6-b300",
     PLAT " lines 176-193 (p6-b300: latency 35, the buffer and NVLS chunks of efa-p5); "
     "per-hop latency: p5en's 18 us assumed as efa-p6; the region tuner's own p6-b300 maps "
     "(include/tuner/nccl_ofi_tuner_process_config.h)", {0, 0}, 0, 0, 0, 0, 0},
    {"efa-p6e", CAT_FAB_EFA, 4, 35, 18, 3, CAT_PROTO_ALL, 0, 8192, 512, 512, NULL,
     PLAT " lines 194-215 (\"p-series\", which serves P6e-GB200 and later: latency 35, the "
     "buffer and NVLS chunks of efa-p5); per-hop latency: p5en's 18 us assumed as efa-p6; no "
     "region tuner for these types (include/tuner/nccl_ofi_tuner_process_config.h names "
     "p5, p5e, p5en, p6-b200 and p6-b300 only): NCCL's own choice", {0, 0}, 0, 0, 0, 0, 0},
    {"gpudirect-tcpx", CAT_FAB_TCPX, 0, 0, NAN, 0, CAT_PROTO_SIMPLE, 1, 4096, 0, 0, NULL,
     "google/nccl-plugin-gpudirecttcpx@4b8ea7f2 src/net_tcpx.cc lines 730-741 (latency 0); "
     "GoogleCloudPlatform/container-engine-accelerators@8af30c6e gpudirect-tcpx/"
     "nccl-config-latest.yaml: NCCL_ALGO=Ring NCCL_PROTO=Simple; per-hop latency not published: "
     "NCCL's; NCCL_BUFFSIZE=4194304 (gpudirect-tcpxo/nccl-config.yaml@3a1b61d4, its TCPX "
     "variant); a ring step's overhead under Simple 56 us: A3 High's 2-node all-reduce table "
     "(GoogleCloudPlatform/ai-infra-cluster-provisioning@2ff9b954 sample_workloads/nccltest/a3/"
     "README.md, ring/Simple forced) holds 1.65 to 1.79 ms from 1 to 4 MiB, 30 steps of 55 to "
     "60 us past the transfer", {0, 56}, 0, 0, 0, 0, 0},
    {"gpudirect-tcpxo", CAT_FAB_TCPXO, 0, 0, NAN, 0, CAT_PROTO_LL128 | CAT_PROTO_SIMPLE, 0,
     8192, 0, 128, NULL,
     "google/nccl-plugin-gpudirect-tcpxo@04815d1b tcpdirect_plugin/fastrak_offload/nccl_shim.cc "
     "lines 950-973 (latency 0); GoogleCloudPlatform/container-engine-accelerators@0a2b482e "
     "gpudirect-tcpxo/README.md (releases of 2025-11 and 2026-01): NCCL_PROTO=Simple,LL128, "
     "NCCL_ALGO unset, NVLS on, NCCL_BUFFSIZE=8388608, NCCL_NVLSTREE_MAX_CHUNKSIZE=131072; "
     "per-hop latency not published: NCCL's", {0, 0}, 0, 0, 0, 0, 0},
    {"tcp", CAT_FAB_TCP, 0, 0, NAN, 0, CAT_PROTO_LL | CAT_PROTO_SIMPLE, 0, 0, 0, 0, NULL,
     "NCCL's socket transport reports latency 0 and moves host buffers, for which NCCL disables "
     "LL128 (as aws/aws-ofi-nccl@2daf7d30 src/nccl_ofi_net.cpp lines 395-411 notes)", {0, 0}, 0, 0, 0, 0, 0},
};

#define NFAB (int)(sizeof fabrics / sizeof *fabrics)

const struct cat_fabric *catalog_fabric(const char *name)
{
    for (int i = 0; name && i < NFAB; i++)
        if (strcmp(fabrics[i].name, name) == 0)
            return &fabrics[i];
    return NULL;
}

const struct cat_fabric *catalog_fabric_at(int n)
{
    return n >= 0 && n < NFAB ? &fabrics[n] : NULL;
}

void catalog_fabric_names(char *buf, size_t len)
{
    size_t o = 0;

    if (len > 0)
        buf[0] = '\0';
    for (int i = 0; i < NFAB && o < len; i++)
        o += (size_t)snprintf(buf + o, len - o, "%s%s", i ? ", " : "", fabrics[i].name);
}
