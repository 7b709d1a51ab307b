/*
 * scenario.h - the scenario model: what the user asks dtplan, as plain
 * structs (docs/scenario.md has every field, unit and default).
 *
 * Kept apart in the spirit of SimGrid's separate inputs: the workload and
 * its input pipeline (what the program does), gradient sharing (how it
 * communicates), the clusters and their groups (what runs where, naming
 * catalog instance types), the objective, the simulation settings and the
 * search space.  Nothing here parses: the front end (cli/ld*.c) fills it
 * from YAML, and a program or a test may fill it directly, starting from
 * scenario_defaults().  Names resolve to catalog entries, which the struct
 * points at but does not own.  The closed sets of this layer (objectives,
 * server placements, receive orders, solved unknowns, gradient precisions)
 * are defined here once, each with its _name and _parse functions.
 */
#ifndef DT_SCENARIO_H
#define DT_SCENARIO_H

#include "../catalog/catalog.h"
#include "../catalog/profile.h"
#include "../sim/sim.h"

#define SC_MAX_GROUPS 8

#define SC_MAX_BUCKET_LIST 1024
#define SC_MAX_PP_CHUNKS 256      /* parallel.pp_layers: a count a model chunk */

enum sc_ps_place { SC_PS_COLOCATED = 0, SC_PS_DEDICATED };
/* gradients.buckets: how a bucket is sized.  FIXED: bucket_mb (PyTorch DDP's
 * 25 MiB by default); MEGATRON: Megatron-Core's default, max(40M, 1M x the
 * data-parallel ranks) parameters at the gradients' precision. */
enum sc_bucket_rule { SC_BUCKETS_FIXED = 0, SC_BUCKETS_MEGATRON };

enum sc_ps_receive { SC_PS_TOGETHER = 0, SC_PS_IN_TURN };

enum sc_objective { SC_OBJ_TIME = 0, SC_OBJ_COST_STEP, SC_OBJ_COST_TRAIN };

enum sc_solve { SC_SOLVE_NONE = 0, SC_SOLVE_CPU, SC_SOLVE_COMPUTE };

/* How data-parallel ranks share the model state (gradients.sharding;
 * planner/memory.h for the memory, sim.h enum sim_shard for the
 * communication).  fsdp is zero3 as PyTorch FSDP's FULL_SHARD runs it; hsdp
 * is zero3 within a node, replicated across nodes (HYBRID_SHARD). */
enum sc_sharding { SC_SHARD_NONE = 0, SC_SHARD_ZERO1, SC_SHARD_ZERO2, SC_SHARD_ZERO3, SC_SHARD_FSDP,
                   SC_SHARD_HSDP, SC_SHARD_AUTO /* the loader's only: sharding_auto */ };

/* Activation recompute (workload.recompute; Korthikanti et al. 2022):
 * selective redoes the attention core in backward, full the whole forward;
 * selective_op is PyTorch's per-operator selective checkpointing as
 * torchtitan applies it (every second matrix product of a block and the
 * norms and activations around them redone; attention saved). */
enum sc_recompute { SC_RECOMPUTE_NONE = 0, SC_RECOMPUTE_SELECTIVE, SC_RECOMPUTE_FULL,
                   SC_RECOMPUTE_AUTO /* the loader's only: recompute_auto */,
                   SC_RECOMPUTE_OP };

/* How attention runs (workload.attention, in scenario_attention_name's
 * order): one fused kernel, FlashAttention-2 (flash), Triton's
 * (flash_triton) or cuDNN's (cudnn); or matmul, softmax and dropout over
 * scores held in memory (unfused). */
enum sc_attention {
    SC_ATTN_FLASH = 0, SC_ATTN_UNFUSED, SC_ATTN_FLASH_TRITON, SC_ATTN_CUDNN,
    SC_ATTN_CUDNN_910, SC_ATTN_CUDNN_913     /* cuDNN as releases 9.10 and 9.13 ran it */
};

/* The activations' layout the tensor-parallel collectives see (parallel.
 * tp_layout): sequence first (Megatron-LM's s x b x h: a sequence shard is
 * contiguous) or batch first (PyTorch DTensor's SequenceParallel on
 * b x s x h, torchtitan: each collective copies its whole tensor once). */
enum { SC_TP_LAYOUT_SBH = 0, SC_TP_LAYOUT_BSH };
/* How a pipeline cuts the model (parallel.pp_split): the transformer layers
 * alone, or with the embedding and the loss each counted as a layer
 * (Megatron-Core's account_for_embedding_in_pipeline_split and
 * account_for_loss_in_pipeline_split; the Llama 3 paper's schedule), so the
 * first and last chunks can hold no transformer layer. */
enum { SC_PP_SPLIT_LAYERS = 0, SC_PP_SPLIT_EMBEDDING_LOSS };
/* The pipeline's schedule (parallel.pp_schedule): Megatron-LM's 1F1B
 * (interleaved when parallel.interleave > 1), or DeepSeek-V3's DualPipe
 * (arXiv:2412.19437 section 3.2.1): micro-batches fed from both ends, each
 * rank holding two mirrored stages, a forward and a backward chunk
 * overlapped with each other's communication. */
enum { SC_PP_1F1B = 0, SC_PP_DUALPIPE };
/* How context parallelism moves the keys and values (parallel.cp_comm;
 * Megatron-Core's --cp-comm-type): round a ring beside the attention (p2p,
 * Transformer Engine's default), by all-to-alls that trade the sequence
 * shards for head shards around the attention (a2a, DeepSpeed-Ulysses),
 * gathered whole before it (allgather, the Llama 3 paper's), or as
 * PyTorch's experimental context_parallel runs its all-gather form (torch:
 * torchtitan's, late 2024). */
enum { SC_CP_P2P = 0, SC_CP_A2A, SC_CP_ALLGATHER, SC_CP_TORCH };
/* How a MoE layer's tokens reach their experts (parallel.ep_dispatch):
 * NCCL's all-to-all, each routed copy its own message (Megatron-Core's
 * alltoall dispatcher), a dispatcher that sends a token once to each
 * node that holds one of its experts and fans it out over NVLink there
 * (DeepEP's normal kernels, HybridEP; Megatron-Core's flex dispatcher), or
 * every token gathered to every rank of the expert group and the outputs
 * reduce-scattered back (Megatron-Core's allgather dispatcher, its
 * default). */
enum { SC_EP_ALLTOALL = 0, SC_EP_DEEPEP, SC_EP_HYBRIDEP, SC_EP_ALLGATHER };

/* How the optimizer walks the parameter tensors (workload.optimizer_loop;
 * docs/model.md "The optimizer"): one fused kernel over all (Megatron-
 * Core, DeepSpeed, apex FusedAdam, torch AdamW(fused=True), torchtitan),
 * PyTorch's foreach kernels (AdamW's default on a GPU), or a Python loop of
 * small kernels a tensor (BertAdam, early PyTorch optimizers). */
enum sc_opt_loop { SC_OPT_FUSED = 0, SC_OPT_FOREACH, SC_OPT_PER_TENSOR };

/* Which of a step's kernels CUDA graphs replay (workload.cuda_graphs;
 * docs/model.md "The host's launches"): the whole iteration (Megatron-Core's
 * full_iteration; the host's launches leave the step), some modules of each
 * layer (Transformer Engine's scoped graphs: attention, the router, the
 * dispatcher's preprocessing), or none. */
enum sc_graphs { SC_GRAPHS_FULL = 0, SC_GRAPHS_PARTIAL, SC_GRAPHS_NONE };

/* How the stack runs a MoE layer's experts' block (workload.expert_mlp;
 * docs/model.md "The experts' epilogue"): fused (Transformer Engine's fused
 * grouped MLP, the biases and a clamped activation inside its kernels), or
 * grouped (Megatron-Core's TEGroupedMLP: the grouped products with the
 * clamp and the second product's biases in kernels of their own). */
enum sc_expert_mlp { SC_EXPERT_FUSED = 0, SC_EXPERT_GROUPED, SC_EXPERT_SEQUENTIAL };

/* How fp8 is scaled (workload.fp8_recipe; docs/model.md "fp8"): Transformer
 * Engine's delayed scaling (a history of amax values), current scaling
 * (each tensor's amax taken before its cast), or MXFP8 blocks of 32 with
 * their own scales (Blackwell). */
enum sc_fp8_recipe { SC_FP8_DELAYED = 0, SC_FP8_CURRENT, SC_FP8_MXFP8, SC_FP8_NVFP4 };

/* Which library runs fp8 (workload.fp8_library; docs/model.md "Memory"):
 * Transformer Engine keeps the inputs it quantized for a GEMM's backward
 * in fp8 (one byte an element), torchao's Float8Linear (torchtitan's)
 * keeps them in 16 bits and casts them again. */
enum sc_fp8_library { SC_FP8_LIB_TE = 0, SC_FP8_LIB_TORCHAO };

/* What the loss holds over the vocabulary at its peak
 * (workload.cross_entropy; docs/model.md "Memory"): the softmax, or its
 * gradient, in fp32 beside the 16-bit logits or gradient (Megatron-Core's
 * vocab-parallel losses, Transformer Engine's fused loss from 2.18), the
 * gradient written over the 16-bit logits (Transformer Engine's fused loss
 * 2.7 to 2.17), or the logits cast to fp32 into PyTorch's own
 * cross_entropy (torchtitan). */
enum sc_cross_entropy { SC_CE_FP32 = 0, SC_CE_IN_PLACE, SC_CE_UPCAST };

#define SC_PLAN_MAX_NAMES 64
#define SC_PLAN_MAX_REGIONS 16
#define SC_PLAN_MAX_BUCKETS 8

/*
 * The plan: section, the catalog search (docs/plan.md).  Instance names are
 * kept as written (types or families) and matched against the catalog by
 * planner/search.c; the loader has checked that each matches something.
 */
struct sc_plan {
    int present;                       /* 1: the scenario has a plan: section */
    int ninstances;                    /* 0: every instance type of the catalog */
    char instances[SC_PLAN_MAX_NAMES][64]; /* instance types or families ("g5", "p4d.24xlarge") */
    int nregions;                      /* 0: any region */
    char regions[SC_PLAN_MAX_REGIONS][32];
    int spot;                          /* 1: also consider spot prices */
    int max_nodes;                     /* train nodes per cluster, >= 1 (default 8) */
    int max_gpus;                      /* GPUs per cluster; -1 none */
    int max_data_nodes;                /* data nodes per cluster, >= 0 (default 4) */
    int max_ps;                        /* dedicated parameter servers, >= 0 (default 2) */
    unsigned strategies;               /* bit (1 << enum sim_strategy) per strategy to try */
    int nbuckets;
    double bucket_bytes[SC_PLAN_MAX_BUCKETS];
    int cpu_training;                  /* 1: CPU instances may be train nodes (default 1) */
    int top;                           /* rows of the ranked table (default 10) */
    int all;                           /* 1 (dtplan plan --all): keep candidates more than 10x
                                          worse than the best on the objective in the table */
    int search_steps;                  /* measured steps per candidate in the sweep; 0 = simulation.steps */
    int search_warmup;                 /* warm-up steps per candidate in the sweep; -1 = simulation.warmup */
};

struct sc_group {
    enum sim_role role;
    const struct cat_instance *inst;   /* resolved, never NULL after load */
    int count;                         /* nodes, >= 1 */
    int spot;                          /* 1: price at the spot rate */
};

/* A cluster's own gradients: section, over the scenario's: its strategy
 * (clusters[].strategy), and a catalog search candidate's communication
 * choice (scenario_cluster_comm). */
struct sc_cluster_gradients {
    int strategy;                      /* enum sim_strategy, -1: the scenario's */
    int own;                           /* 1: the three fields below replace the scenario's
                                          bucket size and servers; 0: the scenario's hold */
    double bucket_bytes;               /* > 0 when own */
    enum sc_ps_place ps_place;
    int ps_count;                      /* >= 1 when own */
};

/* A cluster's own parallel: section (docs/scenario.md "clusters"), over the
 * scenario's (scenario_cluster_parallel). */
struct sc_cluster_parallel {
    int tp;                            /* 0: the scenario's; -1: auto; else tensor-parallel ranks */
    int sp;                            /* 0: the scenario's; 1: sequence parallelism off; 2: on */
    int pp;                            /* 0: the scenario's; -1: auto; else pipeline stages */
    int interleave;                    /* 0: the scenario's; else model chunks a stage */
};

struct sc_cluster {
    char name[64];
    int ngroups;
    struct sc_group groups[SC_MAX_GROUPS];
    struct sc_cluster_gradients gradients;
    struct sc_cluster_parallel parallel;
    int micro_batch;                   /* clusters[].batch_per_gpu; 0: the scenario's */
    int grad_accum;                    /* clusters[].grad_accum; 0: the scenario's */
};

/* The communication a cluster runs with (scenario_cluster_comm). */
struct sc_comm {
    enum sim_strategy strategy;
    double bucket_bytes;
    enum sc_ps_place ps_place;
    int ps_count;
};

/* workload: what the program trains (docs/scenario.md "workload"). */
struct sc_workload {
    const struct cat_model *model;     /* resolved */
    int seq_len;                       /* tokens per sample of a transformer given by its
                                          shape (catalog/shape.h); 0: the model's own */
    enum cat_prec precision;           /* compute precision (workload.precision) */
    int precision_strict;              /* fp32_strict: fp32 without TF32 anywhere */
    int precision_auto;                /* auto: the fastest format each GPU has */
    int attention;                     /* workload.attention: enum sc_attention */
    int channels_last;                 /* workload.memory_format: nhwc (channels_last); 0 nchw */
    int amp_pure;                      /* workload.amp: pure (16-bit activations throughout);
                                          0 autocast */
    int kernels_fused;                 /* workload.kernels: fused (Megatron-LM's); 0 eager */
    int fp8_recipe;                    /* workload.fp8_recipe: enum sc_fp8_recipe */
    int fp8_library;                   /* workload.fp8_library: enum sc_fp8_library */
    int cross_entropy;                 /* workload.cross_entropy: enum sc_cross_entropy */
    int offload_layers;                /* workload.offload_layers: the first this many layers
                                          keep their activations in host memory (planner/
                                          offload.h); 0 none */
    int optimizer_loop;                /* workload.optimizer_loop: enum sc_opt_loop */
    int cuda_graphs;                   /* workload.cuda_graphs: enum sc_graphs */
    int expert_mlp;                    /* workload.expert_mlp: enum sc_expert_mlp */
    double moe_host_pass_s;            /* workload.moe_host_pass_s: the host's time to issue a
                                          MoE layer's pass without full-iteration graphs, s;
                                          NAN: planner/resolve_host.c's figure */
    int fp8_bf16_layers;               /* workload.fp8_bf16_layers: the first and the last
                                          this many layers run their GEMMs in 16 bits */
    int fp8_attention;                 /* workload.fp8_attention: fused attention in fp8 too
                                          (Transformer Engine's fp8_dpa), under fp8 */
    int fp8_params;                    /* workload.fp8_params: the weights held in fp8, a byte
                                          each (Transformer Engine's fp8_model_init, NeMo's
                                          fp8_params); the optimizer's fp32 master copy as
                                          before */
    int fp8_act_input;                 /* workload.fp8_act_input: the fused SwiGLU's input kept
                                          in fp8 for its backward (Megatron-Core's
                                          activation_func_fp8_input_store) */
    double step_overhead_s;            /* workload.step_overhead_s: fixed seconds a step beyond
                                          the kernels (sim_workload.step_overhead_s); 0 none */
    unsigned recompute_modules;        /* workload.recompute_modules: a set of 1 << OPS_MOD_*
                                          (catalog/ops.h), the modules whose forward the
                                          backward runs again (Megatron-Core's
                                          --recompute-modules); 0 none */
    int recompute_layers;              /* workload.recompute_layers: under full recompute, the
                                          model's layers that redo their forward (the rest keep
                                          every activation); 0 all of them */
    int lora_rank;                     /* workload.lora_rank: LoRA fine-tuning at this rank
                                          (catalog/ops.h ops_lora): the weights frozen,
                                          adapters trained; 0 every weight trained */
    unsigned lora_targets;             /* workload.lora_targets: OPS_LORA_BIT()s of the
                                          products given adapters; 0 the default (qkv, out) */
    double moe_imbalance;              /* workload.moe_imbalance: the busiest expert-parallel
                                          rank's tokens over an even share, >= 1; NAN not
                                          given (scenario_moe_imbalance's default) */
    int grad_accum;                    /* micro-batches per step, >= 1 (default 1) */
    int global_batch;                  /* samples (sequences) per optimizer step over all
                                          workers; 0: not given (grad_accum holds) */
    double mfu;                        /* achieved fraction of peak FLOP/s; NAN = default */
    double optimizer_bytes_per_param;  /* memory traffic of the update, bytes/param; NAN = default */
    double optimizer_state_bytes;      /* optimizer state a parameter (ZeRO's K), bytes; NAN:
                                          Adam's, 12 in mixed precision, 8 in fp32 */

    /* measured_compute: step_s of fwd+bwd at batch on one `gpu` (NAN if absent) */
    const struct cat_gpu *measured_gpu;
    double measured_compute_s;
    int measured_batch;
    const struct cat_model *measured_model; /* the model measured, NULL: workload.model (the
                                          compute model carries it to the workload's) */
    enum sc_recompute measured_recompute; /* what the measured pass recomputed (default the
                                          workload's recompute as written; auto: none), so
                                          that a layout's own recompute is not carried away */

    /* measured_step: the step time of one of the clusters; solve for one input */
    int measured_cluster;              /* index into clusters, -1 if absent */
    double measured_step_s;
    enum sc_solve solve_for;           /* which unknown the measurement determines */
};

/* input: the input pipeline. */
struct sc_input {
    double cpu_s_per_sample;           /* seconds per sample on one vCPU of cpu_measured_on, or
                                          of the reference core when that is NULL; NAN if
                                          solved for */
    const struct cat_instance *cpu_measured_on; /* input.cpu_measured_on, NULL when absent */
    double raw_bytes;                  /* bytes per sample read from storage */
    double prep_bytes;                 /* bytes per sample after preprocessing */
    int loader_workers;                /* per GPU; -1 = auto (all vCPUs spread over the GPUs) */
    int prefetch;                      /* batches ready ahead; 0 = no overlap */
    int reserved_vcpus_per_gpu;        /* vCPUs the training process itself keeps (default 0) */
    int data_workers;                  /* preprocessing processes per data node; -1 = one per vCPU */
    int local_with_data_nodes;         /* 1: train nodes keep preprocessing when data nodes exist */
    double service_send_cpu_s_per_byte;/* data service: CPU s per byte to serialize/compress (default 0) */
    double service_recv_cpu_s_per_byte;/* data service: CPU s per byte to receive/decompress on the GPU node (default 0) */
    double dataset_samples;            /* NAN unknown */
    double epochs;                     /* default 1 */
    double eval_every_samples;         /* an evaluation every this many training samples; NAN none */
    double eval_samples;               /* samples an evaluation runs forward (default 0: none) */
    int eval_skip;                     /* the first evaluations not run (default 0) */
};

/* gradients: how data-parallel ranks share gradients and model state. */
struct sc_gradients {
    enum sim_strategy strategy;
    double bucket_bytes;               /* default 25 MiB */
    int bucket_rule;                   /* gradients.buckets: enum sc_bucket_rule */
    double bucket_list[SC_MAX_BUCKET_LIST]; /* gradients.buckets_mb: sizes in release order, bytes */
    int nbucket_list;                  /* 0: every bucket bucket_bytes */
    int overlap;                       /* 1: buckets overlap the backward pass */
    double cycle_ms;                   /* all-reduce strategies: background loop period
                                          (Horovod's HOROVOD_CYCLE_TIME), ms; 0: none */
    enum cat_prec precision;           /* CAT_FP32 or CAT_FP16/BF16 (compressed) */
    int ps_count;                      /* servers (dedicated: from the ps group; colocated: one per train node) */
    enum sc_ps_place ps_place;
    int ps_pipeline;                   /* 1: a worker pushes bucket b+1 while pulling bucket b
                                          (gradients.ps.pipeline, default true); 0: one bucket
                                          at a time */
    enum sc_ps_receive ps_receive;     /* gradients.ps.receive: together (default) or in_turn */
};

/*
 * parallel: the layout, what a layout search varies and nothing else: the
 * parallel section's keys, and the three choices other sections' keys
 * make about it, kept here so that a layout is one struct: the micro-batch
 * (workload.batch_per_gpu, also parallel.micro_batch), the sharding stage
 * (gradients.sharding) and the recompute (workload.recompute).  Data
 * parallelism fills the GPUs the layout leaves.
 */
struct sc_parallel {
    int micro_batch;                   /* workload.batch_per_gpu: samples per worker per
                                          micro-batch, >= 1 */
    int micro_batch_auto;              /* batch_per_gpu: auto: the planner chooses it per
                                          cluster (planner/layout.c); micro_batch is 1 */
    enum sc_sharding sharding;         /* gradients.sharding (default none) */
    int sharding_auto;                 /* sharding: auto: the planner chooses the stage per
                                          cluster (planner/layout.c); sharding is none */
    enum sc_recompute recompute;       /* workload.recompute (default none) */
    int recompute_auto;                /* recompute: auto: chosen per cluster (planner/layout.c);
                                          recompute is none */
    int tp;                            /* parallel.tp: tensor-parallel ranks, Megatron style
                                          (default 1); data parallelism is the GPUs / tp */
    int tp_auto;                       /* parallel.tp: auto: the planner chooses tp per cluster
                                          (planner/layout.c); tp is 1 */
    int sequence_parallel;             /* parallel.sequence_parallel (default 0) */
    int tp_overlap;                    /* parallel.tp_overlap (default 0): the tensor-parallel
                                          collectives beside the layers' compute */
    int tp_layout;                     /* parallel.tp_layout: SC_TP_LAYOUT_SBH (default) or
                                          _BSH, the activations' layout under sequence
                                          parallelism (docs/model.md "Tensor parallelism") */
    int order;                         /* parallel.order: SIM_ORDER_TP_DP_PP (default) or
                                          SIM_ORDER_TP_PP_DP */
    int pp;                            /* parallel.pp: pipeline stages (default 1), Megatron's
                                          1F1B; data parallelism is the GPUs / (tp pp) */
    int pp_auto;                       /* parallel.pp: auto: chosen per cluster; pp is 1 */
    int interleave;                    /* parallel.interleave: model chunks a stage (default
                                          1; > 1: interleaved 1F1B) */
    int interleave_set;                /* 1: parallel.interleave given (pp: auto then keeps it) */
    int pp_split;                      /* parallel.pp_split: SC_PP_SPLIT_LAYERS (default) or
                                          _EMBEDDING_LOSS */
    int npp_layers;                    /* parallel.pp_layers: the layers of each model chunk,
                                          as Megatron-LM's pipeline layout gives them, in
                                          chunk order (chunk k of stage s at k x pp + s); 0:
                                          cut evenly (pp_split) */
    int pp_layers[SC_MAX_PP_CHUNKS];
    int pp_schedule;                   /* parallel.pp_schedule: SC_PP_1F1B (default) or
                                          _DUALPIPE */
    int ep;                            /* parallel.ep: expert-parallel ranks (default 1), each
                                          experts / ep of every MoE layer's experts, taken
                                          from the data-parallel (and context-parallel) ranks */
    int cp_comm;                       /* parallel.cp_comm: SC_CP_P2P (default), _A2A,
                                          _ALLGATHER or _TORCH */
    int cp_kv_repeat;                  /* parallel.cp_kv_repeat (default 0): the keys and
                                          values context parallelism moves carry every query
                                          head (a model that repeats its key-value heads
                                          before the attention) */
    int cp_auto, ep_auto, etp_auto;    /* parallel.cp, .ep, .etp: auto: chosen per cluster
                                          (planner/layout.c); cp and ep are 1, etp tp's */
    int etp;                           /* parallel.etp: expert tensor-parallel ranks, an
                                          expert's width split that many ways (0: tp's,
                                          Megatron-Core's default) */
    int ep_dispatch;                   /* parallel.ep_dispatch: SC_EP_ALLTOALL (default),
                                          _DEEPEP, _HYBRIDEP or _ALLGATHER */
    int ep_fp8_dispatch;               /* parallel.ep_fp8_dispatch (default 0): the forward
                                          dispatch sends fp8 tokens with a scale a 128 values
                                          (DeepSeek-V3's; Megatron-Core's
                                          moe_dispatch_fwd_dtype) */
    int ep_overlap;                    /* parallel.ep_overlap (default 0): one micro-batch's
                                          all-to-alls beside another's compute (Megatron-
                                          Core's overlap_moe_expert_parallel_comm) */
    int ep_overlap_auto;               /* parallel.ep_overlap: auto: on or off chosen per
                                          cluster (planner/layout.c), off until then */
    int ep_sms;                        /* parallel.ep_sms: the SMs the dispatcher's kernels
                                          hold while they run beside compute (Megatron-Core's
                                          moe_flex_dispatcher_num_sms); 0: the dispatcher's
                                          default (planner/resolve_ep.c) */
    int cp;                            /* parallel.cp: context-parallel ranks (default 1),
                                          each a cp-th of every sequence; data parallelism
                                          is the GPUs / (tp pp cp) replicas, the gradients'
                                          group the GPUs / (tp pp) */
};

/* fabric: the network between the nodes. */
struct sc_fabric {
    double oversubscription;           /* >= 1; 1 = non-blocking */
};

/* objective: what the recommendation minimises, and the limits. */
struct sc_goal {
    enum sc_objective minimize;
    double deadline_h;                 /* NAN none */
    double budget_usd_h;               /* NAN none */
    int max_data_channels;             /* data channels (one per worker) allowed per job; -1 none */
};

/* simulation: how long and with what randomness each cluster is simulated. */
struct sc_simulation {
    unsigned long seed;
    int steps;                         /* measured steps (default 20) */
    int warmup;                        /* discarded steps (default 3) */
    double jitter_cv;                  /* per-step compute jitter, coefficient of variation (default 0.02) */
};

/* goodput: failures, checkpoints, restarts and spot preemptions (planner/
 * goodput.c; docs/model.md "Goodput").  Given, the time and cost to train
 * are the expected ones, failures included; absent, steps x step time. */
enum sc_checkpoint { SC_CKPT_SYNC = 0, SC_CKPT_ASYNC };
/* The defaults, with their sources (docs/model.md "Goodput"):
 * - Llama 3's 54 days on 16,384 H100 (2,048 nodes): 419 unexpected
 *   interruptions, of which the GPUs' own (faulty GPU 148, HBM3 72, SRAM 19,
 *   GPU system processor 17, silent data corruption 6, thermal interface and
 *   sensor 6) are 268 and the rest 151 (arXiv:2407.21783, Table 5):
 *   268 / (16,384 x 54 / 365.25) = 0.1106 a GPU-year and
 *   151 / (2,048 x 54 / 365.25) = 0.4987 a node-year;
 * - restart 600 s: Meta's RSC study puts the restart overhead at 5 to 20
 *   minutes (Kokolis et al., arXiv:2410.21680, section V), MegaScale
 *   detects and diagnoses a fault in under 10 (arXiv:2402.15627);
 * - storage 100 GB/s: FSx for Lustre PERSISTENT_2 at its top tier, 1,000
 *   MB/s per TiB, provisioned at 100 TiB (AWS FSx for Lustre guide,
 *   "Managing throughput capacity"), an assumption of size;
 * - spot, for a type the catalog gives no interruption band (spot.h):
 *   AWS's Spot Instance Advisor's top band, more than 20% of instances a
 *   month, taken at 20%: 0.2 / 30 a node-day. */
#define SC_GOODPUT_GPU_PER_YEAR 0.1106
#define SC_GOODPUT_NODE_PER_YEAR 0.4987
#define SC_GOODPUT_RESTART_S 600
#define SC_GOODPUT_STORAGE_GBS 100
#define SC_GOODPUT_SPOT_PER_DAY (0.2 / 30)
struct sc_goodput {
    int present;                       /* 1: the scenario has a goodput: section */
    double gpu_failures_per_year;      /* interruptions a GPU causes a year */
    double node_failures_per_year;     /* interruptions a node causes a year (host, network,
                                          software), beside its GPUs' */
    double checkpoint_interval_s;      /* compute between checkpoints; NAN: Daly's optimum */
    int checkpoint;                    /* enum sc_checkpoint */
    double storage_gbs;                /* the checkpoint store's aggregate write and read rate,
                                          GB/s; NAN: the storage type's, else the default */
    const struct cat_storage *storage; /* goodput.storage: a type of catalog/storage.csv; NULL
                                          none */
    double storage_tib;                /* goodput.storage_tib: TiB provisioned of a per-TiB
                                          type */
    double restart_s;                  /* detecting, rescheduling and starting again, before
                                          the checkpoint is read back */
    double spot_preemptions_per_day;   /* a spot node's preemptions a day; NAN: its type's
                                          band (catalog spot_interrupt), else the default */
    int spot_notice_save;              /* 1: a spot node saves a checkpoint at its preemption
                                          notice when the write fits it (spot.h) */
    double planned_per_day;            /* the job's planned interruptions a day (maintenance,
                                          upgrades): a restart each, no work lost */
    int samples;                       /* runs sampled with the simulation's seed for the
                                          spread of the time to train; 0 none */
};

/* A scenario: one struct per YAML section, each named as its section. */
struct scenario {
    char name[96];
    const struct catalog *catalog;     /* the catalog names were resolved against (not owned) */
    struct sc_workload workload;
    struct sc_input input;
    struct sc_gradients gradients;
    struct sc_parallel parallel;
    /* clusters to compare */
    struct sc_cluster *clusters;
    int nclusters;
    struct sc_fabric fabric;
    struct sc_goal objective;
    struct sc_simulation simulation;
    struct sc_goodput goodput;
    /* catalog search (plan: section; clusters may then be absent) */
    struct sc_plan plan;
    /* calibration profiles (docs/profile.md): measured values of instance
     * types, from `profile:` and catalog.instances[].profile; instance holds
     * the type each applies to (the first one named wins) */
    struct prof_measured *profiles;
    int nprofiles;
};

/*
 * Every field at its default (docs/scenario.md): no model, no clusters, ring
 * all-reduce with 25 MiB buckets overlapping backward, minimum step time,
 * 20 measured steps after 3 warm-up steps, seed 1.  name is copied (cut to
 * fit); NULL leaves it empty.
 */
void scenario_defaults(struct scenario *sc, const char *name);

/* Free what the scenario owns (clusters, profiles) and empty those lists;
 * NULL is a no-op.  The catalog entries it points at are not freed. */
void scenario_free(struct scenario *sc);

/* Forward GFLOP of one sample: from the model's shape at the workload's
 * seq_len when both are given, else the catalog's fwd_gflops (NAN unknown). */
double scenario_fwd_gflops(const struct scenario *sc);

/* GPUs a model replica spans: parallel.tp x parallel.pp.  Data parallelism
 * runs over the train GPUs / this. */
int scenario_model_parallel(const struct scenario *sc);

/* Tokens a sample: workload.seq_len, else the model's; and a rank's share
 * of them under context parallelism (seq_len / cp). */
double scenario_seq_len(const struct scenario *sc);
double scenario_rank_tokens(const struct scenario *sc);
/* workload.moe_imbalance, or where not given under expert parallelism the
 * default dropless routing gives (SC_MOE_IMBALANCE, capped at the model's
 * capacity_factor when it drops tokens); 1 without experts or ep. */
#define SC_MOE_IMBALANCE 1.66
double scenario_moe_imbalance(const struct scenario *sc);
/* The share of a model's layers that redo their forward in backward: 1
 * under full recompute (workload.recompute_layers of the model's layers
 * where given), 0 otherwise (selective and per-operator recompute redo
 * parts of every layer, timed apart). */
double scenario_recompute_share(const struct scenario *sc);
/* Whether any parallel dimension is auto (tp, pp, cp, ep, etp, recompute,
 * sharding; the micro-batch not counted), and clear every auto flag. */
int scenario_dims_auto(const struct scenario *sc);
void scenario_parallel_fixed(struct sc_parallel *p);

/* The GPUs one replica of the model spans for its batch: tp x pp x cp (the
 * context-parallel ranks share each sequence; they reduce gradients with
 * the data-parallel ones, scenario_model_parallel's group). */
int scenario_replica_gpus(const struct scenario *sc);

/* The cluster's own strategy and communication choice where it has them,
 * the scenario's gradients section otherwise; auto on a cluster without GPU
 * train nodes is the ring. */
void scenario_cluster_comm(const struct scenario *sc, const struct sc_cluster *cl,
                           struct sc_comm *out);

/* The layout cluster cl runs, before any search: the scenario's parallel
 * section with the cluster's own keys over it, auto flags included. */
void scenario_cluster_parallel(const struct scenario *sc, const struct sc_cluster *cl,
                               struct sc_parallel *out);

/* The scenario as cluster cl runs it: its parallel section
 * (scenario_cluster_parallel), micro-batch and accumulation over the
 * scenario's.  Returns 1 where anything differs from sc, 0 where *out is
 * sc's copy. */
int scenario_for_cluster(const struct scenario *sc, const struct sc_cluster *cl,
                         struct scenario *out);

/* The plan: section's defaults (docs/plan.md), for a search without one. */
void scenario_plan_defaults(struct sc_plan *p);

/* The closed sets: the i-th name (NULL past the end) and the index of a
 * name (-1 when it is none of them). */
const char *scenario_objective_name(int o);
const char *scenario_checkpoint_name(int c);       /* sync, async */
int scenario_objective_parse(const char *s);
const char *scenario_ps_place_name(int p);
const char *scenario_bucket_rule_name(int r);
/* Bytes a gradient bucket holds on a cluster of k training GPUs: bucket_mb's
 * (cluster_bytes), or Megatron-Core's default under gradients.buckets megatron. */
double scenario_bucket_bytes(const struct scenario *sc, double cluster_bytes, int k);
int scenario_ps_place_parse(const char *s);
const char *scenario_ps_receive_name(int r);
int scenario_ps_receive_parse(const char *s);
const char *scenario_solve_name(int s);           /* index 0 is SC_SOLVE_CPU */
int scenario_solve_parse(const char *s);
const char *scenario_grad_prec_name(int i);       /* fp32, fp16, bf16 */
/* workload.precision: the formats (enum cat_prec order), then fp32_strict
 * and auto; scenario_prec_set fills precision and its flags from one. */
const char *scenario_prec_name(int i);
void scenario_prec_set(struct scenario *sc, int i);
int scenario_prec_index(const struct scenario *sc);
const char *scenario_attention_name(int i);       /* flash, unfused, flash_triton */
const char *scenario_sharding_name(int i);        /* none, zero1, zero2, zero3, fsdp, hsdp, auto */
const char *scenario_recompute_name(int i);       /* none, selective, full, auto */
const char *scenario_pp_order_name(int i);        /* tp-dp-pp, tp-pp-dp (SIM_ORDER_*) */
const char *scenario_tp_layout_name(int i);       /* sbh, bsh (SC_TP_LAYOUT_*) */
const char *scenario_ep_dispatch_name(int i);     /* alltoall, deepep, hybridep, allgather */
const char *scenario_cp_comm_name(int i);        /* p2p, a2a, allgather, torch (SC_CP_*) */
const char *scenario_pp_split_name(int i);        /* layers, embedding_loss (SC_PP_SPLIT_*) */
const char *scenario_pp_schedule_name(int i);     /* 1f1b, dualpipe (SC_PP_1F1B, _DUALPIPE) */
const char *scenario_memory_format_name(int i);   /* nchw, nhwc */
const char *scenario_amp_name(int i);             /* autocast, pure */
const char *scenario_kernels_name(int i);         /* eager, fused */
const char *scenario_fp8_recipe_name(int i);      /* delayed, current, mxfp8 */
const char *scenario_fp8_library_name(int i);     /* transformer_engine, torchao */
const char *scenario_cross_entropy_name(int i);   /* fp32, in_place */
const char *scenario_opt_loop_name(int i);        /* fused, foreach, per_tensor */
const char *scenario_graphs_name(int i);          /* full, partial, none */
const char *scenario_expert_mlp_name(int i);      /* fused, grouped, sequential */
/* The OPS_* style bits (catalog/ops.h) of sc's workload.amp and kernels. */
int scenario_ops_style(const struct scenario *sc);
int scenario_grad_prec_parse(const char *s);
enum cat_prec scenario_grad_prec_value(int i);

#endif
