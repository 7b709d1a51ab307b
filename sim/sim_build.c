/*
 * sim_build.c - the set-up of a run of the step simulator (sim.c): its
 * resources (every link, NIC and CPU as maxmin.c shares them), each train
 * group's input producers and each collective chain with its buckets and
 * phases, and their release.  sim_int.h declares them.
 */
#include "sim_int.h"

#include <assert.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_rng.h>

void sim_build_resources(struct sim *s)
{
    const struct sim_config *cfg = s->cfg;
    double fabric = 0;

    for (int i = 0; i < cfg->ngroups; i++) {
        const struct sim_group *g = &cfg->groups[i];
        double cpu = (g->role == SIM_PS ? g->vcpus : g->loader_vcpus) * g->core_speed;
        s->r_cpu[i] = cpu > 0 ? mm_add_res(&s->mm, cpu) : -1;
        s->r_pcie[i] = g->pcie_Bps > 0 ? mm_add_res(&s->mm, g->pcie_Bps) : -1;
        s->r_tx[i] = g->nic_Bps > 0 ? mm_add_res(&s->mm, g->nic_Bps) : -1;
        s->r_rx[i] = g->nic_Bps > 0 ? mm_add_res(&s->mm, g->nic_Bps) : -1;
        s->r_intra[i] = g->intra_Bps > 0 ? mm_add_res(&s->mm, g->intra_Bps) : -1;
        fabric += g->count * g->nic_Bps;
    }
    s->r_fabric = (cfg->fabric_oversub > 1 && fabric > 0)
                      ? mm_add_res(&s->mm, fabric / cfg->fabric_oversub) : -1;
}

/* The producers of a train group's worker: every input pipeline of the
 * table (input.c), in its order. */
void sim_build_producers(struct sim *s, struct worker *w)
{
    struct input_line lines[MAX_PROD];   /* each builder starts the lines it fills */
    struct input_ctx ctx;
    int ndata = 0;

    for (int i = 0; i < s->cfg->ngroups; i++)
        ndata += s->cfg->groups[i].role == SIM_DATA;
    memset(&ctx, 0, sizeof ctx);
    ctx.cfg = s->cfg;
    ctx.g = w->g;
    ctx.ranks = w->ranks;
    ctx.ndata = ndata;
    ctx.r_cpu = s->r_cpu;
    ctx.r_pcie = s->r_pcie;
    ctx.r_tx = s->r_tx;
    ctx.r_rx = s->r_rx;
    ctx.r_fabric = s->r_fabric;
    w->nprod = input_build_all(&ctx, lines, MAX_PROD);
    for (int p = 0; p < w->nprod; p++)
        w->prod[p].line = lines[p];
    if (w->nprod == 0) {
        /* Nothing to preprocess and no CPU for it: batches are free. */
        w->prod[0].line.nst = 1;
        w->nprod = 1;
    }
}

void sim_build_chain(struct sim *s, struct chain *c)
{
    const struct sim_config *cfg = s->cfg;
    const struct coll_ops *ops = coll_for(cfg->c.strategy);
    struct coll_ctx *ctx = &c->ctx;
    int full = sim_dims_layered(cfg);   /* a layer-by-layer step shares them itself */
    double total = full ? 0 : cfg->w.grad_bytes, left;
    int nb;

    memset(ctx, 0, sizeof *ctx);
    ctx->r_fabric = s->r_fabric;
    ctx->r_ps_tx = ctx->r_ps_rx = ctx->r_ps_cpu = -1;
    /* The collective spans every train group, also for asynchronous PS: the
     * servers see every worker's traffic. */
    for (int i = 0; i < cfg->ngroups; i++) {
        const struct sim_group *g = &cfg->groups[i];
        if (g->role == SIM_TRAIN) {
            struct coll_group *cg = &ctx->tg[ctx->ntg++];
            cg->nodes = g->count;
            cg->wpn = sim_workers_per_node(g);
            cg->alpha_intra = g->intra_alpha_s;
            cg->alpha_net = g->net_alpha_s;
            cg->r_intra = s->r_intra[i];
            cg->r_tx = s->r_tx[i];
            cg->r_rx = s->r_rx[i];
            cg->r_cpu = s->r_cpu[i];
        } else if (g->role == SIM_PS) {
            ctx->ps_nodes = g->count;
            ctx->r_ps_tx = s->r_tx[i];
            ctx->r_ps_rx = s->r_rx[i];
            ctx->r_ps_cpu = s->r_cpu[i];
            ctx->ps_alpha_net = g->net_alpha_s;
        }
    }
    ctx->ps_dedicated = cfg->c.ps_dedicated;
    ctx->lat_scale = cfg->c.lat_scale;
    ctx->ps_serial = cfg->c.ps_serial;
    /* Synchronous PS: every worker node's bucket meets at the servers at once.
     * Asynchronous workers drift apart: a push meets another node's push with
     * the probability that node is pushing (mean field, see sim_run). */
    ctx->ps_incast = sim_is_async(cfg) ? 1 + (coll_nodes(ctx) - 1) * s->ps_duty : coll_nodes(ctx);
    ctx->ps_servers = cfg->c.ps_dedicated ? cfg->c.ps_servers : coll_nodes(ctx);
    if (cfg->c.ps_in_turn)
        ctx->ps_turn_weight = coll_nodes(ctx) * coll_expected_max_load(ctx->ps_servers, coll_nodes(ctx));
    ctx->ps_reduce_s_per_byte = cfg->w.ps_reduce_s_per_byte;
    ctx->ps_first_pull = cfg->c.ps_first_pull;
    if (cfg->c.strategy == SIM_AUTO) {
        struct nccl_shape sh;
        if (sim_nccl_shape(cfg, &sh) == 0)
            nccl_model_init(&ctx->nccl, &sh, NCCL_ALLREDUCE);
    }

    /* Buckets in the order backward releases them (sim_bucket_count); one
     * rank shares nothing, so its gradients are one bucket (the same step,
     * fewer events) */
    if (coll_ranks(ctx) <= 1 && !sim_is_ps(cfg->c.strategy))
        full = 1;
    nb = full ? 1 : sim_bucket_count(&cfg->c, total);
    c->nb = nb;
    c->bbytes = x_calloc((size_t)nb, sizeof *c->bbytes);
    c->cum = x_calloc((size_t)nb, sizeof *c->cum);
    left = total;
    for (int b = 0; b < nb; b++) {
        double cap = sim_bucket_cap(&cfg->c, b);
        c->bbytes[b] = left < cap ? left : cap;
        left -= c->bbytes[b];
        c->cum[b] = (b ? c->cum[b - 1] : 0) + c->bbytes[b];
    }
    /* Phases once for each run of equal-size buckets (a step's buckets are
     * the cap's size but for the first and the last, whatever their number),
     * each bucket pointing at its run's row. */
    c->ph_row = x_calloc((size_t)nb, sizeof *c->ph_row);
    {
        int rows = 0, cap = 0;
        c->ph = NULL;
        c->nph = 0;
        for (int b = 0; b < nb; b++) {
            struct coll_phase tmp[COLL_MAX_PHASES];
            int n;
            if (b > 0 && c->bbytes[b] == c->bbytes[b - 1] && c->bbytes[b] > 0) {
                c->ph_row[b] = c->ph_row[b - 1];     /* the same size: the same phases */
                continue;
            }
            n = c->bbytes[b] > 0 ? ops->build(ctx, c->bbytes[b], tmp) : 0;
            if (b == 0)
                c->nph = n;
            assert(n == c->nph || c->bbytes[b] <= 0);
            if (rows == cap) {
                cap = cap ? 2 * cap : 4;
                c->ph = x_realloc(c->ph, (size_t)cap * COLL_MAX_PHASES * sizeof *c->ph);
            }
            /* an empty bucket's row is zeros, as a bucket of no bytes has no phases */
            memset(&c->ph[rows * COLL_MAX_PHASES], 0, COLL_MAX_PHASES * sizeof *c->ph);
            for (int p = 0; p < n; p++)
                c->ph[rows * COLL_MAX_PHASES + p] = tmp[p];
            c->ph_row[b] = rows++;
        }
        /* compact to rows x nph */
        for (int r = 0; r < rows; r++)
            for (int p = 0; p < c->nph; p++)
                c->ph[r * c->nph + p] = c->ph[r * COLL_MAX_PHASES + p];
        if (!c->ph)
            c->ph = x_calloc(1, sizeof *c->ph);
    }
    for (int p = 0; p < c->nph; p++)
        c->last_in_lane[c->ph[p].lane] = p;
    c->ready_cnt = x_calloc((size_t)nb, sizeof *c->ready_cnt);
    c->started = x_calloc((size_t)nb * (c->nph ? c->nph : 1), 1);
    c->done = x_calloc((size_t)nb * (c->nph ? c->nph : 1), 1);
    c->ticked = x_calloc((size_t)nb, 1);
}

void sim_release(struct sim *s)
{
    for (int i = 0; i < s->nw; i++)
        x_free(s->w[i].end);
    for (int i = 0; i < s->nch; i++) {
        x_free(s->ch[i].bbytes);
        x_free(s->ch[i].cum);
        x_free(s->ch[i].ph);
        x_free(s->ch[i].ph_row);
        x_free(s->ch[i].ready_cnt);
        x_free(s->ch[i].started);
        x_free(s->ch[i].done);
        x_free(s->ch[i].ticked);
    }
    x_free(s->busy0);
    for (int d = 0; sim_dims[d]; d++)
        if (s->dim[d] && sim_dims[d]->free)
            sim_dims[d]->free(s->dim[d]);
    evq_free(&s->q);
    mm_free(&s->mm);
    if (s->rng)
        gsl_rng_free(s->rng);
}

/* ---- main loop --------------------------------------------------------- */

