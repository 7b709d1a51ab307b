/*
 * whatif.c - what limits a simulated step, by speeding each resource up in
 * turn (whatif.h).  O(WHATIF_N) simulations.
 */
#include "whatif.h"
#include "resolve.h"

#include <math.h>
#include <string.h>

static const char *const names[WHATIF_N] = {
    "2x compute", "2x vCPU speed", "2x NIC bandwidth", "half the message latency",
    "2x GPU-link bandwidth", "2x PCIe bandwidth", "2x parameter-server speed",
    "half the background cycle",
};

const char *whatif_name(enum whatif_res r)
{
    return r >= 0 && r < WHATIF_N ? names[r] : "?";
}

/* Whether cfg has resource r to speed up; *c is cfg with it doubled. */
static int speed_up(const struct sim_config *cfg, enum whatif_res r, struct sim_config *c)
{
    int has = 0;

    *c = *cfg;
    c->trace = NULL;
    for (int i = 0; i < c->ngroups; i++) {
        struct sim_group *g = &c->groups[i];
        switch (r) {
        case WHATIF_COMPUTE:
            if (g->role == SIM_TRAIN) {
                /* the GPU's time halves; the host's launches do not, so an eager
                 * MoE layer's pass keeps its floor (resolve_host.c), nor do a
                 * pipeline's all-to-alls (resolve_ep.c) */
                double busy = g->fwd_s + g->bwd_s, a2a = g->ep_wait_s;
                double gpu = (busy - g->host_wait_s - a2a) / 2;
                double wait = resolve_host_wait_s(gpu + a2a + g->ep_flow_s, g->host_floor_s,
                                                  g->host_passes, g->host_moe_share);
                if (busy > 0) {
                    g->fwd_s *= (gpu + wait + a2a) / busy;
                    g->bwd_s *= (gpu + wait + a2a) / busy;
                }
                /* the layers' waits as the GPU's time, the host's and the
                 * all-to-alls' apart */
                g->layer_wait_s /= 2;
                g->ep_sm_slow_s /= 2;
                g->moe_wait_s = fmax(0, g->moe_wait_s - g->host_wait_s - a2a) / 2 + wait + a2a;
                g->host_wait_s = wait;
                g->opt_s /= 2;
                has = 1;
            }
            break;
        case WHATIF_CPU:
            g->core_speed *= 2;
            has = 1;
            break;
        case WHATIF_NIC:
            if (c->ngroups > 1 || g->count > 1) {
                g->nic_Bps *= 2;
                has = 1;
            }
            break;
        case WHATIF_LATENCY:
            g->net_alpha_s /= 2;
            g->intra_alpha_s /= 2;
            has = 1;
            break;
        case WHATIF_LINK:
            if (g->gpus > 1) {
                g->intra_Bps *= 2;
                has = 1;
            }
            break;
        case WHATIF_PCIE:
            if (g->gpus > 0 && c->w.prep_bytes > 0) {
                g->pcie_Bps *= 2;
                has = 1;
            }
            break;
        case WHATIF_PS:
            if (g->role == SIM_PS) {
                g->nic_Bps *= 2;
                g->core_speed *= 2;
                has = 1;
            }
            break;
        default:
            break;
        }
    }
    if (r == WHATIF_PS && has)
        c->w.ps_reduce_s_per_byte /= 2;
    if (r == WHATIF_LATENCY)    /* NCCL's own latency too (auto) */
        c->c.lat_scale = (c->c.lat_scale > 0 ? c->c.lat_scale : 1) / 2;
    if (r == WHATIF_CYCLE) {
        has = c->c.cycle_s > 0;
        c->c.cycle_s /= 2;
    }
    return has;
}

int whatif_ask(const struct sim_config *cfg, double step_s, struct whatif *w, struct dt_err *e)
{
    struct sim_config c;
    struct sim_result r;
    double most = -1;

    w->best = WHATIF_COMPUTE;
    for (int k = 0; k < WHATIF_N; k++) {
        w->saved[k] = NAN;
        if (!speed_up(cfg, (enum whatif_res)k, &c))
            continue;
        if (sim_run(&c, &r, e))
            return -1;
        w->saved[k] = step_s > 0 ? 1 - r.step_mean_s / step_s : 0;
        /* a tie goes to the earlier: compute before what it waits on */
        if (w->saved[k] > most + 1e-9) {
            most = w->saved[k];
            w->best = (enum whatif_res)k;
        }
    }
    return 0;
}
