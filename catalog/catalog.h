/*
 * catalog.h - instance types, GPU specs and the model zoo, loaded from CSV.
 *
 * The catalog is data (the CSV files in catalog/, each row with its source) plus this
 * loader.  It is the "platform" input of dtplan: what the hardware is and what
 * the models cost.  Numbers that a CSV leaves empty are unknown and stored as
 * NAN (or -1 for integers); they are never read as zero.  Callers test with
 * isnan() / < 0 and report "unknown".
 *
 * Ownership: struct catalog owns every string and array it points to;
 * catalog_free() releases them.  Pointers returned by the find functions stay
 * valid until the catalog is freed or another entry is added.
 */
#ifndef DT_CATALOG_H
#define DT_CATALOG_H

#include <stdio.h>

#include "../base/xmem.h"
#include "fabric.h"

enum cat_link {
    CAT_LINK_UNKNOWN = 0, /* column empty */
    CAT_LINK_NONE,        /* a single GPU: no GPU-to-GPU link needed */
    CAT_LINK_PCIE,        /* GPUs talk over PCIe */
    CAT_LINK_NVLINK,      /* NVLink point to point (bridge, cube mesh, mesh) */
    CAT_LINK_NVSWITCH     /* NVLink through NVSwitch: full bandwidth any to any */
};

/* Number formats of matrix work (gpus.csv peaks; docs/model.md). */
enum cat_prec { CAT_FP32 = 0, CAT_TF32, CAT_FP16, CAT_BF16, CAT_FP8, CAT_NPREC };

/* One GPU model (catalog/gpus.csv). */
struct cat_gpu {
    char name[32];              /* "A100", "A100-80GB", "V100-32GB", ... */
    double peak_tflops[CAT_NPREC]; /* dense peak per precision, TFLOP/s; NAN unknown */
    double fp4_tflops;          /* dense NVFP4 peak (gpus.csv fp4_tflops), TFLOP/s; NAN unknown */
    double mem_gib;             /* device memory, GiB */
    double mem_bw_gbs;          /* device memory bandwidth, GB/s (1e9) */
    double nvlink_gbs_dir;      /* NVLink bandwidth per GPU per direction, GB/s; 0 none, NAN unknown */
    double pcie_gbs_dir;        /* host link per direction, GB/s nominal */
    char *source;               /* where the numbers come from */
    /* What the GPU delivers (optional columns; docs/model.md "Compute"):
     * the fraction of the dense peak a large GEMM reaches and of the
     * nominal bandwidth a streaming copy reaches, as measured and
     * published; NAN unknown (the planner then assumes a default and
     * says so).  fp32_eff: the same for an fp32 GEMM on the CUDA cores
     * (NAN: mm_eff).  sm_count sizes the waves of a GEMM's tiles; 0
     * unknown. */
    int sm_count;
    double mm_eff, fp32_eff, mem_eff;
    double fp4_eff;             /* the share of fp4_tflops a large NVFP4 product reaches as
                                   published (gpus.csv fp4_eff); NAN: the fp8 rate times
                                   NVFP4's measured ratio (planner/compute.c) */
    int cc;                     /* CUDA compute capability x 10 (optional column
                                   compute_capability: 70 V100, 80 A100, 90 H100); 0 unknown */
    int cdna;                   /* AMD Instinct's CDNA generation (optional column cdna: 3
                                   MI300X and MI325X, 4 MI350X and MI355X); 0 not AMD or
                                   unknown */
    char *eff_source;
};

/* Clock of the reference core, GHz: the unit of input.cpu_s_per_sample is one
 * vCPU of the machine PROFILE_REF_SAMPLES_PER_S was measured on (an AMD EPYC
 * KVM vCPU, 2.6 GHz nominal; docs/profile.md).  A vCPU whose processor holds
 * f GHz with every core busy counts as f / CAT_REF_CPU_GHZ reference cores. */
#define CAT_REF_CPU_GHZ 2.6

/* One instance type (catalog/instances.csv, same columns as the research data). */
struct cat_instance {
    char cloud[24];
    char name[64];              /* "p4d.24xlarge", "ml.c5.18xlarge", ... */
    int vcpus;                  /* -1 unknown */
    double mem_gib;
    char gpu_model[32];         /* "" for CPU-only instances */
    int gpu_count;              /* 0 for CPU-only, -1 unknown */
    double gpu_mem_gib;
    char *intra_link_text;      /* the raw column, e.g. "NVSwitch, NVLink 3.0 (600 GB/s)" */
    enum cat_link link;         /* parsed from intra_link_text */
    double net_gbps;            /* NIC line rate, Gbit/s per node; NAN unknown */
    int efa;                    /* 1 yes (EFA or IB), 0 no, -1 unknown */
    double price_usd_h;         /* on-demand, USD per hour; NAN unknown */
    double spot_usd_h;          /* spot, USD per hour; NAN unknown */
    char region[32];
    char *source;
    const struct cat_gpu *gpu;  /* resolved gpu_model, NULL if CPU-only or not in gpus.csv */
    double cpu_ghz;             /* sustained all-core turbo clock of the processor, GHz
                                   (optional instances.csv column cpu_ghz); NAN unknown */
    double cpu_speed;           /* speed of one vCPU relative to the reference core of the
                                   scenario's cpu_s_per_sample; NAN = unknown: cpu_ghz /
                                   CAT_REF_CPU_GHZ when the clock is known, else 1 (set
                                   inline or by a calibration profile) */
    int nics;                   /* network interfaces per node (optional column nics); -1 unknown */
    int aws_efa;                /* 1: efa is "yes": AWS EFA, which NCCL reaches through the
                                   aws-ofi-nccl plugin (sim/nccl.h) */
    const struct cat_fabric *fabric; /* the network between nodes by name (optional column
                                   fabric; fabric.h); NULL: as efa says */
    int cpu_amd;                /* 1: the optional cpu_source column names an AMD processor */
    char *profile;              /* calibration profile of this type (optional instances.csv
                                   column `profile`, relative to the catalog directory),
                                   NULL when none */
    char cpu_model[64];         /* the processor, as cpu_source names it before its first '('
                                   or ':' ("Intel Xeon E5-2686 v4"); "" unknown */
    int gpu_unknown;            /* 1: GPUs whose accelerator (gpu_model, as the source names
                                   it) gpus.csv does not know: gpu NULL; not usable */
    char price_date[11];        /* YYYY-MM-DD the prices were read (optional column
                                   price_date); "" unknown */
    int nvlink_domain;          /* GPUs that share one NVLink domain with these (optional
                                   column nvlink_domain: 72 for a GB200 NVL72 rack's 4-GPU
                                   tray); 0: the instance's own */
    char spot_interrupt[8];     /* AWS's Spot Instance Advisor's interruption band of the
                                   type (optional column spot_interrupt, spot.h: "<5%" to
                                   ">20%" of its spot capacity reclaimed a month); "" unknown */
    char unit[64];              /* a derived type: one whole NVLink domain of unit_count
                                   instances of type `unit` (catalog_load makes one for each
                                   type whose nvlink_domain exceeds its GPUs); "" a row */
    int unit_count;
};

/* One model of the zoo (catalog/models.csv). */
struct cat_model {
    char name[48];              /* "resnet50", "bert-large", ... */
    char family[16];            /* "cnn", "transformer", "ctr", "mlp" */
    double params;              /* trainable parameters (count) */
    double fwd_gflops;          /* forward GFLOP per sample at the reference input; NAN unknown */
    char input[48];             /* reference input the FLOPs are for, e.g. "224x224x3", "seq 512" */
    double sparse_params;       /* of params, those in embedding tables whose gradients are
                                   sparse (only looked-up rows); 0 none, NAN unknown (dense) */
    double sparse_bytes_per_sample; /* fp32 gradient bytes of table rows one sample touches;
                                   NAN unknown */
    double act_mib_per_sample;  /* activations kept for backward, MiB per sample at the reference
                                   input with 16-bit activations (optional column
                                   act_mib_per_sample); NAN unknown */
    /* A transformer given by its shape (optional columns; shape.h): layers
     * 0 when it is not.  params and fwd_gflops then follow from the shape
     * when the row leaves them empty, fwd_gflops at seq_len tokens. */
    int layers, hidden, heads, kv_heads, ffn_hidden, vocab;
    int gated_ffn;              /* 1: gated feed-forward (SwiGLU: three projections) */
    int tied_embeddings;        /* 1: output projection tied to the token embedding,
                                   and a learned position embedding (GPT-2, GPT-3) */
    int seq_len;                /* reference sequence length (the context trained at) */
    int lm_head;                /* 1: output projection over the vocabulary at every token
                                   (language modelling); 0: a small task head (SQuAD) */
    double dropout;             /* dropout probability of a shaped model's layers; 0 none */
    int causal;                 /* 1: attention under a causal mask (a decoder: GPT, Llama);
                                   0: bidirectional (BERT).  A shaped model is causal unless
                                   told (optional column causal) */
    int rms_norm;               /* 1: RMS norm (Llama), 0: layer norm (optional column) */
    int rotary;                 /* 1: rotary position embedding on Q and K (optional column) */
    /* Optional, all 0 when not given (shape.h): */
    int head_dim;               /* a head's width when not hidden / heads (Qwen3, GPT-OSS) */
    /* Multi-head latent attention (DeepSeek-V2, V3): Q through a rank-q_lora_rank
     * bottleneck (0: a plain projection), K and V through kv_lora_rank, heads of
     * qk_nope_dim + qk_rope_dim for the scores and v_head_dim for the values;
     * kv_lora_rank 0: no MLA */
    int q_lora_rank, kv_lora_rank, qk_rope_dim, qk_nope_dim, v_head_dim;
    /* Mixture of experts: experts > 0 routed experts of moe_ffn_hidden (0:
     * ffn_hidden) in each MoE layer, top_k of them per token, with
     * shared_experts always-on experts of shared_ffn_hidden (0: moe_ffn_hidden);
     * the MoE layers are every moe_every-th (0: 1) from first_dense_layers on,
     * the others dense of ffn_hidden; capacity_factor 0 dropless */
    int experts, top_k, moe_ffn_hidden, shared_experts, shared_ffn_hidden;
    int first_dense_layers, moe_every;
    double capacity_factor;
    /* Sliding-window attention: every window_every-th layer (0: none; from the
     * first) attends to the last `window` tokens only (GPT-OSS) */
    int window, window_every;
    /* Group-limited routing (DeepSeek's n_group, topk_group): the experts in
     * router_groups groups, a token's top_k drawn from its router_group_topk
     * best groups (0: none) */
    int router_groups, router_group_topk;
    /* The experts' products carry biases (expert_bias 1) and their gated
     * activation clamps its two halves (expert_clamp 1): GPT-OSS, whose
     * gate is held at most 7 and whose linear half within +-7.  What they
     * cost depends on how the stack runs the experts' block
     * (workload.expert_mlp, catalog/ops.c). */
    int expert_bias, expert_clamp;
    /* Multi-token prediction modules trained beside the model (DeepSeek-V3:
     * 1), each a projection, one more block and the shared output head; 0
     * none.  Their weights count in params (trained), not in the model's
     * published size (shape_mtp_weights). */
    int mtp_layers;
    /* The layers of a network the catalog can lay out (catalog/ops.h), e.g.
     * "resnet50"; "" when the model is given by its FLOPs alone. */
    char arch[24];
    char *source;
};

/* A checkpoint store (catalog/storage.csv, optional; docs/catalog.md
 * "storage.csv"): its aggregate rate per TiB provisioned, or a whole one,
 * and what one node writes to it at most. */
struct cat_storage {
    char name[48];
    char cloud[24];
    double per_tib_mbs;         /* MB/s per TiB provisioned; NAN: a fixed rate or none */
    double gbs;                 /* GB/s of the whole store; NAN: per TiB or none */
    double node_gbs;            /* GB/s one node writes at most (optional column node_gbs);
                                   NAN: its NICs alone bound it */
    int local;                  /* 1: each node's own disks (optional column local, "yes"):
                                   written without the network, node_gbs a node, no more */
    char *source;
};

struct catalog {
    struct cat_gpu *gpus;           int ngpus;
    struct cat_instance *instances; int ninstances;
    struct cat_model *models;       int nmodels;
    struct cat_storage *storage;    int nstorage;
};

/*
 * Load gpus.csv, instances.csv and models.csv from dir.  Returns 0, or -1
 * with e->msg = "FILE:LINE:COL: COLUMN: expected ..., found \"...\"".
 */
int catalog_load(struct catalog *cat, const char *dir, struct dt_err *e);
void catalog_free(struct catalog *cat);
/* Free the strings an instance type owns (its link text, source, profile)
 * and set them NULL. */
void catalog_instance_strings_free(struct cat_instance *in);

/* A deep copy of src into dst (not initialised): its own strings, and its
 * instances' GPUs pointing into its own table.  Free with catalog_free.
 * This and the catalog_put_* and catalog_set_fabric below: catedit.c. */
void catalog_copy(struct catalog *dst, const struct catalog *src);

const struct cat_gpu *catalog_find_gpu(const struct catalog *cat, const char *name);
const struct cat_instance *catalog_find_instance(const struct catalog *cat, const char *name);
const struct cat_model *catalog_find_model(const struct catalog *cat, const char *name);
const struct cat_storage *catalog_find_storage(const struct catalog *cat, const char *name);

/* 1 for a datacenter Blackwell GPU's compute capability (x 10: 100 to 109,
 * the B200, GB200, B300 and GB300), whose measured kernel rates the model
 * takes apart from Hopper's. */
int cat_cc_blackwell(int cc);

/* Nearest known names (edit distance, case-insensitive), comma separated,
 * at most 3, into buf; "" when nothing is close. */
/* Length of the family of an instance name: "g5.8xlarge" -> 2 ("g5"),
 * "ml.p4d.24xlarge" -> 6 ("ml.p4d"); the whole name without a dot. */
size_t catalog_family_len(const char *name);

/* Nonzero when `pat` (an instance type, or a family such as "g5" or
 * "ml.p4d") names instance type `type`. */
int catalog_name_matches(const char *pat, const char *type);

void catalog_suggest_instance(const struct catalog *cat, const char *name, char *buf, size_t len);
void catalog_suggest_model(const struct catalog *cat, const char *name, char *buf, size_t len);

/* Add or replace (same name) an entry; the catalog takes ownership of the
 * strings inside *in.  Used for instance types and models defined inline in a
 * scenario.  Re-resolves gpu pointers. */
void catalog_put_instance(struct catalog *cat, struct cat_instance *in);

/* For each instance type whose nvlink_domain spans more GPUs than it has
 * (a GB200 NVL72 rack's 4-GPU tray), a derived type beside it, NAME.nvlD:
 * one whole domain of D GPUs, nvlink_domain / gpu_count of the type, its
 * vCPUs, memory, NICs, network and prices that many times, its GPUs one
 * NVSwitch domain (domain.c).  catalog_load calls it; so does a scenario's
 * inline catalog. */
void catalog_add_domains(struct catalog *cat);

/* How many units of type u a node holds when `count` of them are rented
 * together: where u is one unit of a wider NVLink domain (a GB200 tray of
 * an NVL72 rack), the most of them, up to the domain's units, that divide
 * count evenly (2 trays: one NVLink node of 2; 32 trays: two racks of 16;
 * 360: twenty of 18); 1 otherwise (domain.c). */
int catalog_domain_units(const struct cat_instance *u, int count);

/* k units of u as one NVLink node, into *d: u's row with its GPUs, vCPUs,
 * memory, NICs, network and prices k times, its GPUs one NVSwitch domain,
 * named NAME.nvlG (G its GPUs), no profile; its strings are u's (not
 * allocated). */
void catalog_domain_part(const struct cat_instance *u, int k, struct cat_instance *d);

/* The node `count` units of u make and how many of them (*nodes): u itself
 * and count, or *part filled with catalog_domain_units(u, count) of them. */
const struct cat_instance *catalog_domain_node(const struct cat_instance *u, int count,
                                               struct cat_instance *part, int *nodes);

/* Give instance type in fabric f: its efa and aws_efa follow (an EFA fabric
 * is AWS EFA; the others but tcp are RDMA). */
void catalog_set_fabric(struct cat_instance *in, const struct cat_fabric *f);
void catalog_put_model(struct catalog *cat, struct cat_model *m);

/* SkyPilot's catalogs (skypilot.c): whether path is a vms.csv or a
 * directory of them (DIR/vms.csv, DIR/<cloud>/vms.csv); replace cat's
 * instance types by those of the vms.csv files the paths name, each
 * TYPE@REGION, with what dtplan knows of each type kept (GPU link,
 * network); the gpus.csv name of a SkyPilot accelerator name. */
int catalog_is_skypilot(const char *path);
int catalog_use_skypilot(struct catalog *cat, const char *const *paths, int npaths,
                         struct dt_err *e);
const char *catalog_gpu_alias(const char *sky_name);
/* The instance types of cat whose accelerator dtplan does not model
 * (gpu_unknown), counted by kind with up to three names each and why, into
 * buf ("12 TPU (tpu-v5e-8, tpu-v4-8): TPUs are not modelled (...); 2 with a
 * GPU gpus.csv has no row for (K80): add one (...)"); their count. */
int catalog_unknown_accelerators(const struct catalog *cat, char *buf, size_t len);
/* cat's instance types as instances.csv on f (catwrite.c); -1 on a write
 * error. */
int catalog_write_instances(FILE *f, const struct catalog *cat);

/* Parse the free-text link column into enum cat_link. */
enum cat_link catalog_parse_link(const char *text);
/* 1 when s is a price date as the catalog takes one: YYYY-MM-DD, a month
 * of 1 to 12, a day of 1 to 31, a year of 2000 to 2100; else 0. */
int catalog_date_ok(const char *s);
const char *catalog_link_name(enum cat_link l);
/* Closed sets (base/names.h): the i-th name, NULL past the end. */
const char *catalog_prec_name(int p);     /* enum cat_prec */
const char *catalog_family_name(int f);   /* model families: cnn, transformer, ctr, mlp */
/* The value of a name, -1 when it is none of the set's. */
int catalog_prec_parse(const char *name);
int catalog_family_parse(const char *name);

#endif
