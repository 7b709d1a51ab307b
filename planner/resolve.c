/*
 * resolve.c - from a scenario cluster to plain simulator input.
 *
 * This is where nominal catalog numbers become effective ones, each with its
 * derivation in docs/model.md:
 *   - NIC: 96% of line rate (NCCL maintainers: ~12 GB/s per 100 Gbit/s NIC,
 *     nccl-tests#119);
 *   - NVLink/NVSwitch: 80% of the per-direction line rate (~20% protocol
 *     overhead, nccl-tests#212: 370 of 450 GB/s on H100; ~230 of 300 on A100,
 *     nccl-tests#149);
 *   - PCIe between GPUs and host to device: 75% of nominal (NCCL's PCI_BW is
 *     12 GB/s for a 16 GB/s Gen3 x16 link, src/graph/topo.h);
 *   - latencies per hop from NCCL's tuning model (tuning.cc hwLatencies,
 *     Simple protocol): NVLink 3.4 us, PCIe 5.7 us, network 14 us with
 *     RDMA; plain TCP is assumed at 50 us;
 *   - compute: 3 x forward FLOPs x batch / (dense peak x achieved fraction),
 *     or a measured compute time scaled by batch and by the ratio of peaks;
 *     backward is two thirds of it;
 *   - optimizer: bytes touched per parameter / device memory bandwidth;
 *   - embedding tables with sparse gradients (models.csv sparse_params): a
 *     worker sends only the rows its batch touched; parameter servers take
 *     them as they are, all-reduce strategies exchange them as an
 *     all-gather, never more than the dense table (sparse_grads()).
 */
#include "planner.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "resolve.h"
#include "cluster.h"
#include "compute.h"
#include "offload.h"
#include "../catalog/shape.h"
#include "../sim/nccl.h"

#define NIC_EFF 0.96
#define PCIE_EFF NCCL_PCI_EFF
#define ALPHA_NVLINK 3.4e-6
#define ALPHA_PCIE 5.7e-6
#define ALPHA_RDMA 14e-6
#define ALPHA_TCP 50e-6
/* aws-ofi-nccl's latency on p4d and p5 (aws/aws-ofi-nccl@2daf7d30 src/platform-aws.cpp) */
#define EFA_PLUGIN_LAT_S 75e-6
#define DEFAULT_MFU 0.35
#define DEFAULT_OPT_BYTES RESOLVE_OPT_BYTES
/* Parameter-server summation, fp32 adds streaming from memory: 4 GB/s per core. */
#define PS_REDUCE_S_PER_BYTE 0.25e-9

/* ------------------------------------------------- calibration profiles */

/* vCPUs whose per-core speed the profile's USL fit is evaluated at: those
 * the group preprocesses with, at most the calibrated machine's cores. */
static double profile_cpu_n(const struct prof_measured *m, const struct sim_group *g)
{
    double n = g->loader_vcpus >= 1 ? g->loader_vcpus : g->vcpus;
    if (m->cpu_cores > 0 && n > m->cpu_cores)
        n = m->cpu_cores;
    return n;
}

/* The best GEMM rates a profile measured on in's GPU, NULL when none (or
 * when the compute time was measured on this very GPU). */
static const double *profile_rates(const struct scenario *sc, const struct cat_instance *in)
{
    const struct prof_measured *m = resolve_profile_of(sc, in);

    if (!m || in->gpu_count <= 0 || !in->gpu)
        return NULL;
    if (!isnan(sc->workload.measured_compute_s) && in->gpu == sc->workload.measured_gpu)
        return NULL;
    return m->gemm_tflops;
}

/* The GEMM rate measured at the scenario's precision, NAN when none. */
static double profile_gemm(const struct scenario *sc, const struct cat_instance *in)
{
    const double *r = profile_rates(sc, in);

    return r ? r[sc->workload.precision] : NAN;
}

/* The network link a profile gives a strategy: parameter servers' one-way
 * streams from a push/pull fit when there is one, else the collectives'. */
static int profile_ps_link(const struct prof_measured *m, int is_ps)
{
    return is_ps && m->net_ps_Bps > 0;
}

/*
 * Measured values override nominal ones (docs/profile.md): vCPU speed from
 * the built-in pipeline's USL fit, the GEMM rate as the GPU's peak (compute
 * time scales by nominal peak / measured rate; mfu still applies), network
 * and GPU-link latency and bandwidth from the collectives' alpha-beta fits
 * (a push/pull fit for the parameter-server strategies).
 */
static void apply_profile(const struct scenario *sc, const struct sc_group *sg, struct sim_group *g,
                          int is_ps)
{
    int shared;
    const struct prof_measured *m = resolve_profile_cpu_of(sc, sg->inst, &shared);
    double v;

    if (!m)
        return;
    v = profile_cpu_speed(m, profile_cpu_n(m, g));
    if (v > 0)
        g->core_speed = v;
    if (shared)
        return;     /* another type's profile: its processor's speed only */
    v = profile_gemm(sc, sg->inst);
    if (v > 0 && g->gpus > 0 && !isnan(sc->workload.mfu) && isnan(sc->workload.measured_compute_s)) {
        double peak = resolve_peak_flops(sg->inst, sc->workload.precision, 0);
        if (peak > 0) {
            g->fwd_s *= peak / (v * 1e12);
            g->bwd_s *= peak / (v * 1e12);
            g->layer_wait_s *= peak / (v * 1e12);
        }
    }
    if (m->intra_Bps > 0 && g->gpus > 1) {
        g->intra_Bps = m->intra_Bps;
        g->intra_alpha_s = m->intra_alpha_s;
    }
    /* the all-reduce measured, for strategy auto on its own shape: the
     * network's where the group spans nodes, the GPU links' on one */
    {
        const struct prof_fit *f = g->count > 1 ? &m->net_ar : &m->intra_ar;
        if (f->beta_s > 0 && g->gpus > 0) {
            g->coll_alpha_s = f->alpha_s;
            g->coll_beta_s = f->beta_s;
            g->coll_ranks = f->ranks;
            g->coll_nodes = f->hosts;
        }
    }
    if (profile_ps_link(m, is_ps) && g->nic_Bps > 0) {
        g->nic_Bps = m->net_ps_Bps;
        g->net_alpha_s = m->net_ps_alpha_s;
    } else if (m->net_Bps > 0 && g->nic_Bps > 0) {
        g->nic_Bps = m->net_Bps;
        g->net_alpha_s = m->net_alpha_s;
        /* the intercept less the host-link hops of the layout measured,
         * over its network hops: the measured layout predicted again
         * gives the intercept back (docs/profile.md) */
        if (m->net_hops > 0 && !isnan(m->net_fit_alpha_s))
            g->net_alpha_s = fmax(0, (m->net_fit_alpha_s - m->intra_hops * g->intra_alpha_s) /
                                         m->net_hops);
    }
}

static void measured_add(struct plan_measured *out, int max, int *n, const char *inst,
                         const char *what, double value, const char *unit, const char *path,
                         const char *detail, int poor_fit)
{
    struct plan_measured *x;

    for (int i = 0; i < *n; i++)
        if (!strcmp(out[i].instance, inst) && !strcmp(out[i].what, what))
            return; /* one line per instance type */
    if (*n >= max)
        return;
    x = &out[(*n)++];
    snprintf(x->instance, sizeof x->instance, "%s", inst);
    snprintf(x->what, sizeof x->what, "%s", what);
    x->value = value;
    snprintf(x->unit, sizeof x->unit, "%s", unit);
    snprintf(x->profile, sizeof x->profile, "%s", path);
    snprintf(x->detail, sizeof x->detail, "%s", detail);
    x->poor_fit = poor_fit;
}

int plan_measured(const struct scenario *sc, const struct sc_cluster *cl,
                  const struct sim_config *cfg, struct plan_measured *out, int max)
{
    int n = 0, is_ps = sim_is_ps(cfg->c.strategy);

    for (int i = 0; i < cl->ngroups && i < cfg->ngroups; i++) {
        const struct cat_instance *in = cl->groups[i].inst;
        const struct sim_group *g = &cfg->groups[i];
        const struct prof_measured *m = resolve_profile_of(sc, in);
        char what[32], detail[96];

        if (!m)
            continue;
        if (profile_cpu_speed(m, profile_cpu_n(m, g)) > 0) {
            snprintf(detail, sizeof detail, "builtin-image USL fit (%s) at %g vCPUs",
                     m->cpu_quality, profile_cpu_n(m, g));
            measured_add(out, max, &n, in->name, "cpu_speed", g->core_speed, "x reference core",
                         m->path, detail, strcmp(m->cpu_quality, "good") != 0);
        }
        if (profile_gemm(sc, in) > 0 && g->gpus > 0) {
            snprintf(what, sizeof what, "gemm_%s_tflops", catalog_prec_name(sc->workload.precision));
            measured_add(out, max, &n, in->name, what, profile_gemm(sc, in), "TFLOP/s", m->path,
                         "best cuBLAS GEMM", 0);
        }
        if ((m->net_Bps > 0 || profile_ps_link(m, is_ps)) && g->nic_Bps > 0) {
            const char *from = profile_ps_link(m, is_ps) ? m->net_ps_from : m->net_from;
            measured_add(out, max, &n, in->name, "nic_gbytes_s", g->nic_Bps / 1e9, "GB/s", m->path,
                         from, 0);
            measured_add(out, max, &n, in->name, "net_alpha_us", g->net_alpha_s * 1e6, "us",
                         m->path, from, 0);
        }
        if (g->role == SIM_PS && cfg->c.ps_first_pull > 0 && m->ps_first_pull_frac > 0)
            measured_add(out, max, &n, in->name, "ps_first_pull_frac", cfg->c.ps_first_pull,
                         "of the pull", m->path, "pull_overlap of the push/pull", 0);
        if (m->unused[0])
            measured_add(out, max, &n, in->name, "not_used", NAN, "", m->path, m->unused, 0);
        if (m->intra_Bps > 0 && g->gpus > 1) {
            measured_add(out, max, &n, in->name, "gpu_link_gbytes_s", g->intra_Bps / 1e9, "GB/s",
                         m->path, m->intra_from, 0);
            measured_add(out, max, &n, in->name, "gpu_link_alpha_us", g->intra_alpha_s * 1e6, "us",
                         m->path, m->intra_from, 0);
        }
    }
    return n;
}

/*
 * A profile's link, read at the message size this workload sends per hop:
 * a mean bucket (the gradient bytes over the buckets) cut into one message
 * per rank of a ring or per server of a PS.  A fitted line averages over
 * sizes; a link whose rate moves with size (a shaped link's queue, a
 * CPU-bound transport) is best read where the workload is
 * (profile_link_at, docs/profile.md).
 */
static void link_at_message_size(const struct scenario *sc, const struct sc_cluster *cl, int k,
                                 int is_ps, struct sim_config *cfg)
{
    double grad = cfg->w.grad_bytes, nb, msg;

    if (!(grad > 0) || !(cfg->c.bucket_bytes > 0))
        return;
    nb = sim_bucket_count(&cfg->c, grad);
    msg = grad / nb / (is_ps ? (cfg->c.ps_servers > 0 ? cfg->c.ps_servers : 1) : (k > 1 ? k : 1));
    for (int i = 0; i < cl->ngroups && i < cfg->ngroups; i++) {
        const struct cat_instance *in = cl->groups[i].inst;
        const struct prof_measured *m = resolve_profile_of(sc, in);
        struct sim_group *g = &cfg->groups[i];
        double line = in->net_gbps > 0 ? in->net_gbps * 1e9 / 8 * NIC_EFF : 0;
        if (!m || !(g->nic_Bps > 0))
            continue;
        if (profile_ps_link(m, is_ps))
            g->nic_Bps = profile_link_at(&m->ps_curve, msg, g->nic_Bps, line);
        else if (m->net_Bps > 0)
            g->nic_Bps = profile_link_at(&m->net_curve, msg, g->nic_Bps, line);
    }
}

/* -------------------------------------------------------------- resolve */

static int wpn_of(const struct cat_instance *in)
{
    return in->gpu_count > 0 ? in->gpu_count : 1;
}

double resolve_vcpu_speed(const struct cat_instance *in)
{
    if (!isnan(in->cpu_speed))
        return in->cpu_speed;
    if (!isnan(in->cpu_ghz))
        return in->cpu_ghz / CAT_REF_CPU_GHZ;
    return 1.0;
}

double resolve_cpu_s_per_sample(const struct scenario *sc, const struct resolve_opts *o)
{
    if (o && !isnan(o->cpu_s_per_sample))
        return o->cpu_s_per_sample;
    if (sc->input.cpu_measured_on)
        return sc->input.cpu_s_per_sample * resolve_vcpu_speed(sc->input.cpu_measured_on);
    return sc->input.cpu_s_per_sample;
}

/* The measured pass as the model has it: the measured model (the
 * workload's, or measured_compute.model at its own sequence) at the measured
 * batch on the measured GPU, alone (tensor parallelism off, as one GPU was
 * measured), recomputing what the measured run recomputed; the rest of the
 * workload as it is. */
static int measured_ref(const struct scenario *sc, struct compute_plan *p, struct compute_time *ref)
{
    struct scenario *x = x_malloc(sizeof *x);
    int rc;

    *x = *sc;
    if (sc->workload.measured_model && sc->workload.measured_model != sc->workload.model) {
        x->workload.model = sc->workload.measured_model;
        x->workload.seq_len = 0;
    }
    x->parallel.tp = 1;
    x->parallel.cp = 1;
    x->parallel.sequence_parallel = 0;
    x->parallel.recompute = sc->workload.measured_recompute;
    rc = compute_on_gpu(x, sc->workload.measured_gpu, NULL, sc->workload.measured_batch, p, ref);
    x_free(x);
    return rc;
}

/* The operation-level model of a GPU worker (compute.h): one pass per
 * micro-batch; a compute time measured on one GPU fixes the model's scale
 * there and carries to the others through the model, never a peak ratio. */
static int gpu_compute_time(const struct scenario *sc, const struct cat_instance *in,
                            double *out, double *bwd_frac, double *attn, struct dt_err *e)
{
    struct compute_plan p;
    struct compute_time t, ref;

    if (compute_on_gpu(sc, in->gpu, profile_rates(sc, in), sc->parallel.micro_batch, &p, &t))
        return dt_errf(e, "%s: the catalog gives %s no peak FLOP/s for %s; give "
                       "workload.measured_compute or another precision", in->name, in->gpu->name,
                       scenario_prec_name(scenario_prec_index(sc)));
    *out = (t.fwd_s + t.bwd_s) * sc->workload.grad_accum;
    *bwd_frac = t.bwd_s / (t.fwd_s + t.bwd_s);
    attn[0] = t.core_fwd_s;
    attn[1] = fmax(0, t.kind_s[OPS_ATTN] - t.core_fwd_s);
    if (isnan(sc->workload.measured_compute_s))
        return 0;
    if (measured_ref(sc, &p, &ref)) {
        if (sc->workload.measured_model && sc->workload.measured_model != sc->workload.model)
            return dt_errf(e, "%s: cannot carry the compute time measured on %s from %s: no "
                           "peak FLOP/s for %s in the catalog", in->name, sc->workload.measured_model->name,
                           sc->workload.measured_gpu->name, scenario_prec_name(scenario_prec_index(sc)));
        return dt_errf(e, "%s: cannot carry the measured compute time from %s: no peak "
                       "FLOP/s for %s in the catalog", in->name, sc->workload.measured_gpu->name,
                       scenario_prec_name(scenario_prec_index(sc)));
    }
    *out *= sc->workload.measured_compute_s / (ref.fwd_s + ref.bwd_s);
    attn[0] *= sc->workload.measured_compute_s / (ref.fwd_s + ref.bwd_s);
    attn[1] *= sc->workload.measured_compute_s / (ref.fwd_s + ref.bwd_s);
    return 0;
}

/* fwd+bwd seconds of one worker per step on instance `in`: the GPU model,
 * or for a CPU worker (and when workload.mfu overrides it) forward FLOPs
 * x 3 over the peak times the achieved fraction, backward two thirds of
 * it.  *bwd_frac (may be NULL): backward's share.  attn (may be NULL): the
 * attention core's forward and backward seconds of one micro-batch, at the
 * same scale (0 without the GPU model). */
static int compute_time(const struct scenario *sc, const struct cat_instance *in, double vcpus,
                        const struct resolve_opts *o, double *out, double *bwd_frac,
                        double *attn, struct dt_err *e)
{
    double frac = 2.0 / 3, a[2] = {0, 0};
    double batch = (double)sc->parallel.micro_batch * sc->workload.grad_accum;
    double peak = resolve_peak_flops(in, sc->workload.precision, vcpus);
    double t, mfu = isnan(sc->workload.mfu) ? DEFAULT_MFU : sc->workload.mfu, gflops = scenario_fwd_gflops(sc);

    if (in->gpu_count > 0 && in->gpu && (isnan(sc->workload.mfu) || !isnan(sc->workload.measured_compute_s))) {
        if (gpu_compute_time(sc, in, &t, &frac, a, e))
            return -1;
    } else if (!isnan(sc->workload.measured_compute_s)) {
        return dt_errf(e, "%s: a compute time measured on a GPU does not carry to a CPU "
                       "worker; give workload.mfu instead", in->name);
    } else {
        if (isnan(gflops) && o->unit_flops)
            gflops = 1;     /* the solved compute_scale carries the model's own */
        if (isnan(gflops))
            return dt_errf(e, "model %s: forward FLOPs unknown; give the model's fwd_gflops "
                           "(catalog.models), %s", sc->workload.model->name,
                           in->gpu_count > 0 ? "or workload.measured_compute on a GPU"
                                             : "or workload.measured_step on this cluster "
                                               "with solve_for: compute");
        if (!(peak > 0))
            return dt_errf(e, "%s: peak %s FLOP/s of %s unknown in the catalog; give "
                           "workload.measured_compute or define the GPU", in->name,
                           catalog_prec_name(sc->workload.precision), in->gpu_model);
        t = 3.0 * gflops * 1e9 * batch / (peak * mfu);
    }
    *out = t * o->compute_scale;
    if (bwd_frac)
        *bwd_frac = frac;
    if (attn) {
        attn[0] = a[0] * o->compute_scale;
        attn[1] = a[1] * o->compute_scale;
    }
    return 0;
}

/*
 * Parameters a worker's gradient carries per step (exchanged) and those its
 * optimizer updates (updated), given k workers in all and the strategy.
 * Dense models: both are params.  With sparse tables of P_s parameters of
 * which one batch touches T = min(P_s, batch x sparse_bytes_per_sample / 4):
 *   parameter server: exchanged = dense + T (push and pull the touched rows);
 *   all-reduce family: the rows are all-gathered, (k-1)T per worker, which is
 *     what a ring all-reduce of kT/2 moves (2(k-1)/k x kT/2), so
 *     exchanged = dense + min(P_s, kT/2);
 *   updated = dense + min(P_s, kT) (a sparse optimizer touches only rows
 *     some worker used; PS: the server applies them, counted on the worker).
 * Repeated ids within a batch are not merged: T is an upper bound.
 */
static void sparse_grads(const struct cat_model *m, double batch, int k, int ps,
                         double *exchanged, double *updated)
{
    double sp = m->sparse_params, bps = m->sparse_bytes_per_sample, dense, t;

    if (!(sp > 0) || isnan(bps)) {
        *exchanged = *updated = m->params;
        return;
    }
    dense = m->params - sp;
    t = fmin(sp, batch * bps / 4.0);
    *exchanged = dense + (ps ? t : fmin(sp, k * t / 2.0));
    *updated = dense + fmin(sp, (ps ? 1 : k) * t);
}

/* The network between a type's nodes as NCCL runs over it (catalog/
 * fabric.h); a type that says only "EFA" (no fabric) as aws-ofi-nccl
 * treats p4d and p5: latency 75 us, Simple only. */
static void resolve_fabric(const struct cat_instance *in, struct sim_group *g)
{
    const struct cat_fabric *f = in->fabric;

    g->net_plugin_lat_s = g->net_hop_s = g->net_simple_s = 0;
    g->net_step_s[0] = g->net_step_s[1] = 0;
    g->net_a2a = (struct nccl_a2a_net){0, 0, 0};
    g->net_protos = g->net_ring_only = g->net_tuner = g->net_collnet = 0;
    g->net_collnet_eff = 0;
    g->net_buff_bytes = g->net_nvls_chunk_bytes = g->net_nvls_tree_max_bytes = 0;
    if (!f) {
        if (in->aws_efa) {
            g->net_plugin_lat_s = EFA_PLUGIN_LAT_S;
            g->net_protos = 1 << NCCL_SIMPLE;
        }
        return;
    }
    g->net_plugin_lat_s = f->plugin_lat_us * 1e-6;
    if (f->hop_us > 0) {
        g->net_hop_s = f->hop_us * 1e-6;
        g->net_simple_s = f->simple_us * 1e-6;
    }
    g->net_step_s[0] = f->step_us[0] * 1e-6;
    g->net_step_s[1] = f->step_us[1] * 1e-6;
    g->net_a2a = (struct nccl_a2a_net){f->a2a_eff, f->a2a_call_us * 1e-6, f->a2a_peer_us * 1e-6};
    g->net_protos = (f->protocols & CAT_PROTO_LL ? 1 << NCCL_LL : 0) |
                    (f->protocols & CAT_PROTO_LL128 ? 1 << NCCL_LL128 : 0) |
                    (f->protocols & CAT_PROTO_SIMPLE ? 1 << NCCL_SIMPLE : 0);
    g->net_ring_only = f->ring_only;
    g->net_collnet = f->collnet;
    g->net_collnet_eff = f->collnet_eff;
    g->net_buff_bytes = f->buff_kib * 1024.0;
    g->net_nvls_chunk_bytes = f->nvls_chunk_kib * 1024.0;
    g->net_nvls_tree_max_bytes = f->nvls_tree_max_kib * 1024.0;
    /* a name the simulator does not know is a catalog fault (test_resolve) */
    g->net_tuner = f->tuner ? (int)fmax(0, nccl_tuner_by_name(f->tuner)) : 0;
}

/*
 * A node's links: the NIC, and for GPU nodes PCIe and the GPU-to-GPU link,
 * at the achieved fractions of nominal (docs/model.md; NVLink at the rate
 * NCCL counts per link, sim/nccl.h).  networked: the node talks over the
 * network.  g->gpus is set.
 */
static int resolve_links(const struct cat_instance *in, int networked, struct sim_group *g,
                         struct dt_err *e)
{
    if (isnan(in->net_gbps)) {
        if (networked)
            return dt_errf(e, "%s: network bandwidth unknown in the catalog; "
                           "define network_gbps inline", in->name);
        g->nic_Bps = 0;
    } else {
        g->nic_Bps = in->net_gbps * 1e9 / 8 * NIC_EFF;
    }
    g->net_alpha_s = in->efa == 1 ? ALPHA_RDMA : ALPHA_TCP;
    if (g->gpus > 0) {
        const struct cat_gpu *gpu = in->gpu;
        if (!gpu)
            return dt_errf(e, "%s: GPU %s not in the catalog", in->name, in->gpu_model);
        g->pcie_Bps = isnan(gpu->pcie_gbs_dir) ? 0 : gpu->pcie_gbs_dir * 1e9 * PCIE_EFF;
        g->gpu_cc = gpu->cc;
        g->gpu_cdna = gpu->cdna;
        g->nics = in->nics > 0 ? in->nics : 1;
        g->cpu_amd = in->cpu_amd;
        resolve_fabric(in, g);
        if (g->gpus > 1) {
            int nvl = (in->link == CAT_LINK_NVLINK || in->link == CAT_LINK_NVSWITCH) &&
                      gpu->nvlink_gbs_dir > 0;
            g->link = !nvl ? SIM_LINK_PCIE
                      : in->link == CAT_LINK_NVSWITCH ? SIM_LINK_NVSWITCH : SIM_LINK_NVLINK;
            g->intra_Bps = !nvl ? g->pcie_Bps
                           : gpu->nvlink_gbs_dir * 1e9 *
                                 (gpu->cdna > 0 ? rccl_link_eff(gpu->cdna) : nccl_link_eff(gpu->cc));
            g->intra_alpha_s = nvl ? ALPHA_NVLINK : ALPHA_PCIE;
            if (!(g->intra_Bps > 0))
                return dt_errf(e, "%s: GPU-to-GPU bandwidth unknown", in->name);
        }
    }
    return 0;
}

/* What a group's nodes are: vCPUs and their speed, the price and the links. */
static int resolve_hardware(const struct sc_group *sg, int networked, struct sim_group *g,
                            struct dt_err *e)
{
    const struct cat_instance *in = sg->inst;

    g->vcpus = in->vcpus;
    g->core_speed = resolve_vcpu_speed(in);
    g->price_usd_h = sg->spot ? in->spot_usd_h : in->price_usd_h;
    if (isnan(g->price_usd_h))
        return dt_errf(e, "%s: %s price unknown in the catalog", in->name,
                       sg->spot ? "spot" : "on-demand");
    return resolve_links(in, networked, g, e);
}

int plan_nccl_shape(const struct cat_instance *in, int nodes, struct nccl_shape *sh,
                    struct dt_err *e)
{
    struct sim_config cfg;
    struct cat_instance part;

    in = catalog_domain_node(in, nodes, &part, &nodes);     /* as resolve_domain_nodes */
    memset(&cfg, 0, sizeof cfg);
    cfg.ngroups = 1;
    cfg.groups[0].role = SIM_TRAIN;
    cfg.groups[0].count = nodes;
    cfg.groups[0].gpus = in->gpu_count;
    if (in->gpu_count < 1)
        return dt_errf(e, "%s: no GPU", in->name);
    if (resolve_links(in, nodes > 1, &cfg.groups[0], e) != 0)
        return -1;
    return sim_nccl_shape(&cfg, sh);
}

/*
 * A train group's compute and loader: forward and backward as the compute
 * model splits them (two thirds backward without one), the optimizer as the update's memory
 * traffic (update_bytes) over device memory bandwidth, and the vCPUs the
 * input pipeline may use (all but the reserved ones; on a CPU node, those
 * the compute does not take).
 */
static int resolve_train(const struct scenario *sc, const struct cat_instance *in,
                         const struct resolve_opts *o, double update_bytes, struct sim_group *g,
                         struct dt_err *e)
{
    double t = 0, frac = 2.0 / 3, reserved = (double)sc->input.reserved_vcpus_per_gpu * wpn_of(in);
    double attn[2] = {0, 0};
    int n = sc->workload.grad_accum > 0 ? sc->workload.grad_accum : 1;
    double cvcpus = in->vcpus; /* vCPUs a CPU train node computes with */
    g->loader_vcpus = in->vcpus - reserved;
    if (g->loader_vcpus < 0)
        g->loader_vcpus = 0;
    if (sc->input.loader_workers == 0 && g->loader_vcpus < 1 && in->vcpus >= 1)
        g->loader_vcpus = 1;    /* inline: the training process's own vCPU loads */
    if (in->gpu_count == 0) {
        /* CPU training: the loader's workers take their vCPUs from
         * the compute (docs/model.md).  auto splits the vCPUs so
         * that loading and computing a batch take the same time, as
         * an autotuned input pipeline settles: L = V c / (c + x),
         * c and x the vCPU-seconds per batch of each. */
        int lw = sc->input.loader_workers;
        if (lw == 0) {
            /* inline (PyTorch's num_workers=0): the training process loads
             * each batch, then computes it, on the same vCPUs; resolve_cluster
             * makes it one loader without prefetch, so the two never overlap */
            g->loader_vcpus = in->vcpus;
        } else {
            if (lw < 0) {
                double cps = resolve_cpu_s_per_sample(sc, o);
                double c = cps * sc->parallel.micro_batch * sc->workload.grad_accum / g->core_speed, x = 0;
                if (compute_time(sc, in, 1, o, &x, NULL, NULL, e))
                    return -1;
                lw = c + x > 0 ? (int)lround(in->vcpus * c / (c + x)) : (in->vcpus + 3) / 4;
                if (lw < 1)
                    lw = 1;
            }
            if (lw >= in->vcpus)
                lw = in->vcpus - 1;
            g->loader_vcpus = lw;
            cvcpus = in->vcpus - lw;
        }
    }
    if (compute_time(sc, in, cvcpus, o, &t, &frac, attn, e))
        return -1;
    g->fwd_s = t * (1 - frac);
    g->bwd_s = t * frac;
    if (sc->workload.offload_layers > 0 && in->gpu && in->gpu->pcie_gbs_dir > 0) {
        /* each micro-batch's waits for its offloaded activations */
        double wf, wb;
        offload_of(sc, g->fwd_s / n, g->bwd_s / n, in->gpu->pcie_gbs_dir * 1e9 * PCIE_EFF, &wf, &wb);
        g->fwd_s += n * wf;
        g->bwd_s += n * wb;
        g->layer_wait_s += n * (wf + wb);
    }
    if (sc->parallel.cp > 1) {
        /* each micro-batch's waits for ring attention's keys and values */
        double wf, wb;
        resolve_cp_waits(sc, in, g, attn, &wf, &wb);
        g->fwd_s += n * wf;
        g->bwd_s += n * wb;
        g->layer_wait_s += n * (wf + wb);
    }
    if (in->gpu_count > 0)
        g->opt_s = in->gpu && in->gpu->mem_bw_gbs > 0
                       ? update_bytes / (in->gpu->mem_bw_gbs * 1e9) : 0;
    else
        g->opt_s = update_bytes / 20e9; /* assumed 20 GB/s host memory */
    return 0;
}

/* The gradient sharing of cl: strategy, buckets, the background cycle and
 * the parameter servers (their count, order and calibrated pull overlap). */
static void resolve_comm(const struct scenario *sc, const struct sc_cluster *cl,
                         const struct sc_comm *comm, int k, struct sim_config *cfg)
{
    int is_ps = sim_is_ps(comm->strategy);

    cfg->c.strategy = comm->strategy;
    cfg->c.bucket_bytes = scenario_bucket_bytes(sc, comm->bucket_bytes, k);
    cfg->c.bucket_list = sc->gradients.nbucket_list > 0 ? sc->gradients.bucket_list : NULL;
    cfg->c.nbucket_list = sc->gradients.nbucket_list;
    cfg->c.overlap = sc->gradients.overlap;
    /* Horovod's background loop runs the all-reduce family; servers are not
     * driven by it (docs/scenario.md). */
    cfg->c.cycle_s = is_ps ? 0 : sc->gradients.cycle_ms / 1000;
    cfg->c.ps_dedicated = is_ps && comm->ps_place == SC_PS_DEDICATED;
    cfg->c.ps_servers = comm->ps_count;
    cfg->c.ps_serial = !sc->gradients.ps_pipeline;
    /* In turn is modelled for synchronous dedicated servers; the planner's
     * other candidates (asynchronous, colocated) keep servers that take every
     * push at once (docs/scenario.md). */
    cfg->c.ps_in_turn = sc->gradients.ps_receive == SC_PS_IN_TURN && cfg->c.strategy == SIM_PS_SYNC &&
                        cfg->c.ps_dedicated;
    if (cfg->c.ps_dedicated)
        for (int i = 0; i < cl->ngroups; i++) {
            const struct prof_measured *m;
            if (cl->groups[i].role != SIM_PS)
                continue;
            m = resolve_profile_of(sc, cl->groups[i].inst);
            if (cl->groups[i].count > cfg->c.ps_servers)
                cfg->c.ps_servers = cl->groups[i].count;
            /* How unevenly the servers' pulls end, as calibrated on the
             * servers' instance type: a synchronous step waits for the first. */
            if (m && m->ps_first_pull_frac > 0 && cfg->c.strategy == SIM_PS_SYNC)
                cfg->c.ps_first_pull = m->ps_first_pull_frac;
        }
}

/* Sharded data parallelism (sim.h, enum sim_shard): the stage, and what
 * is gathered: the parameters at the compute precision's width, in units of
 * one layer of a shaped model (FSDP wraps each transformer block), else of
 * one gradient bucket's size (a size-based wrapping). */
static void resolve_shard(const struct scenario *sc, int k, struct sim_config *cfg)
{
    const struct cat_model *m = sc->workload.model;
    int wide = sc->workload.precision == CAT_FP32 || sc->workload.precision == CAT_TF32 || sc->workload.precision_strict;
    double units;

    cfg->c.shard = sc->parallel.sharding == SC_SHARD_NONE || k <= 1 ? SIM_SHARD_NONE
                   : sc->parallel.sharding == SC_SHARD_ZERO1 ? SIM_SHARD_OPT
                   : sc->parallel.sharding == SC_SHARD_ZERO2 ? SIM_SHARD_OPT_GRAD
                   : sc->parallel.sharding == SC_SHARD_HSDP ? SIM_SHARD_HYBRID : SIM_SHARD_FULL;
    if (sim_is_ps(cfg->c.strategy))
        cfg->c.shard = SIM_SHARD_NONE;
    /* Under a pipeline, FSDP keeps a stage's parameters gathered from its
     * first micro-batch's forward to the step's end (torchtitan's default:
     * pytorch/torchtitan@b5bcd76c torchtitan/distributed/fsdp.py,
     * get_fsdp_reshard_after_forward_policy, "For PP, by default do not
     * reshard after forward to avoid per-microbatch all-gathers") and
     * reduce-scatters its gradients once, after the last: one gather and one
     * reduction of the stage's state a step, what the distributed optimizer
     * moves.  zero2, zero3, fsdp and hsdp run so (docs/model.md). */
    if (sc->parallel.pp > 1 && cfg->c.shard > SIM_SHARD_OPT)
        cfg->c.shard = SIM_SHARD_OPT;
    cfg->c.param_bytes = resolve_state_params(sc) * (wide ? 4.0 : 2.0);
    if (sc->workload.lora_rank > 0 && cfg->c.shard <= SIM_SHARD_OPT)
        /* LoRA: the distributed optimizer gathers the adapters it updated;
         * the frozen weights never move (sharded whole, they do) */
        cfg->c.param_bytes = resolve_lora_params(sc) * (wide ? 4.0 : 2.0);
    units = shape_known(m) ? m->layers : ceil(cfg->w.grad_bytes / cfg->c.bucket_bytes);
    cfg->c.units = units >= 1 ? (units < 1e4 ? (int)units : 10000) : 1;
    cfg->c.micro_batches = sc->workload.grad_accum;
}

/* Ranks each rank's optimizer state is shared with: it updates 1/n of
 * what it holds.  The data-parallel ranks: the GPUs over tp x pp. */
static int shard_ranks(const struct scenario *sc, int k, int local, int is_ps)
{
    int n;

    if (is_ps || sc->parallel.sharding == SC_SHARD_NONE)
        return 1;
    n = (sc->parallel.sharding == SC_SHARD_HSDP ? local : k) / scenario_model_parallel(sc);
    return n > 1 ? n : 1;
}

/* The parameters a rank updates of the `uparams` it holds: the dense ones
 * a shard_ranks-th, the routed experts an expert-data-parallel-th
 * (resolve_expert_dp; at most the dense share's ranks). */
static double updated_params(const struct scenario *sc, double uparams, int k, int local, int is_ps)
{
    int n = shard_ranks(sc, k, local, is_ps), xn;

    if (n <= 1)
        return uparams;
    if (sc->workload.lora_rank > 0)
        return uparams / n;                 /* the adapters, dense */
    xn = resolve_expert_dp(sc, k);
    return resolve_sharded_params(uparams, resolve_expert_state_params(sc), n, xn < n ? xn : n);
}

/* The gradients a rank reduces a step, as parameters of the data-parallel
 * group's reduction: the routed experts' reduce over their own
 * expert-data-parallel group (resolve_expert_dp), counted at what that
 * group's all-reduce of them takes over the data-parallel group's
 * (resolve_ep_grad_scale: its ranks a node and their NICs), none where
 * the experts' group is one rank; without an NCCL shape, at its ring's
 * (n - 1) / n over the data-parallel one's (dp - 1) / dp. */
static double reduced_params(const struct scenario *sc, const struct sim_config *cfg,
                             int strategy, double xparams, int k, double width)
{
    double x = resolve_expert_state_params(sc), dp = (double)k / scenario_model_parallel(sc);
    double xn = resolve_expert_dp(sc, k), f;

    if (!(x > 0) || dp <= 1 || sc->workload.lora_rank > 0)
        return xparams;
    x = x < xparams ? x : xparams;
    f = resolve_ep_grad_scale(sc, cfg, strategy, k, x * width);
    return xparams - x + x * (f >= 0 ? f : ((xn - 1) / xn) / ((dp - 1) / dp));
}

const struct sc_cluster *resolve_domain_nodes(const struct sc_cluster *cl, struct sc_cluster *own,
                                              struct cat_instance part[SC_MAX_GROUPS])
{
    int any = 0;

    for (int i = 0; i < cl->ngroups; i++) {
        const struct sc_group *g = &cl->groups[i];
        int nodes;
        const struct cat_instance *in = g->role == SIM_TRAIN
                                            ? catalog_domain_node(g->inst, g->count, &part[i], &nodes)
                                            : g->inst;
        if (in == g->inst)
            continue;
        if (!any++)
            *own = *cl;
        own->groups[i].inst = in;
        own->groups[i].count = nodes;
    }
    return any ? own : cl;
}

int resolve_cluster(const struct scenario *sc, const struct sc_cluster *cl,
                    const struct resolve_opts *o, struct sim_config *cfg, struct dt_err *e)
{
    double opt_bytes = isnan(sc->workload.optimizer_bytes_per_param) ? DEFAULT_OPT_BYTES
                                                             : sc->workload.optimizer_bytes_per_param;
    struct sc_comm comm;
    struct scenario with_accum;
    int is_ps;
    double xparams, uparams, gw;
    int auto_workers = -1, k = 0;
    struct sc_cluster own;
    struct cat_instance part[SC_MAX_GROUPS];

    cl = resolve_domain_nodes(cl, &own, part);
    {
        char why[320];
        if (!resolve_tp_fits(sc, cl, why, sizeof why) || !resolve_pp_fits(sc, cl, why, sizeof why) ||
            !resolve_cp_fits(sc, cl, why, sizeof why) || !resolve_ep_fits(sc, cl, why, sizeof why))
            return dt_errf(e, "%s", why);
    }
    scenario_cluster_comm(sc, cl, &comm);
    is_ps = sim_is_ps(comm.strategy);
    for (int i = 0; i < cl->ngroups; i++)
        if (cl->groups[i].role == SIM_TRAIN)
            k += cl->groups[i].count * wpn_of(cl->groups[i].inst);
    if (sc->workload.global_batch > 0) {
        /* the accumulation that reaches the global batch on k workers */
        with_accum = *sc;
        with_accum.workload.grad_accum = resolve_accum(sc, k / scenario_replica_gpus(sc));
        sc = &with_accum;
    }
    sparse_grads(sc->workload.model, (double)sc->parallel.micro_batch * sc->workload.grad_accum, k, is_ps, &xparams,
                 &uparams);
    if (sc->parallel.ep > 1) {
        /* a rank reduces and updates its experts / ep of the routed experts */
        xparams *= resolve_state_params(sc) / sc->workload.model->params;
        uparams *= resolve_state_params(sc) / sc->workload.model->params;
    }
    if (sc->workload.lora_rank > 0)
        xparams = uparams = resolve_lora_params(sc);    /* the adapters alone train */

    memset(cfg, 0, sizeof *cfg);
    cfg->ngroups = cl->ngroups;
    for (int i = 0; i < cl->ngroups; i++) {
        const struct sc_group *sg = &cl->groups[i];
        const struct cat_instance *in = sg->inst;
        struct sim_group *g = &cfg->groups[i];
        int networked = cl->ngroups > 1 || sg->count > 1;

        g->role = sg->role;
        g->count = sg->count;
        if (in->vcpus < 0 || in->gpu_count < 0)
            return dt_errf(e, "%s: vCPU or GPU count unknown in the catalog", in->name);
        g->gpus = sg->role == SIM_TRAIN ? in->gpu_count : 0;
        if (resolve_hardware(sg, networked, g, e))
            return -1;
        if (sg->role == SIM_TRAIN) {
            if (resolve_train(sc, in, o,
                              updated_params(sc, uparams, k, wpn_of(in), is_ps) * opt_bytes, g,
                              e))
                return -1;
            if (auto_workers < 0) {
                auto_workers = (int)floor(g->loader_vcpus / wpn_of(in));
                if (in->gpu_count == 0)
                    auto_workers = (int)g->loader_vcpus;
            }
        } else {
            g->loader_vcpus = in->vcpus;
            if (sg->role == SIM_DATA && sc->input.data_workers > 0 && sc->input.data_workers < in->vcpus)
                g->loader_vcpus = sc->input.data_workers;
        }
        apply_profile(sc, sg, g, is_ps);
    }
    if (auto_workers < 1)
        auto_workers = 1;

    cfg->w.batch = (double)sc->parallel.micro_batch * sc->workload.grad_accum;
    cfg->w.accum = sc->workload.grad_accum;
    gw = resolve_grad_width(sc);
    cfg->w.grad_bytes = reduced_params(sc, cfg, comm.strategy, xparams, k, gw) * gw;
    cfg->w.cpu_s_per_sample = resolve_cpu_s_per_sample(sc, o);
    cfg->w.prep_bytes = sc->input.prep_bytes;
    cfg->w.send_cpu_s_per_byte = sc->input.service_send_cpu_s_per_byte;
    cfg->w.recv_cpu_s_per_byte = sc->input.service_recv_cpu_s_per_byte;
    if (sc->input.loader_workers == 0) {
        cfg->w.loader_workers = 1;
        cfg->w.prefetch = 0;
    } else {
        cfg->w.loader_workers = sc->input.loader_workers > 0 ? sc->input.loader_workers : auto_workers;
        cfg->w.prefetch = sc->input.prefetch;
    }
    cfg->w.local_with_data_nodes = sc->input.local_with_data_nodes;
    cfg->w.ps_reduce_s_per_byte = PS_REDUCE_S_PER_BYTE;
    cfg->w.step_overhead_s = sc->workload.step_overhead_s;

    resolve_comm(sc, cl, &comm, k, cfg);
    resolve_shard(sc, k, cfg);
    resolve_tp(sc, cl, cfg);
    for (int i = 0; i < cl->ngroups; i++)   /* after tp: every rank walks every tensor */
        if (cfg->groups[i].role == SIM_TRAIN)
            cfg->groups[i].opt_s += resolve_opt_loop_s(sc, cl->groups[i].inst);
    resolve_cp(sc, cfg);
    resolve_ep(sc, cl, cfg);
    resolve_host(sc, cl, cfg);
    resolve_pp(sc, cl, k, cfg);
    link_at_message_size(sc, cl, k, is_ps, cfg);
    resolve_interference(sc, cl, cfg);
    cfg->fabric_oversub = sc->fabric.oversubscription;
    cfg->steps = sc->simulation.steps;
    cfg->warmup = sc->simulation.warmup;
    cfg->jitter_cv = sc->simulation.jitter_cv;
    cfg->seed = sc->simulation.seed;
    return 0;
}

int plan_resolve(const struct scenario *sc, const struct sc_cluster *cl,
                 struct sim_config *cfg, struct dt_err *e)
{
    struct resolve_opts o = {NAN, 1.0, 0};
    return resolve_cluster(sc, cl, &o, cfg, e);
}
