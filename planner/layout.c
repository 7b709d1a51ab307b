/*
 * layout.c - the layout search: the parallel layout and micro-batch of one
 * cluster when the scenario leaves them to the planner (gradients.sharding,
 * parallel.tp, parallel.pp, recompute or batch_per_gpu: auto;
 * docs/scenario.md), over a cluster's own parallel: section when it has
 * one.  It walks every combination of the parallel dimensions in
 * layout_dims.h's table (tensor-parallel size, pipeline depth, chunks a
 * stage, recompute, sharding stage: each row says which values it tries),
 * first row outermost, and grows each combination's micro-batch (powers of
 * two that the global batch allows, or the scenario's).  Each candidate is
 * checked against memory first (memory.h) and the rows' own checks, and
 * simulated when it fits.  The best is the fastest per sample; a later
 * candidate must beat an earlier one by more than LAYOUT_MARGIN, so that near
 * ties keep the simpler layout (each row gives its values simplest first) and
 * the smaller batch.  Its reason names the combinations that do not fit, by
 * how much, and the runner-up.  Nothing here names a dimension: a new one is
 * a row of layout_dims.c.
 *
 * Cost: the combinations the rows allow (at most layout_dims_most(), 396,900)
 * x 21 micro-batches, pruned: by memory, by the rows' checks (a pipeline's
 * micro-batches not a multiple of pp when interleaved), and by growth: a
 * combination stops growing its micro-batch once doubling it gains no more
 * than the margin.  Candidates are ranked on LAYOUT_RANK_STEPS simulated
 * steps after one warm-up, and the one chosen is simulated again as the
 * scenario says.
 */
#include "planner.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "layout_dims.h"
#include "memory.h"
#include "plan_int.h"
#include "../base/memo.h"
#include "../base/units.h"
#include "../base/xmem.h"

#define LAYOUT_MARGIN 0.005
#define LAYOUT_RANK_STEPS 1
#define LAYOUT_MEMO_BYTES ((size_t)64 << 20)    /* a search's kept schedules, at most */
#define LAYOUT_MAX_BATCH_STEPS 21   /* 1 to 2^20 */

/* The most a GPU (or CPU worker) of cl needs under t's layout, over what it
 * may use: <= 1 fits. */
static double memory_ratio(const struct scenario *t, const struct sc_cluster *cl, int k,
                           double *need_gib, double *cap_gib)
{
    double worst = 0;

    for (int i = 0; i < cl->ngroups; i++) {
        const struct cat_instance *in = cl->groups[i].inst;
        struct mem_use u;
        if (cl->groups[i].role != SIM_TRAIN)
            continue;
        memory_of(t, t->parallel.sharding, in, k, in->gpu_count > 0 ? in->gpu_count : 1, &u);
        if (u.total / u.capacity > worst || !(worst > 0)) {
            worst = u.total / u.capacity;
            *need_gib = u.total / DT_GIB;
            *cap_gib = u.capacity / DT_GIB;
        }
    }
    return worst;
}

/* What each combination of the dimensions came to: its best candidate, or
 * why none fitted. */
struct combo {
    int tried, fits;
    int val[LAYOUT_NDIMS];       /* a value of each row of layout_dims[] */
    double rate;                 /* samples/s of its best candidate */
    int batch;
    double need_gib;             /* memory at its smallest micro-batch */
    int stop;                    /* why its micro-batch stopped growing: STOP_* */
    double stop_gib;             /* STOP_MEMORY: what the next one needs */
};

enum { STOP_FIXED = 0, STOP_GLOBAL, STOP_MEMORY, STOP_GAIN };

/* One cluster's search as it goes. */
struct search {
    const struct scenario *sc;   /* as given, its auto flags set */
    const struct sc_cluster *cl;
    struct sc_parallel trial;    /* the layout under trial: sc's, auto flags cleared, the
                                    combination tried applied; the only thing a trial varies */
    struct scenario *t;          /* what the planner evaluates: sc with the trial as its
                                    parallel section (view) */
    int ranks;                   /* train workers */
    const struct plan_eval_opts *rank;  /* the ranking's simulation settings */
    struct combo *cb;            /* the combinations tried, room for cap_cb, grown as they
                                    are (the rows allow 396,900; a search tries hundreds) */
    int ncb, cap_cb;
    int last;                    /* the last one tried; -1: none yet */
    struct plan_cluster *cand;   /* the candidate just simulated */
    struct plan_cluster *pc;     /* the best so far, when have */
    int have, nfit, nsim;
    double cap_gib;              /* usable memory a GPU, from a candidate that did not fit */
    struct dt_err *e;
};

/* Whether combination c is the layout pc ran. */
static int is_layout(const struct combo *c, const struct plan_cluster *pc)
{
    int val[LAYOUT_NDIMS], same = c->fits;

    layout_dims_of_result(pc, val);
    for (int d = 0; d < LAYOUT_NDIMS && same; d++)
        same = c->val[d] == val[d];
    return same;
}

static void explain(const struct scenario *sc, const struct plan_cluster *best,
                    const struct combo *cb, int ncb, int nfit, double cap_gib, char *buf,
                    size_t cap)
{
    size_t n = 0;
    int over = 0, runner = -1, mine = -1, close = -1, nover = 0;
    int searched = scenario_dims_auto(sc);
    char a[96], b[96];

    for (int i = 0; i < ncb; i++)
        if (is_layout(&cb[i], best))
            mine = i;
    if (nfit > 0)
        n += (size_t)snprintf(buf + n, cap - n, "%s, batch_per_gpu %d (grad_accum %d), chosen "
                              "from %d layout%s that fit",
                              mine >= 0 ? layout_dims_name(sc, cb[mine].val, a, sizeof a)
                                        : scenario_sharding_name(best->sharding),
                              best->batch_per_gpu, best->grad_accum, nfit, nfit == 1 ? "" : "s");
    else
        n += (size_t)snprintf(buf + n, cap - n, "no layout fits; shown: %s, batch_per_gpu %d",
                              ncb > 0 ? layout_dims_name(sc, cb[ncb - 1].val, a, sizeof a)
                                      : scenario_sharding_name(best->sharding),
                              best->batch_per_gpu);
    for (int i = 0; i < ncb; i++)
        if (cb[i].tried && !cb[i].fits && (close < 0 || cb[i].need_gib < cb[close].need_gib))
            close = i, nover++;
        else if (cb[i].tried && !cb[i].fits)
            nover++;
    if (nover > 4 && n < cap) {
        /* many: how many, and the one that came closest */
        n += (size_t)snprintf(buf + n, cap - n, "; %d do not fit at batch_per_gpu %d, the "
                              "closest %s at %.1f GiB a GPU, over the %.1f GiB usable", nover,
                              sc->parallel.micro_batch_auto ? 1 : sc->parallel.micro_batch,
                              layout_dims_name(sc, cb[close].val, a, sizeof a), cb[close].need_gib,
                              cap_gib);
    } else {
        for (int i = 0; i < ncb && n < cap; i++) {
            if (!cb[i].tried || cb[i].fits)
                continue;
            n += (size_t)snprintf(buf + n, cap - n, "%s%s needs %.1f GiB a GPU",
                                  over ? ", " : "; ", layout_dims_name(sc, cb[i].val, a, sizeof a),
                                  cb[i].need_gib);
            over = 1;
        }
        if (over && n < cap)
            n += (size_t)snprintf(buf + n, cap - n, " at batch_per_gpu %d, over the %.1f GiB "
                                  "usable", sc->parallel.micro_batch_auto ? 1 : sc->parallel.micro_batch, cap_gib);
    }
    for (int i = 0; i < ncb; i++)
        if (cb[i].fits && i != mine && (runner < 0 || cb[i].rate > cb[runner].rate))
            runner = i;
    if (runner >= 0 && n < cap && best->res.samples_per_s > cb[runner].rate)
        n += (size_t)snprintf(buf + n, cap - n, "; %.1f%% faster than %s (batch_per_gpu %d)",
                              100 * (best->res.samples_per_s / cb[runner].rate - 1),
                              layout_dims_name(sc, cb[runner].val, b, sizeof b), cb[runner].batch);
    else if (runner >= 0 && n < cap)
        n += (size_t)snprintf(buf + n, cap - n, "; within %.1f%% of %s (batch_per_gpu %d), which "
                              "moves more or holds more, so the simpler is kept",
                              100 * (cb[runner].rate / best->res.samples_per_s - 1),
                              layout_dims_name(sc, cb[runner].val, b, sizeof b), cb[runner].batch);
    else if (n < cap && nfit > 0 && searched)
        n += (size_t)snprintf(buf + n, cap - n, "; the only one that fits");
    if (mine >= 0 && n < cap) {
        if (cb[mine].stop == STOP_GLOBAL)
            n += (size_t)snprintf(buf + n, cap - n, "; a larger micro-batch would pass the global "
                                  "batch");
        else if (cb[mine].stop == STOP_MEMORY)
            n += (size_t)snprintf(buf + n, cap - n, "; batch_per_gpu %d needs %.1f GiB a GPU, "
                                  "over the %.1f usable", 2 * cb[mine].batch, cb[mine].stop_gib,
                                  cap_gib);
        else if (cb[mine].stop == STOP_GAIN)
            n += (size_t)snprintf(buf + n, cap - n, "; doubling it gains under %.1f%%",
                                  100 * LAYOUT_MARGIN);
    }
    if (n < cap && nfit > 0)
        snprintf(buf + n, cap - n, "; %.400s", best->bound_text);
}

/* The scenario the planner evaluates under the trial: the trial layout as
 * its parallel section, every other section the scenario's. */
static const struct scenario *view(struct search *s)
{
    s->t->parallel = s->trial;
    return s->t;
}

/* Grow combination c's micro-batch under its layout s->trial (batch_per_gpu
 * auto: 1, 2, 4, ... while it fits memory, the global batch and gains; else
 * the scenario's), keeping the fastest candidate in *s->pc. */
static int grow(struct search *s, struct combo *c)
{
    const struct scenario *sc = s->sc;
    const struct scenario *t;
    struct plan_cluster *cand = s->cand, *pc = s->pc;
    int k = s->ranks, rc;
    int mp = layout_dims_ranks(c->val, LAYOUT_NDIMS);   /* a replica's GPUs: tp x pp x cp */

    for (int j = 0; j < LAYOUT_MAX_BATCH_STEPS; j++) {
        int b = sc->parallel.micro_batch_auto ? 1 << j : sc->parallel.micro_batch;
        double need = 0, capg = 0;
        if (sc->parallel.micro_batch_auto && (double)b * (k / mp) > sc->workload.global_batch) {
            c->stop = STOP_GLOBAL;
            break;  /* one micro-batch would pass the global batch */
        }
        s->trial.micro_batch = b;
        t = view(s);
        if (!layout_dims_fit(t, s->cl)) {
            if (!sc->parallel.micro_batch_auto)
                break;
            continue;   /* a row's own check: a pipeline's micro-batches not a multiple of pp */
        }
        c->tried = 1;
        if (memory_ratio(t, s->cl, k, &need, &capg) > 1) {
            if (!c->fits && !(c->need_gib > 0))
                c->need_gib = need;
            c->stop = STOP_MEMORY;
            c->stop_gib = need;
            s->cap_gib = capg;
            break;  /* larger micro-batches need more */
        }
        if ((rc = plan_cluster_eval_one(t, s->cl, s->rank, cand, s->e)) != 0)
            return rc;
        s->nsim++;
        if (c->fits && sc->parallel.micro_batch_auto &&
            !(cand->res.samples_per_s > c->rate * (1 + LAYOUT_MARGIN))) {
            s->nfit++;
            c->stop = STOP_GAIN;
            break;  /* a larger micro-batch gains nothing more */
        }
        if (!c->fits || cand->res.samples_per_s > c->rate) {
            c->rate = cand->res.samples_per_s;
            c->batch = b;
        }
        c->fits = 1;
        s->nfit++;
        if (!s->have || (cand->feasible && !pc->feasible) ||
            (cand->feasible == pc->feasible &&
             cand->res.samples_per_s > pc->res.samples_per_s * (1 + LAYOUT_MARGIN))) {
            *pc = *cand;
            s->have = 1;
        }
        if (!sc->parallel.micro_batch_auto)
            break;
    }
    return 0;
}

/* layout_dims_walk's visit: combination val, its micro-batches grown; kept
 * in s->cb when one of them was tried. */
static int try_combo(const int *val, void *arg)
{
    struct search *s = arg;
    struct combo *c;
    int rc;

    if (s->ncb == s->cap_cb) {
        s->cap_cb = s->cap_cb ? 2 * s->cap_cb : 64;
        s->cb = x_realloc(s->cb, (size_t)s->cap_cb * sizeof *s->cb);
    }
    c = &s->cb[s->ncb];
    memset(c, 0, sizeof *c);
    memcpy(c->val, val, sizeof c->val);
    layout_dims_apply(&s->trial, val);
    rc = grow(s, c);
    if (rc == 0 && c->tried)
        s->last = s->ncb++;
    else if (rc == 0)
        memset(c, 0, sizeof *c);
    return rc;
}

static int layout_eval(const struct scenario *sc, const struct sc_cluster *cl,
                       const struct plan_eval_opts *o, struct plan_cluster *pc, struct dt_err *e)
{
    struct search s = {0};
    struct layout_space space;
    struct plan_eval_opts rank = *o, full = *o;
    struct memo *own = NULL;
    int rc = 0;

    rank.whatif = 0;    /* the candidates are ranked; the chosen one is named (bound.c) */
    if (!scenario_dims_auto(sc) && !sc->parallel.micro_batch_auto)
        return plan_cluster_eval_one(sc, cl, o, pc, e);
    layout_dims_space(sc, cl, &space);
    /* the layouts that share a pipeline schedule run it once */
    if (!o->memo)
        own = memo_new(LAYOUT_MEMO_BYTES);
    rank.memo = full.memo = o->memo ? o->memo : own;
    if (!o->trace) {
        rank.steps = LAYOUT_RANK_STEPS;
        rank.warmup = 1;
    }
    s.sc = sc;
    s.cl = cl;
    s.ranks = space.ranks;
    s.rank = &rank;
    s.last = -1;
    s.pc = pc;
    s.e = e;
    s.t = x_malloc(sizeof *s.t);
    s.cand = x_malloc(sizeof *s.cand);
    *s.t = *sc;
    s.trial = sc->parallel;
    scenario_parallel_fixed(&s.trial);
    if ((rc = layout_dims_walk(&space, try_combo, &s)) != 0)
        goto out;
    /* the chosen layout as the scenario says to simulate it; when nothing
     * fits, the last combination tried at the smallest batch, reported
     * infeasible (or, none tried, the last one walked at the scenario's tp
     * and pp) */
    if (s.have) {
        double ranked = pc->res.samples_per_s;
        int best[LAYOUT_NDIMS];
        layout_dims_of_result(pc, best);
        layout_dims_apply(&s.trial, best);
        s.trial.micro_batch = pc->batch_per_gpu;
        if ((rc = plan_cluster_eval_one(view(&s), cl, &full, pc, e)) != 0)
            goto out;
        /* the others as ranked, on the chosen one's terms */
        for (int i = 0; i < s.ncb; i++)
            if (s.cb[i].fits)
                s.cb[i].rate *= pc->res.samples_per_s / ranked;
    } else {
        if (s.last >= 0) {
            layout_dims_apply(&s.trial, s.cb[s.last].val);
        } else {
            s.trial.tp = sc->parallel.tp > 1 ? sc->parallel.tp : 1;
            s.trial.pp = sc->parallel.pp > 1 ? sc->parallel.pp : 1;
        }
        s.trial.micro_batch = sc->parallel.micro_batch_auto ? 1 : sc->parallel.micro_batch;
        if ((rc = plan_cluster_eval_one(view(&s), cl, &full, pc, e)) != 0)
            goto out;
    }
    pc->nsim = s.nsim + 1;
    /* the simulated config pointed into the copy */
    pc->cfg.c.bucket_list = sc->gradients.nbucket_list > 0 ? sc->gradients.bucket_list : NULL;
    explain(sc, pc, s.cb, s.ncb, s.nfit, s.cap_gib, pc->layout_why, sizeof pc->layout_why);
out:
    memo_free(own);
    x_free(s.cb);
    x_free(s.cand);
    x_free(s.t);
    return rc;
}

/* The least footprint as plan_layout_least_memory() walks it. */
struct least {
    const struct scenario *sc;   /* with the cluster's own parallel: section */
    struct scenario *t;          /* sc under the combination tried */
    const struct sc_cluster *cl;
    int ranks;
    int is_ps;                   /* parameter servers: the workers shard nothing */
    double ratio;                /* the smallest share of usable memory so far; INFINITY none */
    struct mem_use u;
    int val[LAYOUT_NDIMS];
};

static int least_visit(const int *val, void *arg)
{
    struct least *q = arg;
    struct sc_parallel *par = &q->t->parallel;
    double worst = -1;
    struct mem_use w;

    *par = q->sc->parallel;
    scenario_parallel_fixed(par);
    layout_dims_apply(par, val);
    par->micro_batch = q->sc->parallel.micro_batch_auto ? 1 : q->sc->parallel.micro_batch;
    memset(&w, 0, sizeof w);
    for (int i = 0; i < q->cl->ngroups; i++) {
        const struct cat_instance *in = q->cl->groups[i].inst;
        struct mem_use u;
        if (q->cl->groups[i].role != SIM_TRAIN)
            continue;
        memory_of(q->t, q->is_ps ? SC_SHARD_NONE : par->sharding, in, q->ranks,
                  in->gpu_count > 0 ? in->gpu_count : 1, &u);
        if (worst < 0 || u.total / u.capacity > worst) {
            worst = u.total / u.capacity;
            w = u;
        }
    }
    /* the simplest of equals: the walk gives each row's values simplest first */
    if (worst >= 0 && worst < q->ratio) {
        q->ratio = worst;
        q->u = w;
        memcpy(q->val, val, sizeof q->val);
    }
    return 0;
}

double plan_layout_least_memory(const struct scenario *sc, const struct sc_cluster *cl,
                                struct mem_use *u, char *name, size_t len)
{
    struct least q;
    struct layout_space space;
    struct scenario *own = x_malloc(sizeof *own);

    memset(&q, 0, sizeof q);
    scenario_for_cluster(sc, cl, own);
    q.sc = own;
    q.t = x_malloc(sizeof *q.t);
    *q.t = *own;
    q.cl = cl;
    q.ratio = INFINITY;
    layout_dims_space(own, cl, &space);
    q.ranks = space.ranks;
    q.is_ps = space.is_ps;
    layout_dims_walk(&space, least_visit, &q);
    memset(u, 0, sizeof *u);
    if (len > 0)
        name[0] = '\0';
    if (isfinite(q.ratio)) {
        *u = q.u;
        if (len > 0 && scenario_dims_auto(own))
            layout_dims_name(own, q.val, name, len);
    }
    x_free(q.t);
    x_free(own);
    return q.ratio;
}

int plan_cluster_eval(const struct scenario *sc, const struct sc_cluster *cl,
                      const struct plan_eval_opts *o, struct plan_cluster *pc, struct dt_err *e)
{
    struct scenario *t = x_malloc(sizeof *t);
    int rc;

    /* the cluster's own parallel: section, micro-batch and accumulation
     * over the scenario's */
    if (!scenario_for_cluster(sc, cl, t)) {
        x_free(t);
        return layout_eval(sc, cl, o, pc, e);
    }
    rc = layout_eval(t, cl, o, pc, e);
    pc->cfg.c.bucket_list = sc->gradients.nbucket_list > 0 ? sc->gradients.bucket_list : NULL;
    x_free(t);
    return rc;
}
