/*
 * coll.c - the table of gradient-sharing algorithms and helpers they share.
 * The table is the one place the strategies are listed: their names, which
 * are parameter-server ones, and the file that builds each.  A new algorithm
 * is one file, one enum sim_strategy value (sim.h) and one line here.
 */
#include "coll.h"
#include "../base/names.h"
#include "../base/xmem.h"

#include <math.h>
#include <string.h>

static const struct coll_ops *const table[SIM_NSTRATEGY] = {
    [SIM_RING] = &coll_ring,
    [SIM_TREE] = &coll_tree,
    [SIM_HALVING_DOUBLING] = &coll_hd,
    [SIM_HIERARCHICAL] = &coll_hier,
    [SIM_PS_SYNC] = &coll_ps_sync,
    [SIM_PS_ASYNC] = &coll_ps_async,
    [SIM_AUTO] = &coll_auto,
};

const struct coll_ops *coll_for(enum sim_strategy s)
{
    return (unsigned)s < SIM_NSTRATEGY ? table[s] : NULL;
}

const char *sim_strategy_name(int s)
{
    return s >= 0 && s < SIM_NSTRATEGY ? table[s]->name : NULL;
}

int sim_strategy_parse(const char *name)
{
    return names_parse(sim_strategy_name, name);
}

int sim_is_ps(int s)
{
    return s >= 0 && s < SIM_NSTRATEGY && table[s]->is_ps;
}

int coll_ranks(const struct coll_ctx *ctx)
{
    int k = 0;
    for (int i = 0; i < ctx->ntg; i++)
        k += ctx->tg[i].nodes * ctx->tg[i].wpn;
    return k;
}

int coll_nodes(const struct coll_ctx *ctx)
{
    int n = 0;
    for (int i = 0; i < ctx->ntg; i++)
        n += ctx->tg[i].nodes;
    return n;
}

int coll_max_wpn(const struct coll_ctx *ctx)
{
    int w = 1;
    for (int i = 0; i < ctx->ntg; i++)
        if (ctx->tg[i].wpn > w)
            w = ctx->tg[i].wpn;
    return w;
}

double coll_alpha_intra(const struct coll_ctx *ctx)
{
    double a = 0;
    for (int i = 0; i < ctx->ntg; i++)
        if (ctx->tg[i].alpha_intra > a)
            a = ctx->tg[i].alpha_intra;
    return a;
}

double coll_alpha_net(const struct coll_ctx *ctx)
{
    double a = 0;
    for (int i = 0; i < ctx->ntg; i++)
        if (ctx->tg[i].alpha_net > a)
            a = ctx->tg[i].alpha_net;
    return a;
}

void coll_use(struct coll_phase *ph, int res, double w)
{
    if (res < 0 || w <= 0 || ph->nuse >= MM_MAX_USE)
        return;
    for (int i = 0; i < ph->nuse; i++)
        if (ph->use[i].res == res) {
            ph->use[i].w += w;
            return;
        }
    ph->use[ph->nuse].res = res;
    ph->use[ph->nuse].w = w;
    ph->nuse++;
}

void coll_flat_phase(const struct coll_ctx *ctx, struct coll_phase *ph, double amount, double lat_s)
{
    int nodes = coll_nodes(ctx);

    memset(ph, 0, sizeof *ph);
    ph->lat_s = lat_s;
    ph->amount = amount;
    ph->bound = INFINITY;
    for (int i = 0; i < ctx->ntg; i++) {
        const struct coll_group *g = &ctx->tg[i];
        if (g->wpn > 1)
            coll_use(ph, g->r_intra, 1);
        if (nodes > 1) {
            coll_use(ph, g->r_tx, 1);
            coll_use(ph, g->r_rx, 1);
        }
    }
    if (nodes > 1)
        coll_use(ph, ctx->r_fabric, nodes);
}

int ilog2_ceil(int n)
{
    int l = 0;
    while ((1 << l) < n)
        l++;
    return l;
}

/*
 * E[max load] = sum over m >= 0 of P(max > m).  P(max <= m) comes from the
 * bins taken one at a time: given t balls already placed, the next of the
 * remaining r bins gets Binomial(balls - t, 1/r) of them.  The table holds
 * probabilities only (no factorials), so it neither overflows nor loses
 * precision; the cost is bins x balls x m per value of m, and m stops once
 * P(max > m) < 1e-12.
 */
double coll_expected_max_load(int balls, int bins)
{
    double *h, *nh, e;
    int m;

    if (balls <= 0 || bins <= 0)
        return 0;
    if (bins == 1)
        return balls;
    if (balls == 1)
        return 1;
    h = x_malloc(sizeof(double) * (size_t)(balls + 1));
    nh = x_malloc(sizeof(double) * (size_t)(balls + 1));
    /* P(max > m) = 1 below ceil(balls / bins): the largest bin holds at least that. */
    m = (balls + bins - 1) / bins;
    for (e = m;; m++) {
        double le;
        memset(h, 0, sizeof(double) * (size_t)(balls + 1));
        h[0] = 1;
        for (int j = 0; j < bins; j++) {
            double q = 1.0 / (bins - j);
            memset(nh, 0, sizeof(double) * (size_t)(balls + 1));
            for (int t = 0; t <= balls; t++) {
                int r = balls - t, kmax;
                double pk;
                if (h[t] == 0)
                    continue;
                if (j == bins - 1) { /* the last bin takes every ball left */
                    if (r <= m)
                        nh[balls] += h[t];
                    continue;
                }
                kmax = r < m ? r : m;
                pk = pow(1 - q, r); /* P(k = 0) */
                for (int k = 0; k <= kmax; k++) {
                    nh[t + k] += h[t] * pk;
                    pk *= (double)(r - k) / (k + 1) * q / (1 - q);
                }
            }
            memcpy(h, nh, sizeof(double) * (size_t)(balls + 1));
        }
        le = 1 - h[balls]; /* P(max > m) */
        if (le < 1e-12 || m >= balls)
            break;
        e += le;
    }
    x_free(h);
    x_free(nh);
    return e;
}
