/*
 * sc_field.c - the scenario's fields (sc_field.h), section by section, each
 * section's keys in the order its key list names them.  Ranges and words
 * are the ones docs/scenario.md gives; a change here changes the loader's
 * checks, the error lines and the defaults together.
 */
#include "sc_field.h"

#include <math.h>
#include <string.h>

#include "scenario.h"
#include "../catalog/ops.h"
#include "../base/units.h"

/* enums are stored and defaulted as the int they are */
_Static_assert(sizeof(enum sim_strategy) == sizeof(int) && sizeof(enum cat_prec) == sizeof(int),
               "an enum field is an int");

#define OFF(type, member) ((long)offsetof(struct type, member))
#define NOSLOT (-1L)

/* the rows' common shapes */
#define NUM(p, s, o, d, l, lopen, h, w) \
    {p, s, SC_FIELD_NUM, o, d, l, h, lopen, 1, w, NULL, 0}
#define INT(p, s, o, d, l, h, w) {p, s, SC_FIELD_INT, o, d, l, h, 0, 1, w, NULL, 0}
#define BOOL(p, s, o, d) {p, s, SC_FIELD_BOOL, o, d, 0, 1, 0, 1, "true or false", NULL, 0}
#define ENUM(p, s, o, d, n) {p, s, SC_FIELD_ENUM, o, d, 0, 0, 0, 1, NULL, n, 0}
#define REF(p, s, w, fl) {p, s, SC_FIELD_REF, NOSLOT, NAN, 0, 0, 0, 1, w, NULL, fl}

#define WL SC_SEC_WORKLOAD
#define IN SC_SEC_INPUT
#define GR SC_SEC_GRADIENTS
#define PA SC_SEC_PARALLEL
#define PL SC_SEC_PLAN

const struct sc_field sc_fields[] = {
    /* ---- workload ---- */
    REF("workload.model", WL, "a model of the catalog", SC_FIELD_REQUIRED | SC_FIELD_CODE),
    {"workload.batch_per_gpu", PA, SC_FIELD_INT_AUTO, OFF(sc_parallel, micro_batch), 0, 1,
     10000000, 0, 1, "a positive integer or auto", NULL, SC_FIELD_CODE},
    {"workload.precision", WL, SC_FIELD_ENUM, OFF(sc_workload, precision), CAT_FP32, 0, 0, 0, 1,
     NULL, scenario_prec_name, SC_FIELD_CODE},
    INT("workload.grad_accum", WL, OFF(sc_workload, grad_accum), 1, 1, 100000,
        "a positive integer"),
    NUM("workload.mfu", WL, OFF(sc_workload, mfu), NAN, 0, 1, 1, "a fraction in (0, 1]"),
    NUM("workload.optimizer_bytes_per_param", WL, OFF(sc_workload, optimizer_bytes_per_param),
        NAN, 0, 1, 1e4, "bytes per parameter in (0, 1e4]"),
    REF("workload.measured_compute", WL, "a mapping", SC_FIELD_CODE),
    REF("workload.measured_step", WL, "a mapping", SC_FIELD_CODE),
    {"workload.seq_len", WL, SC_FIELD_INT, OFF(sc_workload, seq_len), 0, 1, 1e7, 0, 1,
     "a positive integer", NULL, SC_FIELD_CODE},
    ENUM("workload.attention", WL, OFF(sc_workload, attention), SC_ATTN_FLASH,
         scenario_attention_name),
    ENUM("workload.memory_format", WL, OFF(sc_workload, channels_last), 0,
         scenario_memory_format_name),
    {"workload.recompute", PA, SC_FIELD_ENUM, OFF(sc_parallel, recompute), SC_RECOMPUTE_NONE, 0,
     0, 0, 1, NULL, scenario_recompute_name, SC_FIELD_CODE},
    INT("workload.global_batch", WL, OFF(sc_workload, global_batch), 0, 1, 1000000000,
        "an integer from 1 to 1000000000"),
    NUM("workload.optimizer_state_bytes", WL, OFF(sc_workload, optimizer_state_bytes), NAN, 0, 0,
        1000, "bytes per parameter in [0, 1000]"),
    ENUM("workload.amp", WL, OFF(sc_workload, amp_pure), 0, scenario_amp_name),
    ENUM("workload.kernels", WL, OFF(sc_workload, kernels_fused), 0, scenario_kernels_name),
    ENUM("workload.fp8_recipe", WL, OFF(sc_workload, fp8_recipe), SC_FP8_DELAYED,
         scenario_fp8_recipe_name),
    ENUM("workload.fp8_library", WL, OFF(sc_workload, fp8_library), SC_FP8_LIB_TE,
         scenario_fp8_library_name),
    ENUM("workload.optimizer_loop", WL, OFF(sc_workload, optimizer_loop), SC_OPT_FUSED,
         scenario_opt_loop_name),
    ENUM("workload.cuda_graphs", WL, OFF(sc_workload, cuda_graphs), SC_GRAPHS_FULL,
         scenario_graphs_name),
    ENUM("workload.expert_mlp", WL, OFF(sc_workload, expert_mlp), SC_EXPERT_FUSED,
         scenario_expert_mlp_name),
    NUM("workload.moe_host_pass_s", WL, OFF(sc_workload, moe_host_pass_s), NAN, 0, 0, 10,
        "seconds in [0, 10]"),
    INT("workload.offload_layers", WL, OFF(sc_workload, offload_layers), 0, 0, 100000,
        "an integer from 0 to 100000"),
    INT("workload.fp8_bf16_layers", WL, OFF(sc_workload, fp8_bf16_layers), 0, 0, 100000,
        "an integer from 0 to 100000"),
    BOOL("workload.fp8_attention", WL, OFF(sc_workload, fp8_attention), 0),
    BOOL("workload.fp8_act_input", WL, OFF(sc_workload, fp8_act_input), 0),
    BOOL("workload.fp8_params", WL, OFF(sc_workload, fp8_params), 0),
    NUM("workload.step_overhead_s", WL, OFF(sc_workload, step_overhead_s), 0, 0, 0, 3600,
        "seconds in [0, 3600]"),
    {"workload.recompute_modules", WL, SC_FIELD_UBITS, OFF(sc_workload, recompute_modules), 0, 0,
     0, 0, 1, NULL, ops_mod_name, SC_FIELD_CODE},
    INT("workload.recompute_layers", WL, OFF(sc_workload, recompute_layers), 0, 1, 100000,
        "an integer from 1 to 100000"),
    NUM("workload.moe_imbalance", WL, OFF(sc_workload, moe_imbalance), NAN, 1, 0, 100,
        "a factor in [1, 100]"),
    INT("workload.lora_rank", WL, OFF(sc_workload, lora_rank), 0, 1, 65536,
        "an integer from 1 to 65536"),
    {"workload.lora_targets", WL, SC_FIELD_UBITS, OFF(sc_workload, lora_targets), 0, 0, 0, 0, 1,
     NULL, ops_lora_target_name, SC_FIELD_CODE},
    ENUM("workload.cross_entropy", WL, OFF(sc_workload, cross_entropy), SC_CE_FP32,
         scenario_cross_entropy_name),

    REF("workload.measured_compute.gpu", WL, "a GPU of the catalog",
        SC_FIELD_REQUIRED | SC_FIELD_CODE),
    {"workload.measured_compute.step_s", WL, SC_FIELD_NUM, OFF(sc_workload, measured_compute_s),
     NAN, 0, 1e6, 1, 1, "a time in seconds in (0, 1e6]", NULL, SC_FIELD_REQUIRED},
    INT("workload.measured_compute.batch", WL, OFF(sc_workload, measured_batch), 0, 1, 10000000,
        "a positive integer"),
    REF("workload.measured_compute.model", WL, "a model of the catalog", SC_FIELD_CODE),
    {"workload.measured_compute.recompute", WL, SC_FIELD_ENUM,
     OFF(sc_workload, measured_recompute), SC_RECOMPUTE_NONE, 0, 0, 0, 1, NULL,
     scenario_recompute_name, SC_FIELD_CODE},

    {"workload.measured_step.cluster", WL, SC_FIELD_REF, OFF(sc_workload, measured_cluster), -1,
     0, 0, 0, 1, "a cluster name", NULL, SC_FIELD_REQUIRED | SC_FIELD_CODE},
    {"workload.measured_step.step_s", WL, SC_FIELD_NUM, OFF(sc_workload, measured_step_s), NAN, 0,
     1e6, 1, 1, "a time in seconds in (0, 1e6]", NULL, SC_FIELD_REQUIRED},
    {"workload.measured_step.solve_for", WL, SC_FIELD_ENUM, OFF(sc_workload, solve_for),
     SC_SOLVE_NONE, 0, 0, 0, 1, NULL, scenario_solve_name, SC_FIELD_REQUIRED | SC_FIELD_CODE},

    /* ---- input ---- */
    {"input.cpu_s_per_sample", IN, SC_FIELD_NUM, OFF(sc_input, cpu_s_per_sample), NAN, 0, 3600,
     0, 1, "seconds in [0, 3600]", NULL, SC_FIELD_CODE},
    REF("input.cpu_measured_on", IN, "an instance type of the catalog", SC_FIELD_CODE),
    NUM("input.raw_bytes", IN, OFF(sc_input, raw_bytes), 0, 0, 0, 1e10,
        "a number of bytes in [0, 1e10]"),
    NUM("input.prep_bytes", IN, OFF(sc_input, prep_bytes), 0, 0, 0, 1e10,
        "a number of bytes in [0, 1e10]"),
    {"input.loader_workers", IN, SC_FIELD_INT_AUTO, OFF(sc_input, loader_workers), -1, 0, 4096,
     0, 1, "a non-negative integer or auto", NULL, 0},
    INT("input.prefetch", IN, OFF(sc_input, prefetch), 2, 0, 1000, "a non-negative integer"),
    INT("input.reserved_vcpus_per_gpu", IN, OFF(sc_input, reserved_vcpus_per_gpu), 0, 0, 4096,
        "a non-negative integer"),
    {"input.data_workers", IN, SC_FIELD_INT_AUTO, OFF(sc_input, data_workers), -1, 1, 4096, 0,
     1, "a positive integer or auto", NULL, 0},
    BOOL("input.local_with_data_nodes", IN, OFF(sc_input, local_with_data_nodes), 1),
    NUM("input.service_send_cpu_s_per_byte", IN, OFF(sc_input, service_send_cpu_s_per_byte), 0,
        0, 0, 1, "seconds per byte in [0, 1]"),
    NUM("input.service_recv_cpu_s_per_byte", IN, OFF(sc_input, service_recv_cpu_s_per_byte), 0,
        0, 0, 1, "seconds per byte in [0, 1]"),
    NUM("input.dataset_samples", IN, OFF(sc_input, dataset_samples), NAN, 0, 1, 1e15,
        "a sample count in (0, 1e15]"),
    NUM("input.epochs", IN, OFF(sc_input, epochs), 1, 0, 1, 1e6,
        "a number of epochs in (0, 1e6]"),
    NUM("input.eval_every_samples", IN, OFF(sc_input, eval_every_samples), NAN, 0, 1, 1e15,
        "a sample count in (0, 1e15]"),
    NUM("input.eval_samples", IN, OFF(sc_input, eval_samples), 0, 0, 0, 1e12,
        "a sample count in [0, 1e12]"),
    INT("input.eval_skip", IN, OFF(sc_input, eval_skip), 0, 0, 1000000,
        "an integer in [0, 1000000]"),

    /* ---- gradients ---- */
    ENUM("gradients.strategy", GR, OFF(sc_gradients, strategy), SIM_AUTO, sim_strategy_name),
    {"gradients.bucket_mb", GR, SC_FIELD_NUM, OFF(sc_gradients, bucket_bytes), 25.0 * DT_MIB, 0,
     65536, 1, DT_MIB, "a size in MiB in (0, 65536]", NULL, 0},
    {"gradients.buckets_mb", GR, SC_FIELD_REF, NOSLOT, NAN, 0, 65536, 1, DT_MIB,
     "a size in MiB in (0, 65536]", NULL, SC_FIELD_CODE},
    ENUM("gradients.buckets", GR, OFF(sc_gradients, bucket_rule), SC_BUCKETS_FIXED,
         scenario_bucket_rule_name),
    BOOL("gradients.overlap", GR, OFF(sc_gradients, overlap), 1),
    NUM("gradients.cycle_ms", GR, OFF(sc_gradients, cycle_ms), 0, 0, 0, 10000,
        "a period in ms in [0, 10000]"),
    {"gradients.precision", GR, SC_FIELD_ENUM, OFF(sc_gradients, precision), CAT_FP32, 0, 0, 0,
     1, NULL, scenario_grad_prec_name, SC_FIELD_CODE},
    REF("gradients.ps", GR, "a mapping", SC_FIELD_CODE),
    {"gradients.sharding", PA, SC_FIELD_ENUM, OFF(sc_parallel, sharding), SC_SHARD_NONE, 0, 0, 0,
     1, NULL, scenario_sharding_name, SC_FIELD_CODE},
    INT("gradients.ps.count", GR, OFF(sc_gradients, ps_count), 1, 1, 4096, "a positive integer"),
    ENUM("gradients.ps.placement", GR, OFF(sc_gradients, ps_place), SC_PS_COLOCATED,
         scenario_ps_place_name),
    BOOL("gradients.ps.pipeline", GR, OFF(sc_gradients, ps_pipeline), 1),
    {"gradients.ps.receive", GR, SC_FIELD_ENUM, OFF(sc_gradients, ps_receive), SC_PS_TOGETHER, 0,
     0, 0, 1, NULL, scenario_ps_receive_name, SC_FIELD_CODE},

    /* ---- parallel (read through cli/ld_parallel.c's own code: auto, and a
     * cluster's section over the scenario's) ---- */
    {"parallel.tp", PA, SC_FIELD_INT_AUTO, OFF(sc_parallel, tp), 1, 1, 1024, 0, 1,
     "a positive integer or auto", NULL, SC_FIELD_CODE | SC_FIELD_CLUSTER},
    {"parallel.pp", PA, SC_FIELD_INT_AUTO, OFF(sc_parallel, pp), 1, 1, 4096, 0, 1,
     "a positive integer or auto", NULL, SC_FIELD_CODE | SC_FIELD_CLUSTER},
    {"parallel.interleave", PA, SC_FIELD_INT, OFF(sc_parallel, interleave), 1, 1, 64, 0, 1,
     "a positive integer", NULL, SC_FIELD_CODE | SC_FIELD_CLUSTER},
    {"parallel.micro_batch", PA, SC_FIELD_INT_AUTO, NOSLOT, NAN, 1, 10000000, 0, 1,
     "a positive integer or auto", NULL, SC_FIELD_CODE},
    {"parallel.sequence_parallel", PA, SC_FIELD_BOOL, OFF(sc_parallel, sequence_parallel), 0, 0,
     1, 0, 1, "true or false", NULL, SC_FIELD_CODE | SC_FIELD_CLUSTER},
    {"parallel.tp_overlap", PA, SC_FIELD_BOOL, OFF(sc_parallel, tp_overlap), 0, 0, 1, 0, 1,
     "true or false", NULL, SC_FIELD_CODE},
    {"parallel.order", PA, SC_FIELD_ENUM, OFF(sc_parallel, order), 0, 0, 0, 0, 1, NULL,
     scenario_pp_order_name, SC_FIELD_CODE},
    {"parallel.tp_layout", PA, SC_FIELD_ENUM, OFF(sc_parallel, tp_layout), SC_TP_LAYOUT_SBH, 0,
     0, 0, 1, NULL, scenario_tp_layout_name, SC_FIELD_CODE},
    {"parallel.pp_split", PA, SC_FIELD_ENUM, OFF(sc_parallel, pp_split), SC_PP_SPLIT_LAYERS, 0,
     0, 0, 1, NULL, scenario_pp_split_name, SC_FIELD_CODE},
    {"parallel.pp_layers", PA, SC_FIELD_REF, NOSLOT, NAN, 0, 1000, 0, 1,
     "a layer count from 0 to 1000", NULL, SC_FIELD_CODE},
    {"parallel.pp_schedule", PA, SC_FIELD_ENUM, OFF(sc_parallel, pp_schedule), SC_PP_1F1B, 0, 0,
     0, 1, NULL, scenario_pp_schedule_name, SC_FIELD_CODE},
    {"parallel.cp", PA, SC_FIELD_INT_AUTO, OFF(sc_parallel, cp), 1, 1, 1024, 0, 1,
     "a positive integer or auto", NULL, SC_FIELD_CODE},
    {"parallel.cp_comm", PA, SC_FIELD_ENUM, OFF(sc_parallel, cp_comm), SC_CP_P2P, 0, 0, 0, 1,
     NULL, scenario_cp_comm_name, SC_FIELD_CODE},
    {"parallel.cp_kv_repeat", PA, SC_FIELD_BOOL, OFF(sc_parallel, cp_kv_repeat), 0, 0, 1, 0, 1,
     "true or false", NULL, SC_FIELD_CODE},
    {"parallel.ep", PA, SC_FIELD_INT_AUTO, OFF(sc_parallel, ep), 1, 1, 65536, 0, 1,
     "a positive integer or auto", NULL, SC_FIELD_CODE},
    {"parallel.etp", PA, SC_FIELD_INT_AUTO, OFF(sc_parallel, etp), 0, 1, 1024, 0, 1,
     "a positive integer or auto", NULL, SC_FIELD_CODE},
    {"parallel.ep_dispatch", PA, SC_FIELD_ENUM, OFF(sc_parallel, ep_dispatch), SC_EP_ALLTOALL, 0,
     0, 0, 1, NULL, scenario_ep_dispatch_name, SC_FIELD_CODE},
    {"parallel.ep_fp8_dispatch", PA, SC_FIELD_BOOL, OFF(sc_parallel, ep_fp8_dispatch), 0, 0, 1, 0,
     1, "true or false", NULL, SC_FIELD_CODE},
    {"parallel.ep_overlap", PA, SC_FIELD_BOOL, OFF(sc_parallel, ep_overlap), 0, 0, 1, 0, 1,
     "true, false or auto", NULL, SC_FIELD_CODE},
    {"parallel.ep_sms", PA, SC_FIELD_INT, OFF(sc_parallel, ep_sms), 0, 1, 1024, 0, 1,
     "an SM count from 1 to 1024", NULL, SC_FIELD_CODE},

    /* ---- fabric, objective, simulation ---- */
    NUM("fabric.oversubscription", SC_SEC_FABRIC, OFF(sc_fabric, oversubscription), 1, 1, 0, 1000,
        "a ratio in [1, 1000]"),
    {"objective.minimize", SC_SEC_OBJECTIVE, SC_FIELD_ENUM, OFF(sc_goal, minimize), SC_OBJ_TIME, 0,
     0, 0, 1, NULL, scenario_objective_name, SC_FIELD_CODE},
    {"objective.deadline_h", SC_SEC_OBJECTIVE, SC_FIELD_NUM, OFF(sc_goal, deadline_h), NAN, 0, 1e6,
     1, 1, "hours in (0, 1e6]", NULL, SC_FIELD_CODE},
    NUM("objective.budget_usd_h", SC_SEC_OBJECTIVE, OFF(sc_goal, budget_usd_h), NAN, 0, 1, 1e9,
        "USD per hour in (0, 1e9]"),
    INT("objective.max_data_channels", SC_SEC_OBJECTIVE, OFF(sc_goal, max_data_channels), -1, 1,
        1000000, "a positive integer"),
    {"simulation.seed", SC_SEC_SIMULATION, SC_FIELD_SEED, OFF(sc_simulation, seed), 1, 0,
     4294967295.0, 0, 1, "a non-negative integer", NULL, 0},
    INT("simulation.steps", SC_SEC_SIMULATION, OFF(sc_simulation, steps), 20, 1, 100000,
        "a positive integer"),
    INT("simulation.warmup", SC_SEC_SIMULATION, OFF(sc_simulation, warmup), 3, 0, 10000,
        "a non-negative integer"),
    NUM("simulation.jitter_cv", SC_SEC_SIMULATION, OFF(sc_simulation, jitter_cv), 0.02, 0, 0, 1,
        "a coefficient of variation in [0, 1]"),

    /* ---- goodput: failures, checkpoints and restarts (docs/model.md "Goodput"); the
     * defaults' sources are planner/goodput.h's ---- */
    NUM("goodput.gpu_failures_per_year", SC_SEC_GOODPUT, OFF(sc_goodput, gpu_failures_per_year),
        SC_GOODPUT_GPU_PER_YEAR, 0, 0, 100, "interruptions a GPU-year in [0, 100]"),
    NUM("goodput.node_failures_per_year", SC_SEC_GOODPUT, OFF(sc_goodput, node_failures_per_year),
        SC_GOODPUT_NODE_PER_YEAR, 0, 0, 1000, "interruptions a node-year in [0, 1000]"),
    NUM("goodput.checkpoint_interval_s", SC_SEC_GOODPUT, OFF(sc_goodput, checkpoint_interval_s),
        NAN, 0, 1, 1e7, "seconds in (0, 1e7]"),
    ENUM("goodput.checkpoint", SC_SEC_GOODPUT, OFF(sc_goodput, checkpoint), SC_CKPT_SYNC,
         scenario_checkpoint_name),
    NUM("goodput.storage_gbs", SC_SEC_GOODPUT, OFF(sc_goodput, storage_gbs), NAN, 0, 1, 1e6,
        "GB/s in (0, 1e6]"),
    REF("goodput.storage", SC_SEC_GOODPUT, "a storage type of the catalog (storage.csv)",
        SC_FIELD_CODE),
    NUM("goodput.storage_tib", SC_SEC_GOODPUT, OFF(sc_goodput, storage_tib), NAN, 0, 1, 1e6,
        "TiB in (0, 1e6]"),
    NUM("goodput.restart_s", SC_SEC_GOODPUT, OFF(sc_goodput, restart_s), SC_GOODPUT_RESTART_S, 0, 0,
        1e6, "seconds in [0, 1e6]"),
    NUM("goodput.spot_preemptions_per_day", SC_SEC_GOODPUT, OFF(sc_goodput, spot_preemptions_per_day),
        NAN, 0, 0, 1000, "preemptions a node-day in [0, 1000]"),
    BOOL("goodput.spot_notice_save", SC_SEC_GOODPUT, OFF(sc_goodput, spot_notice_save), 0),
    NUM("goodput.planned_per_day", SC_SEC_GOODPUT, OFF(sc_goodput, planned_per_day), 0, 0, 0, 1000,
        "planned interruptions a day in [0, 1000]"),
    INT("goodput.samples", SC_SEC_GOODPUT, OFF(sc_goodput, samples), 0, 0, 10000,
        "an integer from 0 to 10000"),

    /* ---- plan: the catalog search (docs/plan.md) ---- */
    REF("plan.instances", PL, "an instance type or family", SC_FIELD_CODE),
    REF("plan.regions", PL, "a region", SC_FIELD_CODE),
    BOOL("plan.spot", PL, OFF(sc_plan, spot), 0),
    INT("plan.max_nodes", PL, OFF(sc_plan, max_nodes), 8, 1, 4096, "a positive integer"),
    INT("plan.max_gpus", PL, OFF(sc_plan, max_gpus), -1, 1, 1000000, "a positive integer"),
    INT("plan.max_data_nodes", PL, OFF(sc_plan, max_data_nodes), 4, 0, 4096,
        "a non-negative integer"),
    INT("plan.max_ps", PL, OFF(sc_plan, max_ps), 2, 0, 4096, "a non-negative integer"),
    {"plan.strategies", PL, SC_FIELD_UBITS, OFF(sc_plan, strategies),
     (1u << SIM_AUTO) | (1u << SIM_HIERARCHICAL) | (1u << SIM_PS_SYNC), 0, 0, 0, 1, NULL,
     sim_strategy_name, SC_FIELD_CODE},
    {"plan.bucket_mb", PL, SC_FIELD_REF, NOSLOT, NAN, 0, 65536, 1, DT_MIB,
     "a size in MiB in (0, 65536]", NULL, SC_FIELD_CODE},
    BOOL("plan.cpu_training", PL, OFF(sc_plan, cpu_training), 1),
    {"plan.budget_usd_h", PL, SC_FIELD_NUM, NOSLOT, NAN, 0, 1e9, 1, 1, "USD per hour in (0, 1e9]",
     NULL, SC_FIELD_CODE},
    {"plan.deadline_h", PL, SC_FIELD_NUM, NOSLOT, NAN, 0, 1e6, 1, 1, "hours in (0, 1e6]", NULL,
     SC_FIELD_CODE},
    {"plan.max_data_channels", PL, SC_FIELD_INT, NOSLOT, NAN, 1, 1000000, 0, 1,
     "a positive integer", NULL, SC_FIELD_CODE},
    INT("plan.top", PL, OFF(sc_plan, top), 10, 1, 1000, "a positive integer"),
    INT("plan.search_steps", PL, OFF(sc_plan, search_steps), 0, 1, 100000, "a positive integer"),
    INT("plan.search_warmup", PL, OFF(sc_plan, search_warmup), -1, 0, 10000,
        "a non-negative integer"),
};

const int sc_nfields = (int)(sizeof sc_fields / sizeof sc_fields[0]);

static const char *const sections[SC_NSEC] = {
    "workload", "input", "gradients", "parallel", "fabric", "objective", "simulation", "plan",
    "goodput"
};

const char *sc_section_name(enum sc_section s)
{
    return (unsigned)s < SC_NSEC ? sections[s] : NULL;
}

void *sc_section_of(struct scenario *sc, enum sc_section s)
{
    switch (s) {
    case SC_SEC_WORKLOAD: return &sc->workload;
    case SC_SEC_INPUT: return &sc->input;
    case SC_SEC_GRADIENTS: return &sc->gradients;
    case SC_SEC_PARALLEL: return &sc->parallel;
    case SC_SEC_FABRIC: return &sc->fabric;
    case SC_SEC_OBJECTIVE: return &sc->objective;
    case SC_SEC_SIMULATION: return &sc->simulation;
    case SC_SEC_PLAN: return &sc->plan;
    case SC_SEC_GOODPUT: return &sc->goodput;
    default: return NULL;
    }
}

const char *sc_field_key(const struct sc_field *f)
{
    const char *dot = strrchr(f->path, '.');
    return dot ? dot + 1 : f->path;
}

int sc_field_in(const struct sc_field *f, const char *path)
{
    size_t n = strlen(path);

    return strncmp(f->path, path, n) == 0 && f->path[n] == '.' && !strchr(f->path + n + 1, '.');
}

void *sc_field_slot(struct scenario *sc, const struct sc_field *f)
{
    return f->off < 0 ? NULL : (char *)sc_section_of(sc, f->sec) + f->off;
}

const struct sc_field *sc_field_find(const char *path)
{
    for (int i = 0; i < sc_nfields; i++)
        if (strcmp(sc_fields[i].path, path) == 0)
            return &sc_fields[i];
    return NULL;
}

void sc_field_default(const struct sc_field *f, void *base)
{
    void *p = f->off < 0 ? NULL : (char *)base + f->off;

    if (!p)
        return;
    switch (f->type) {
    case SC_FIELD_NUM: *(double *)p = f->def; break;
    case SC_FIELD_SEED: *(unsigned long *)p = (unsigned long)f->def; break;
    case SC_FIELD_UBITS: *(unsigned *)p = (unsigned)f->def; break;
    case SC_FIELD_INT:
    case SC_FIELD_INT_AUTO:
    case SC_FIELD_BOOL:
    case SC_FIELD_ENUM:
    case SC_FIELD_REF: *(int *)p = (int)f->def; break;   /* a reference's index */
    }
}
