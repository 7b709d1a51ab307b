/*
 * bound.c - what bounds a simulated step, as enum plan_bound and one line of
 * words (plan_cluster.bound, bound_text; docs/output.md "Bottleneck").
 *
 * Asked (plan_eval_opts.whatif, the default): each resource the step may
 * wait for is made twice as fast in turn and the copy simulated (whatif.h);
 * the step is bound by the one that saves most, and the line says what
 * each of the two best would save.  Not asked (the search's sweep, a
 * layout search's candidates): by what the workers wait for in the one
 * simulation, input or exposed communication when either takes more than
 * 5% of the step, else compute.
 */
#include "planner.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "../base/units.h"
#include "cluster.h"
#include "plan_int.h"
#include "whatif.h"

/* GPUs a train node of the simulation holds: the instance's, or the trays
 * of an NVLink domain joined into one (resolve_domain_nodes). */
static int node_gpus(const struct plan_cluster *pc)
{
    const struct sc_group *tg = cluster_first_train(pc->cl);

    return pc->cfg.groups[tg - pc->cl->groups].gpus;
}

static double cluster_vcpus(const struct sc_cluster *cl, enum sim_role r)
{
    double v = 0;
    for (int i = 0; i < cl->ngroups; i++)
        if (cl->groups[i].role == r)
            v += (double)cl->groups[i].count * cl->groups[i].inst->vcpus;
    return v;
}

/* vCPUs of the train instance (at its speed in reference cores) one worker's
 * input needs to keep its compute busy. */
static double vcpu_needed_per_worker(const struct sim_config *cfg)
{
    for (int i = 0; i < cfg->ngroups; i++)
        if (cfg->groups[i].role == SIM_TRAIN) {
            double busy = cfg->groups[i].fwd_s + cfg->groups[i].bwd_s + cfg->groups[i].opt_s;
            return busy > 0 ? cfg->w.batch * cfg->w.cpu_s_per_sample /
                                  (busy * cfg->groups[i].core_speed)
                            : INFINITY;
        }
    return NAN;
}

/* The busiest of the input's resources while the workers wait for it:
 * 0 vCPUs, 1 a NIC, 2 PCIe; *worst its utilisation. */
static int input_resource(const struct plan_cluster *pc, double *worst)
{
    const struct sim_result *r = &pc->res;
    int bi = 0;

    *worst = 0;
    for (int i = 0; i < pc->cfg.ngroups; i++) {
        const struct sim_group_stats *g = &r->g[i];
        if (g->cpu_util > *worst) { *worst = g->cpu_util; bi = 0; }
        if (g->nic_tx_util > *worst) { *worst = g->nic_tx_util; bi = 1; }
        if (g->nic_rx_util > *worst) { *worst = g->nic_rx_util; bi = 1; }
        if (g->pcie_util > *worst) { *worst = g->pcie_util; bi = 2; }
    }
    return bi;
}

/* Input: CPU-bound when the vCPUs are too few for the pipeline, input-bound
 * when there are enough and each batch's own time is waited for. */
static enum plan_bound cpu_or_input(const struct plan_cluster *pc)
{
    double v = cluster_vcpus(pc->cl, SIM_TRAIN) + cluster_vcpus(pc->cl, SIM_DATA);
    double need = vcpu_needed_per_worker(&pc->cfg);

    return need < 0.9 * v / pc->res.workers ? PLAN_BOUND_INPUT : PLAN_BOUND_CPU;
}

static int comm_is_tp(const struct plan_cluster *pc)
{
    const struct sim_result *r = &pc->res;

    return r->tp_comm_s > 0.05 * r->step_mean_s && r->tp_comm_s >= 0.5 * r->exposed_comm_s;
}

/*
 * Whether the links stay idle through part of the exposed communication: a
 * link bound by its bandwidth is busy all the while a collective waits on
 * it, so its busy time (link x step) covers the exposed time, and more with
 * the overlapped traffic.  Under 80% of it (a margin for the busiest
 * direction's average): the collectives are held back by their per-message
 * latency or their channels' rate, not the link.
 */
static int links_idle(const struct plan_cluster *pc, double link)
{
    return link * pc->res.step_mean_s < 0.8 * pc->res.exposed_comm_s;
}

/* Exposed gradient communication: which kind. */
static enum plan_bound comm_bound(const struct plan_cluster *pc, double link)
{
    int ps = sim_is_ps(pc->cfg.c.strategy);

    if (ps)
        return PLAN_BOUND_PS;
    if (pc->cfg.c.cycle_s > 0 && pc->res.exposed_comm_s <= 1.2 * pc->cfg.c.cycle_s)
        return PLAN_BOUND_CYCLE;    /* the wait is for the next tick, not the links */
    if (link < 0.2 || links_idle(pc, link))
        return PLAN_BOUND_LATENCY;  /* the links are idle: message latency */
    return cluster_train_nodes(pc->cl) > 1 ? PLAN_BOUND_NETWORK : PLAN_BOUND_GPU_LINK;
}

/* The busiest link: a NIC or a GPU link. */
static double busiest_link(const struct plan_cluster *pc)
{
    double link = pc->res.util_nic;

    for (int i = 0; i < pc->cfg.ngroups; i++)
        if (pc->res.g[i].intra_util > link)
            link = pc->res.g[i].intra_util;
    return link;
}

/* From the one simulation: what the workers wait for. */
static enum plan_bound by_waits(const struct plan_cluster *pc)
{
    const struct sim_result *r = &pc->res;
    double worst;

    if (r->data_stall_s > 0.05 * r->step_mean_s && r->data_stall_s >= r->exposed_comm_s) {
        int bi = input_resource(pc, &worst);
        return bi == 1 ? PLAN_BOUND_INPUT_NET : bi == 2 ? PLAN_BOUND_PCIE : cpu_or_input(pc);
    }
    if (comm_is_tp(pc))
        return pc->cfg.c.tp > node_gpus(pc)
                   ? PLAN_BOUND_NETWORK
                   : PLAN_BOUND_GPU_LINK;
    if (r->exposed_comm_s > 0.05 * r->step_mean_s)
        return comm_bound(pc, busiest_link(pc));
    return PLAN_BOUND_COMPUTE;
}

/* From the what-if: the resource that saves most, named as the step's
 * waits say it is used. */
static enum plan_bound by_whatif(const struct plan_cluster *pc, const struct whatif *w)
{
    const struct sim_result *r = &pc->res;

    switch (w->best) {
    case WHATIF_CPU:
        return cpu_or_input(pc);
    case WHATIF_NIC:
        if (r->data_stall_s >= r->exposed_comm_s && r->data_stall_s > 0)
            return PLAN_BOUND_INPUT_NET;
        /* colocated servers: the train nodes' NICs are the servers' */
        if (sim_is_ps(pc->cfg.c.strategy) && !pc->cfg.c.ps_dedicated)
            return PLAN_BOUND_PS;
        /* a faster NIC speeds the collectives' channels too, but a NIC
         * mostly idle while they are exposed is not what holds them */
        return !sim_is_ps(pc->cfg.c.strategy) && links_idle(pc, r->util_nic)
                   ? PLAN_BOUND_LATENCY : PLAN_BOUND_NETWORK;
    case WHATIF_LATENCY:
        return PLAN_BOUND_LATENCY;
    case WHATIF_LINK:
        return PLAN_BOUND_GPU_LINK;
    case WHATIF_PCIE:
        return PLAN_BOUND_PCIE;
    case WHATIF_PS:
        return PLAN_BOUND_PS;
    case WHATIF_CYCLE:
        return PLAN_BOUND_CYCLE;
    default:
        return PLAN_BOUND_COMPUTE;
    }
}

/* "; 2x NIC bandwidth would cut the step 23%, 2x compute 4%" */
static void whatif_words(const struct whatif *w, char *out, size_t cap)
{
    int second = -1;

    for (int k = 0; k < WHATIF_N; k++)      /* the runner-up, when it saves 1% or more */
        if (k != (int)w->best && w->saved[k] >= 0.01 &&
            (second < 0 || w->saved[k] > w->saved[second]))
            second = k;
    snprintf(out, cap, "; %s would cut the step %.0f%%", whatif_name(w->best),
             100 * fmax(0, w->saved[w->best]));
    if (second >= 0) {
        size_t n = strlen(out);
        snprintf(out + n, cap - n, ", %s %.0f%%", whatif_name((enum whatif_res)second),
                 100 * fmax(0, w->saved[second]));
    }
}

/*
 * A collective-latency bound under NCCL's own choice, named by the
 * collective that takes longest: its algorithm, protocol and channels and
 * the bus bandwidth they reach.  0 when the strategy is not NCCL's choice
 * (the generic words follow).
 */
static int latency_words(struct plan_cluster *pc, double link, const char *use)
{
    struct sim_coll_choice c[PLAN_MAX_COLLECTIVES];
    int n = sim_collectives(&pc->cfg, c, PLAN_MAX_COLLECTIVES), k = 0;
    const struct sim_result *r = &pc->res;

    if (n <= 0)
        return 0;
    for (int i = 1; i < n; i++)
        if (c[i].time_s > c[k].time_s)
            k = i;
    /* a line longer than bound_text ends cut: its words are the front */
    return snprintf(pc->bound_text, sizeof pc->bound_text,
             "collective-latency-bound: %.1f ms of each %.1f ms step is exposed communication "
             "while the busiest link is %.0f%% busy: NCCL runs the longest collective (%.3g MiB "
             "%s) as %s/%s over %d channel%s at %.3g GB/s bus bandwidth, held by per-message "
             "latency and the channels' rate, not the link's; %s cut it; %s",
             1e3 * r->exposed_comm_s, 1e3 * r->step_mean_s, 100 * link, c[k].bytes / DT_MIB,
             c[k].collective, c[k].algorithm, c[k].protocol, c[k].channels,
             c[k].channels == 1 ? "" : "s", c[k].busbw_Bps / 1e9,
             sim_bucket_count(&pc->cfg.c, pc->cfg.w.grad_bytes) > 1
                 ? "larger buckets or fewer ranks" : "fewer ranks or more samples a step",
             use) >= 0;
}

/* The words of bound b. */
static void words(struct plan_cluster *pc, enum plan_bound b)
{
    const struct sim_result *r = &pc->res;
    const struct sc_group *tg = cluster_first_train(pc->cl);
    const struct cat_instance *in = tg->inst;
    double busy = r->g[tg - pc->cl->groups].gpu_util; /* compute share of the step */
    double v = cluster_vcpus(pc->cl, SIM_TRAIN) + cluster_vcpus(pc->cl, SIM_DATA), worst;
    double need = vcpu_needed_per_worker(&pc->cfg), link = busiest_link(pc);
    int nodes = cluster_train_nodes(pc->cl), k = (int)lround(r->workers), nb;
    int tp = comm_is_tp(pc);
    char what[96], use[192], cyc[64] = "";
    size_t cap = sizeof pc->bound_text;
    char *t = pc->bound_text;

    if (in->gpu_count > 0)
        snprintf(what, sizeof what, "%d %s", tg->count * in->gpu_count, in->gpu_model);
    else
        snprintf(what, sizeof what, "%d x %d vCPU", tg->count, in->vcpus);
    /* GPUs are busy while they compute; CPU train nodes compute on some of
     * their vCPUs (the CPU% column counts them all), so the share of the
     * step is said instead */
    if (in->gpu_count > 0)
        snprintf(use, sizeof use, "%s busy %.0f%%", what, 100 * busy);
    else
        snprintf(use, sizeof use, "%s computing %.0f%% of the step", what, 100 * busy);
    if (b == PLAN_BOUND_COMPUTE && r->optimizer_s > 0.05 * r->step_mean_s) {
        size_t n = strlen(use);
        snprintf(use + n, sizeof use - n, ", and %.0f%% in the optimizer",
                 100 * r->optimizer_s / r->step_mean_s);
    }
    input_resource(pc, &worst);
    if (pc->cfg.c.cycle_s > 0)
        snprintf(cyc, sizeof cyc, ", started on the ticks of a %.3g ms background cycle",
                 1e3 * pc->cfg.c.cycle_s);
    switch (b) {
    case PLAN_BOUND_INPUT_NET:
        snprintf(t, cap, "input-network-bound: sending preprocessed batches keeps a NIC %.0f%% "
                 "busy; %s", 100 * worst, use);
        break;
    case PLAN_BOUND_PCIE:
        snprintf(t, cap, "PCIe-bound: host-to-device copies keep PCIe %.0f%% busy; %s",
                 100 * worst, use);
        break;
    case PLAN_BOUND_INPUT:
        snprintf(t, cap, "input-bound: each batch's preprocessing is waited for (%d loader "
                 "worker%s, prefetch %d) though the pipeline needs about %.1f of the %.1f vCPU a "
                 "worker has; more loader workers or prefetch hide it; %s",
                 pc->cfg.w.loader_workers, pc->cfg.w.loader_workers == 1 ? "" : "s",
                 pc->cfg.w.prefetch, need, v / r->workers, use);
        break;
    case PLAN_BOUND_CPU:
        snprintf(t, cap, "CPU-bound: %.0f vCPU (%.1f per worker) keep %s; the input "
                 "pipeline needs about %.1f vCPU per worker", v, v / r->workers, use, need);
        break;
    case PLAN_BOUND_CYCLE:
        snprintf(t, cap, "cycle-bound: %.1f ms of each %.1f ms step waits for the next tick of "
                 "the %.3g ms background cycle (HOROVOD_CYCLE_TIME) that starts the all-reduces "
                 "(busiest link %.0f%%); a shorter cycle cuts it; %s",
                 1e3 * r->exposed_comm_s, 1e3 * r->step_mean_s, 1e3 * pc->cfg.c.cycle_s,
                 100 * link, use);
        break;
    case PLAN_BOUND_LATENCY:
        if (latency_words(pc, link, use))
            break;
        nb = sim_bucket_count(&pc->cfg.c, pc->cfg.w.grad_bytes);
        snprintf(t, cap, "latency-bound: %.1f ms of each %.1f ms step is exposed gradient "
                 "communication while the busiest link is %.0f%% busy: the per-message latency "
                 "of %d all-reduce%s over %d ranks (%s), not bandwidth; %s cut it; %s",
                 1e3 * r->exposed_comm_s, 1e3 * r->step_mean_s, 100 * link, nb,
                 nb == 1 ? "" : "s", k, nodes > 1 ? "across nodes" : "inside the node",
                 nb > 1 ? "larger buckets or fewer ranks" : "fewer ranks or more samples a step",
                 use);
        break;
    case PLAN_BOUND_NETWORK:
    case PLAN_BOUND_GPU_LINK:
        if (tp) {
            snprintf(t, cap, "%s-bound: %.1f ms of each %.1f ms step is tensor-parallel "
                     "communication (tp %d over %s); %s",
                     b == PLAN_BOUND_NETWORK ? "network" : "GPU-link", 1e3 * r->tp_comm_s,
                     1e3 * r->step_mean_s, pc->cfg.c.tp,
                     pc->cfg.c.tp > node_gpus(pc) ? "the NICs" : "the GPUs' links", use);
            break;
        }
        /* fall through */
    case PLAN_BOUND_PS:
        snprintf(t, cap, "%s-bound: %.1f ms of each %.1f ms step is exposed gradient "
                 "communication%.63s (busiest NIC %.0f%%); %s",
                 b == PLAN_BOUND_PS ? "parameter-server" : b == PLAN_BOUND_NETWORK ? "network"
                                                                                 : "GPU-link",
                 1e3 * r->exposed_comm_s, 1e3 * r->step_mean_s, cyc, 100 * r->util_nic, use);
        break;
    default:
        snprintf(t, cap, "compute-bound: %s", use);
        break;
    }
}

/*
 * Expert parallelism's all-to-alls are communication the MoE layers wait
 * for (sim_result.ep_comm_s: sim/ep.c's flows, or a pipeline stage's
 * waits): where they are the step's largest part (as long as its compute
 * or longer, and its other communication and bubble), the step is bound by
 * them, over the NICs when the expert-parallel group spans nodes, else
 * over NVLink, and the words say so.  The what-ifs' words are left out
 * then.  1 when it applies.
 */
static int expert_bound(struct plan_cluster *pc)
{
    const struct sim_result *r = &pc->res;
    size_t n;

    double rest = r->exposed_comm_s - pc->ep_comm_s;   /* data- and tensor-parallel */

    if (!(pc->ep_comm_s > 0) || !(r->step_mean_s > 0) || pc->ep_comm_s < r->compute_s ||
        pc->ep_comm_s < rest || pc->ep_comm_s < r->pp_bubble_s)
        return 0;
    pc->bound = pc->ep_over_nics ? PLAN_BOUND_NETWORK : PLAN_BOUND_GPU_LINK;
    n = (size_t)snprintf(pc->bound_text, sizeof pc->bound_text,
                         "expert-all-to-all-bound: %.1f s of each %.1f s step waits for the MoE "
                         "layers' all-to-alls %s; ", pc->ep_comm_s, r->step_mean_s,
                         pc->ep_over_nics ? "across nodes (a smaller expert-parallel group, "
                                            "inside a node, moves them over NVLink)"
                                          : "over NVLink");
    if (n < sizeof pc->bound_text)
        snprintf(pc->bound_text + n, sizeof pc->bound_text - n, "compute %.1f s of the rest",
                 r->compute_s);
    return 1;
}

/*
 * Without full-iteration CUDA graphs, a step whose GPUs wait for the
 * host's launches (resolve_host.c) is bound by the host: the floor holds
 * every MoE layer's pass where it binds, so a faster GPU leaves those
 * passes as they are (the what-if shows it) and the what-ifs' words are
 * left out, as expert_bound's.  1 when it applies.
 */
static int host_bound(struct plan_cluster *pc)
{
    const struct sim_result *r = &pc->res;

    if (!(pc->host_wait_s > 0) || !(r->step_mean_s > 0))
        return 0;
    pc->bound = PLAN_BOUND_COMPUTE;
    snprintf(pc->bound_text, sizeof pc->bound_text,
             "host-launch-bound: %.1f s of each %.1f s step the GPUs wait for the host to issue "
             "the MoE layers' kernels; full-iteration CUDA graphs would take "
             "it off the step, a faster GPU would not; compute %.1f s of the rest",
             pc->host_wait_s, r->step_mean_s, r->compute_s - pc->host_wait_s);
    return 1;
}

int plan_bound_set(struct plan_cluster *pc, int whatif, struct dt_err *e)
{
    struct whatif w;

    if (!whatif) {
        pc->bound = by_waits(pc);
        words(pc, pc->bound);
        if (!expert_bound(pc))
            host_bound(pc);
        return 0;
    }
    if (whatif_ask(&pc->cfg, pc->res.step_mean_s, &w, e))
        return -1;
    pc->bound = by_whatif(pc, &w);
    words(pc, pc->bound);
    if (expert_bound(pc) || host_bound(pc))
        return 0;
    {
        size_t n = strlen(pc->bound_text);
        whatif_words(&w, pc->bound_text + n, sizeof pc->bound_text - n);
    }
    return 0;
}
