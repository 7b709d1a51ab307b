/*
 * ep.c - expert parallelism's all-to-alls in the step simulator (sim.h:
 * sim_comm.ep; docs/model.md "Expert parallelism"), as flows on the links
 * and NICs every other flow uses.
 *
 * In each MoE layer every GPU sends its tokens' copies to the ranks that
 * hold their experts and takes the results back: a dispatch and a combine
 * in the forward, their gradients in the backward (planner/resolve_ep.c
 * counts them, the recomputed forward's and the fp8 dispatch's share
 * included, into ep_fwd and ep_bwd a layer).  One all-to-all of one
 * micro-batch moves ep_nvl_bytes of a GPU's over its GPU link and
 * ep_net_bytes over the NICs, and every GPU of a node runs its own at once,
 * so a node's NICs carry ppn times the latter.  As one flow of a GPU's
 * bytes A = nvl + net that crosses its GPU link nvl / A times and its
 * node's NICs (and the fabric, node by node) ppn net / A times, it takes
 * alone
 *
 *     max(nvl / intra_Bps, ppn net / nic_Bps),
 *
 * resolve_ep.c's time of one all-to-all, and shares those resources max-min
 * with the data-parallel reductions, the parameters' gathers and the other
 * dimensions' collectives in flight.
 *
 * They run on the compute stream: without overlap a layer's start when its
 * compute ends and the layer waits for them (ep_exposed 1).  Under the
 * overlap of one micro-batch's all-to-alls with another's compute
 * (parallel.ep_overlap) the planner's share of their time alone is hidden:
 * they start with the layer's compute, and the layer ends no sooner than
 * ep_exposed of their time alone after its compute does, later if the
 * network holds them back.  Alone, that is the planner's exposed time
 * exactly (resolve_ep_exposed: ep_exposed x the time alone covers whatever
 * outlasts the compute).  The held SMs' slowdown is the planner's, in the
 * compute already; these flows slow nothing else.
 *
 * They run in the layer-by-layer step of shard.c, after tp.c's collectives
 * of the same layer (dim.c's table order), through the use_begin and
 * use_end hooks; O(1) events a layer.  A pipeline's stages take them as
 * waits instead (sim_group.ep_wait_s; pp.c).
 */
#include "sim_int.h"

#include <math.h>

#include "trace.h"

enum { EP_EV_HOLD };            /* an overlapped use's exposed minimum ends */

struct ep_worker {
    int flowing;                /* 1 while the use's flow moves */
    int wait;                   /* 1 once the use's compute ended, its all-to-alls not */
    double t0;                  /* when the wait began */
    double until;               /* overlap: the use ends no sooner, once its compute has */
    double hold;                /* overlap: ep_exposed of the use's all-to-alls alone */
    double exp;                 /* sum over measured steps of time waiting for them */
};

struct ep {
    int id;                     /* in the table of dimensions */
    struct coll_phase ph[SIM_MAX_GROUPS]; /* per train group: one all-to-all's flow */
    double alone[SIM_MAX_GROUPS];         /* and its time alone, s */
    struct ep_worker w[SIM_MAX_GROUPS];
};

static int active(const struct sim_comm *c)
{
    return c->ep > 1 && c->ep_nvl_bytes + c->ep_net_bytes > 0 && c->ep_fwd + c->ep_bwd > 0;
}

/* Train group i's flow of one all-to-all (sim_build.c's resources). */
static void phase_of(struct sim *s, struct ep *t, int i)
{
    const struct sim_config *cfg = s->cfg;
    const struct coll_group *cg = &s->ch[0].ctx.tg[i];
    const struct sim_group *g = NULL;
    struct coll_phase *ph = &t->ph[i];
    double nvl = cfg->c.ep_nvl_bytes, net = cfg->c.ep_net_bytes, a = nvl + net;
    double ppn, tn = 0, tl = 0;
    int nodes = coll_nodes(&s->ch[0].ctx);

    for (int k = 0, n = 0; k < cfg->ngroups; k++)
        if (cfg->groups[k].role == SIM_TRAIN && n++ == i)
            g = &cfg->groups[k];
    ppn = cg->wpn > 0 ? cg->wpn : 1;
    ph->lane = 0;
    ph->lat_s = 0;
    ph->amount = a;
    ph->bound = INFINITY;
    if (nvl > 0 && cg->r_intra >= 0) {
        coll_use(ph, cg->r_intra, nvl / a);
        tl = nvl / g->intra_Bps;
    }
    if (net > 0 && nodes > 1 && cg->r_tx >= 0) {
        coll_use(ph, cg->r_tx, ppn * net / a);
        coll_use(ph, cg->r_rx, ppn * net / a);
        coll_use(ph, s->ch[0].ctx.r_fabric, nodes * ppn * net / a);
        /* the network's cost beyond the bytes, before they flow */
        ph->lat_s = cfg->c.ep_net_lat_s;
        tn = ph->lat_s + ppn * net / g->nic_Bps;
    }
    t->alone[i] = fmax(tl, tn);
}

static void *ep_build(struct sim *s, int id)
{
    const struct coll_ctx *all = &s->ch[0].ctx;
    struct ep *t;

    if (!active(&s->cfg->c) || !sim_dims_layered(s->cfg))
        return NULL;
    t = x_calloc(1, sizeof *t);
    t->id = id;
    for (int i = 0; i < all->ntg; i++)
        phase_of(s, t, i);
    return t;
}

static void ep_free(void *st)
{
    x_free(st);
}

/* The use's all-to-alls: their number times its dilation. */
static double count_of(const struct sim *s, int bwd, double dil)
{
    return (bwd ? s->cfg->c.ep_bwd : s->cfg->c.ep_fwd) * dil;
}

static void finish(struct sim *s, struct ep *t, int wi)
{
    struct ep_worker *ew = &t->w[wi];

    ew->wait = 0;
    if (sim_measured(s, s->w[wi].step)) {
        s->w[wi].exposed += s->now - ew->t0;
        ew->exp += s->now - ew->t0;
    }
    sim_use_done(s, wi);
}

/* Start worker wi's all-to-alls of a use: n of them as one flow. */
static int start(struct sim *s, struct ep *t, int wi, int bwd, double dil)
{
    int g = s->w[wi].tg;
    const struct coll_phase *ph = &t->ph[g];
    double n = count_of(s, bwd, dil);

    t->w[wi].hold = s->cfg->c.ep_overlap ? s->cfg->c.ep_exposed * n * t->alone[g] : 0;
    if (!(n > 0) || !(ph->amount > 0) || ph->nuse == 0)
        return 0;
    t->w[wi].flowing = 1;
    if (s->cfg->trace)
        sim_trace_begin(s->cfg->trace, s->now, SIM_ACT_SHARD_FLOW, SIM_LANE_EP, wi, 0, -1,
                        ph->amount * n, ph->use, ph->nuse);
    sim_dim_flow(s, t->id, ph->amount * n, ph->bound, ph->use, ph->nuse, wi, 0, 0);
    return 1;
}

/* Overlap: the use's all-to-alls start as its compute starts. */
static int ep_use_begin(struct sim *s, void *st, int wi, int bwd, double dil)
{
    struct ep *t = st;

    if (!s->cfg->c.ep_overlap)
        return 0;
    t->w[wi].wait = 0;
    return start(s, t, wi, bwd, dil);
}

/* The use's compute ended: its all-to-alls start, or what is left of them
 * (and at least the hold) is waited for. */
static int ep_use_end(struct sim *s, void *st, int wi, int bwd, double dil)
{
    struct ep *t = st;
    struct ep_worker *ew = &t->w[wi];

    ew->t0 = s->now;
    if (s->cfg->c.ep_overlap) {
        ew->until = s->now + ew->hold;
        if (!ew->flowing && !(ew->hold > 0))
            return 0;
        ew->wait = 1;
        if (!ew->flowing)
            sim_dim_push(s, t->id, EP_EV_HOLD, ew->until, wi, 0, 0);
        return 1;
    }
    if (!start(s, t, wi, bwd, dil))
        return 0;
    ew->wait = 1;
    return 1;
}

static void ep_event(struct sim *s, void *st, int kind, int a, int b, int c)
{
    (void)kind;
    (void)b;
    (void)c;
    finish(s, st, a);
}

static void ep_flow_done(struct sim *s, void *st, int a, int b, int c)
{
    struct ep *t = st;
    struct ep_worker *ew = &t->w[a];

    (void)b;
    (void)c;
    ew->flowing = 0;
    if (s->cfg->trace)
        sim_trace_end(s->cfg->trace, s->now, SIM_ACT_SHARD_FLOW, SIM_LANE_EP, a, 0);
    if (!ew->wait)
        return;             /* the compute goes on; its end takes the use */
    if (sim_dim_hold(s, t->id, EP_EV_HOLD, ew->until, a))
        return;
    finish(s, t, a);
}

static void ep_collect(const struct sim *s, const void *st, int slow, struct sim_result *res)
{
    const struct ep *t = st;

    res->ep_comm_s = t->w[slow].exp / s->cfg->steps;
}

/* ---- about a config ---------------------------------------------------- */

static int ep_check(const struct sim_config *cfg, struct dt_err *e)
{
    const struct sim_comm *c = &cfg->c;

    if (c->ep < 0 || c->ep > 1 << 20)
        return dt_errf(e, "sim: expert parallelism %d, expected 1 to 1048576 (0: none)", c->ep);
    if (sim_bad_num(c->ep_nvl_bytes) || sim_bad_num(c->ep_net_bytes) || sim_bad_num(c->ep_fwd) ||
        sim_bad_num(c->ep_bwd) || sim_bad_num(c->ep_net_lat_s))
        return dt_errf(e, "sim: expert-parallel all-to-alls of %g and %g bytes, %g and %g a "
                       "layer; expected finite numbers >= 0", c->ep_nvl_bytes, c->ep_net_bytes,
                       c->ep_fwd, c->ep_bwd);
    if (active(c) && sim_is_ps(c->strategy))
        return dt_errf(e, "sim: expert parallelism %d with strategy %s, expected an all-reduce "
                       "strategy", c->ep, sim_strategy_name(c->strategy));
    if (active(c) && !(c->ep_exposed > 0 && c->ep_exposed <= 1))
        return dt_errf(e, "sim: expert-parallel all-to-alls' exposed share %g, expected a "
                       "fraction in (0, 1]", c->ep_exposed);
    return 0;
}

static int ep_layered(const struct sim_config *cfg)
{
    return active(&cfg->c) && cfg->c.pp <= 1;
}

const struct sim_dim_ops sim_dim_ep = {
    .name = "ep",
    .check = ep_check,
    .layered = ep_layered,
    .build = ep_build,
    .free = ep_free,
    .event = ep_event,
    .flow_done = ep_flow_done,
    .use_begin = ep_use_begin,
    .use_end = ep_use_end,
    .collect = ep_collect,
};
