/*
 * resolve.h - internal to the planner: resolve a cluster with the inputs the
 * solver varies (a CPU cost per sample, a scale on compute time).  Besides
 * resolve.c it declares the files the resolver calls: resolve_pp.c
 * (pipeline parallelism) and interfere.c (compute slowed by collectives),
 * and below them, for the rest of the planner too, resolve_profile.c (the
 * profile of an instance type), resolve_peak.c (a worker's peak FLOP/s) and
 * resolve_accum.c (gradient accumulation) and resolve_shaped.c (the shape check),
 * which call none of the others.
 */
#ifndef DT_RESOLVE_H
#define DT_RESOLVE_H

#include "planner.h"

struct resolve_opts {
    double cpu_s_per_sample;   /* NAN: take the scenario's */
    double compute_scale;      /* multiplies compute time (1 = as resolved) */
    int unit_flops;            /* 1: a model without forward FLOPs counts 1 GFLOP a sample, the
                                  base a compute_scale solved from a measured step scales */
};

/* cl with each train group of a wider NVLink domain's units (a GB200 tray
 * of an NVL72 rack: nvlink_domain above its GPUs) taken as nodes of the
 * units that share one domain (catalog_domain_units): 2 trays one node of 8
 * GPUs over NVLink, 32 two nodes of 64, as NCCL's multi-node NVLink sees
 * them; the copy in own and part when one is taken, else cl.  resolve_cluster
 * resolves through it. */
const struct sc_cluster *resolve_domain_nodes(const struct sc_cluster *cl, struct sc_cluster *own,
                                              struct cat_instance part[SC_MAX_GROUPS]);

/* Errors name the instance type, not the cluster: callers prefix it. */
int resolve_cluster(const struct scenario *sc, const struct sc_cluster *cl,
                    const struct resolve_opts *o, struct sim_config *cfg, struct dt_err *e);
/* Speed of one vCPU of `in` in reference cores, without a profile: its
 * cpu_speed, else cpu_ghz / CAT_REF_CPU_GHZ, else 1 (docs/model.md). */
double resolve_vcpu_speed(const struct cat_instance *in);
/* Reference-core seconds per sample: the solved value in o when there is one,
 * else input.cpu_s_per_sample converted from a vCPU of input.cpu_measured_on. */
double resolve_cpu_s_per_sample(const struct scenario *sc, const struct resolve_opts *o);
/* Dense peak FLOP/s of one worker of instance `in` (a GPU, or `vcpus` vCPUs;
 * resolve_peak.c). */
double resolve_peak_flops(const struct cat_instance *in, enum cat_prec p, double vcpus);

/* Micro-batches a replica accumulates per optimizer step on `workers`
 * data-parallel replicas (GPUs / parallel.tp): workload.global_batch /
 * (batch_per_gpu x workers), rounded to the nearest whole number and at
 * least 1; grad_accum without a global batch (resolve_accum.c). */
int resolve_accum(const struct scenario *sc, int workers);

/* 1 where the model is given by its shape; else 0 with why: parallel.<dim> n
 * needs one (the tp, pp and cp checks share it; resolve_shaped.c). */
int resolve_shaped(const struct scenario *sc, const char *dim, int n, char *why, size_t len);
/* The activations' bytes a value as tensor, pipeline and expert parallelism
 * move them: 2 (16 bits), 4 in fp32 and tf32 runs (resolve_shaped.c). */
double resolve_act_width(const struct scenario *sc);
/* Bytes of a gradient on the wire: 4 for gradients.precision fp32, else 2. */
double resolve_grad_width(const struct scenario *sc);

/* Whether parallel.tp fits cl (it divides a node's GPUs or spans whole
 * nodes, and the model is given by its shape); 0 with why. */
int resolve_tp_fits(const struct scenario *sc, const struct sc_cluster *cl, char *why, size_t len);
/* Tensor parallelism into cfg: the degree, sequence parallelism, the
 * overlap's product shares, a layer's collective bytes, and each GPU's
 * share of a replica's batch and optimizer (resolve_tp.c). */
void resolve_tp(const struct scenario *sc, const struct sc_cluster *cl, struct sim_config *cfg);

/* Whether parallel.pp (with tp and interleave) fits cl: one group of GPU
 * train nodes, a shaped model with a layer a chunk, sharding none or zero1,
 * Megatron's order (sim_pp_fits), and with interleaving micro-batches a
 * multiple of pp; 0 with why (resolve_pp.c). */
int resolve_pp_fits(const struct scenario *sc, const struct sc_cluster *cl, char *why, size_t len);
/* Each of pp x v chunks' layers into out: as parallel.pp_layers gives them
 * where it lists that many (1), else cut evenly as pp_split says
 * (sim_pp_layers; 0) (resolve_pp.c). */
int resolve_pp_chunks(const struct scenario *sc, int pp, int v, int *out);
/* Whether parallel.cp fits cl: a shaped model, a sequence of a multiple of
 * 2 cp tokens, and tp x pp x cp dividing every train group's GPUs; 0 with
 * why.  resolve_cp_waits: a micro-batch's waits, forward and backward, for
 * ring attention's keys and values beyond the attention they hide under
 * (attn: the attention core's forward and backward seconds of that
 * micro-batch) on a GPU of `in` with g's links.  resolve_cp: each
 * replica's samples over its cp ranks, after resolve_tp (resolve_cp.c). */
int resolve_cp_fits(const struct scenario *sc, const struct sc_cluster *cl, char *why, size_t len);
void resolve_cp_waits(const struct scenario *sc, const struct cat_instance *in,
                      const struct sim_group *g, const double *attn, double *fwd_s, double *bwd_s);
void resolve_cp(const struct scenario *sc, struct sim_config *cfg);

/* Whether parallel.ep fits cl: a mixture of experts whose experts it
 * divides, and the data-parallel ranks (GPUs over tp x pp) it divides; 0
 * with why.  resolve_state_params: the parameters a rank's state covers
 * before tensor parallelism (experts / ep of the routed experts, the rest
 * whole).  resolve_ep: every train group's waits for the MoE layers'
 * all-to-alls (resolve_ep.c). */
int resolve_ep_fits(const struct scenario *sc, const struct sc_cluster *cl, char *why, size_t len);
double resolve_state_params(const struct scenario *sc);
/* Of resolve_state_params, the routed experts' share (0 without experts);
 * the expert-data-parallel ranks of `ranks` GPUs, which shard the experts'
 * state as the data-parallel ranks (GPUs over tp x pp) shard the rest; and
 * what a rank keeps of `held` parameters, `xheld` of them experts, when the
 * rest shards n ways and the experts xn ways. */
double resolve_expert_state_params(const struct scenario *sc);
int resolve_expert_dp(const struct scenario *sc, int ranks);
double resolve_sharded_params(double held, double xheld, double n, double xn);
/* LoRA fine-tuning (workload.lora_rank; resolve_lora.c): the adapters'
 * parameters over the model, before tensor parallelism, and their
 * tensors (an optimizer walks them); 0 without LoRA. */
double resolve_lora_params(const struct scenario *sc);
double resolve_lora_tensors(const struct scenario *sc);
void resolve_ep(const struct scenario *sc, const struct sc_cluster *cl, struct sim_config *cfg);
/* The host's time to issue a MoE layer's pass (one micro-batch, forward
 * and backward) without full-iteration CUDA graphs, s (the scenario's
 * workload.moe_host_pass_s, else resolve_host.c's figure under none); 0
 * under full graphs or without experts.  resolve_host: each train group's MoE layers take at
 * least that a pass (resolve_host.c), after resolve_ep. */
double resolve_host_moe_pass_s(const struct scenario *sc);
/* The waits a step adds where each of `passes` layer passes of GPU time
 * gpu_s / passes takes at least floor_s, for the share moe_share of them, s. */
double resolve_host_wait_s(double gpu_s, double floor_s, double passes, double moe_share);
void resolve_host(const struct scenario *sc, const struct sc_cluster *cl, struct sim_config *cfg);
/* One MoE layer's all-to-all (a dispatch or a combine) of one micro-batch on
 * a GPU of `in` with group g's links resolved, s; 0 without expert
 * parallelism.  resolve_ep_waits: a micro-batch's waits for them over all
 * the MoE layers, forward and backward. */
/* The flex dispatchers' NVLink rate over NCCL's all-to-all's there (1 for
 * NCCL's own and on AMD's GPUs). */
double resolve_ep_nvl_share(const struct scenario *sc, const struct cat_instance *in);
double resolve_ep_alltoall_s(const struct scenario *sc, const struct cat_instance *in,
                             const struct sim_group *g);
void resolve_ep_waits(const struct scenario *sc, const struct cat_instance *in,
                      const struct sim_group *g, double *fwd_s, double *bwd_s);
/* One of a MoE layer's expert tensor-parallel gathers or reduce-scatters
 * of one micro-batch (etp > 1 under expert parallelism), s; 0 otherwise.
 * resolve_ep_waits counts two forward and two backward a MoE layer. */
double resolve_ep_etp_gather_s(const struct scenario *sc, const struct cat_instance *in,
                               const struct sim_group *g);
/* Under the allgather dispatcher (parallel.ep_dispatch allgather, ep > 1),
 * the bytes of one micro-batch's tokens gathered to a rank of the expert
 * group (etp x ep ranks' tokens); 0 otherwise. */
double resolve_ep_gathered_bytes(const struct scenario *sc);
/* Under HybridEP or DeepEP (parallel.ep_dispatch hybridep, deepep; ep > 1),
 * the bytes of the buffers they register that a rank of `in` holds, from
 * their own allocators, outside PyTorch's; 0 otherwise. */
double resolve_ep_registered_bytes(const struct scenario *sc, const struct cat_instance *in);
/* What `bytes` of the routed experts' gradients take on their expert-data-
 * parallel group's all-reduce over what the data-parallel group's would,
 * each on its own ranks a node and their NICs, as NCCL would run them
 * (resolve_ep.c), under `strategy` auto; -1 where not so timed. */
double resolve_ep_grad_scale(const struct scenario *sc, const struct sim_config *cfg,
                             int strategy, int k, double bytes);
/* Whether parallel.ep's group spans nodes of `in` (its ranks etp apart). */
int resolve_ep_spans_nodes(const struct scenario *sc, const struct cat_instance *in);
/* Of n micro-batches' waits of wait_s each beside compute_s of compute
 * each, what the step waits: all of them, or under parallel.ep_overlap the
 * first's, and of each other's what RESOLVE_EP_HIDDEN of the shorter of the
 * two leaves (resolve_ep.c). */
#define RESOLVE_EP_HIDDEN 0.56     /* resolve_ep.c: from a published on-off pair */
/* Of the shorter of a micro-batch's all-to-all waits and the compute beside
 * them, the share hidden: RESOLVE_EP_HIDDEN under parallel.ep_overlap, all
 * of it under DualPipe (its report: "fully hidden"), none otherwise. */
double resolve_ep_hidden(const struct scenario *sc);
/* How much slower compute runs on a GPU of sms SMs while a dispatcher holds
 * held of them: sms / (sms - held), 1 where none are held. */
double resolve_ep_sm_factor(int sms, int held);
/* The SMs the dispatcher's kernels hold beside compute: parallel.ep_sms, or
 * the dispatcher's default. */
int resolve_ep_sms_held(const struct scenario *sc);
double resolve_ep_exposed(const struct scenario *sc, double wait_s, double compute_s, int n);

/* The pipeline fields of cfg for the cluster's k GPUs (sim/pp.c), after
 * resolve_tp. */
void resolve_pp(const struct scenario *sc, const struct sc_cluster *cl, int k,
                struct sim_config *cfg);

/* Each train group's comm_slowdown in cfg (interfere.c), once its
 * strategy and groups are resolved. */
void resolve_interference(const struct scenario *sc, const struct sc_cluster *cl,
                          struct sim_config *cfg);

/* The profile that gives `in`'s vCPU speed: its own, else one of another
 * instance type with the same processor (cat_instance.cpu_model; *shared
 * 1), or NULL (resolve_profile.c). */
const struct prof_measured *resolve_profile_cpu_of(const struct scenario *sc,
                                                   const struct cat_instance *in, int *shared);

/* Seconds an optimizer step on a GPU of `in` spends beyond its update's
 * memory traffic, walking the model's parameter tensors as
 * workload.optimizer_loop says (resolve_opt.c); 0 on a CPU node or for a
 * model without its operations laid out. */
double resolve_opt_loop_s(const struct scenario *sc, const struct cat_instance *in);

/* The optimizer bytes a parameter when workload.optimizer_bytes_per_param
 * is not given: fp32 weight, gradient and two Adam moments (assumed). */
#define RESOLVE_OPT_BYTES 16.0

/* One optimizer step of the whole model on one GPU g, as the simulator
 * charges it: the update's bytes over g's memory bandwidth and the walk
 * above at the reference launch time (dtplan compute --optimizer). */
double resolve_opt_step_s(const struct scenario *sc, const struct cat_gpu *g);

/* The calibration profile measured on instance type `in`, or NULL
 * (resolve_profile.c). */
const struct prof_measured *resolve_profile_of(const struct scenario *sc,
                                               const struct cat_instance *in);

#endif
