/*
 * sim.c - the step simulator: a discrete-event loop over fluid flows.
 *
 * Actors, one of each per distinct group (identical nodes are simulated
 * once, their number carried as multiplicities on shared resources):
 *   - a worker per train group: wait for a batch, forward, backward (which
 *     releases gradient buckets), wait for the last bucket, optimizer;
 *   - input producers per train group, built by the input pipelines
 *     (input.h: the local loader, and data nodes as a service through the
 *     NIC), running ahead of the worker up to the prefetch depth;
 *   - a collective chain: per gradient bucket, the phases of the chosen
 *     algorithm (coll_*.c), started when every member released the bucket
 *     (synchronous) or its own worker did (asynchronous PS).
 * Flows share resources max-min fairly (maxmin.c).  The main loop advances
 * to the earlier of the next event and the next flow completion, as
 * SimGrid's solve loop does.  Events are O(log n); each flow-set change
 * re-solves the sharing, O(flows x uses).  Cost per simulated step is
 * O(buckets x phases), independent of the number of GPUs.
 *
 * The parallel dimensions (dim.h: sharding, tensor and pipeline
 * parallelism) plug in through dim.c's table: their events and flows come
 * back to them by the table index they carry, and a layer-by-layer step is
 * the stepper dimension's.  sim_build.c sets a run up, sim_check.c
 * validates a config and sim_stats.c turns a finished run into struct
 * sim_result; sim_int.h holds the state they share.
 */
#include "sim.h"

#include <assert.h>
#include <math.h>
#include <string.h>

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_rng.h>

#include "sim_int.h"
#include "trace.h"
#include "../base/names.h"


static const char *const roles[] = { "train", "data", "ps", NULL };

const char *sim_role_name(int r) { return NAMES_AT(roles, r); }
int sim_role_parse(const char *name) { return names_parse(sim_role_name, name); }

/* ---- jitter ------------------------------------------------------------ */

/* Lognormal multiplier with mean 1 and coefficient of variation cv, taken as
 * the maximum over `ranks` independent draws (the slowest of identical ranks)
 * in O(1): if F is the CDF of one draw, the maximum has CDF F^ranks, so
 * X = F^-1(U^(1/ranks)). */
static double jitter(struct sim *s, double ranks)
{
    double cv = s->cfg->jitter_cv, sigma, u, z;

    if (cv <= 0)
        return 1;
    sigma = sqrt(log1p(cv * cv));
    u = gsl_rng_uniform_pos(s->rng);
    u = pow(u, 1.0 / ranks);
    if (u >= 1)
        u = nextafter(1.0, 0.0);
    z = gsl_cdf_ugaussian_Pinv(u);
    return exp(sigma * z - 0.5 * sigma * sigma);
}

/* ---- input producers --------------------------------------------------- */

static void stage_start(struct sim *s, int wi, int pi, int st);
static void worker_try_consume(struct sim *s, int wi);

static int prod_limit(const struct sim *s, const struct worker *w)
{
    int inflight = 0;
    for (int p = 0; p < w->nprod; p++)
        inflight += w->prod[p].inflight;
    if (s->cfg->w.prefetch == 0)
        return (w->state == W_WAIT_BATCH && w->ready == 0 && inflight == 0) ? 1 : 0;
    return s->cfg->w.prefetch * w->nprod - inflight - w->ready;
}

/* Start new batches on idle producers while the prefetch depth allows. */
static void producers_kick(struct sim *s, int wi)
{
    struct worker *w = &s->w[wi];
    if (w->state == W_DONE)
        return;
    for (int p = 0; p < w->nprod; p++) {
        struct producer *pr = &w->prod[p];
        if (pr->busy[0] || pr->queued[0] > 0)
            continue;
        if (prod_limit(s, w) <= 0)
            return;
        pr->inflight++;
        stage_start(s, wi, p, 0);
    }
}

static void stage_start(struct sim *s, int wi, int pi, int st)
{
    struct producer *pr = &s->w[wi].prod[pi];
    const struct input_stage *sg = &pr->line.st[st];

    pr->busy[st] = 1;
    if (s->cfg->trace && sg->amount > 0)
        sim_trace_begin(s->cfg->trace, s->now, SIM_ACT_STAGE, wi, pi, st, -1, sg->amount,
                        sg->use, sg->nuse);
    if (sg->amount <= 0 || sg->nuse == 0)
        evq_push(&s->q, s->now, EV_STAGE_NOW, wi, pi, st);
    else
        mm_add_flow(&s->mm, sg->amount, sg->bound, sg->use, sg->nuse, FL_STAGE, wi, pi, st);
}

static void stage_done(struct sim *s, int wi, int pi, int st)
{
    struct worker *w = &s->w[wi];
    struct producer *pr = &w->prod[pi];

    pr->busy[st] = 0;
    if (s->cfg->trace)
        sim_trace_end(s->cfg->trace, s->now, SIM_ACT_STAGE, wi, pi, st);
    if (st + 1 < pr->line.nst) {
        if (pr->busy[st + 1])
            pr->queued[st + 1]++;
        else
            stage_start(s, wi, pi, st + 1);
    } else {
        pr->inflight--;
        w->ready++;
        if (s->cfg->trace)
            sim_trace_ready(s->cfg->trace, s->now, wi, w->ready);
        worker_try_consume(s, wi);
    }
    if (pr->queued[st] > 0) {
        pr->queued[st]--;
        stage_start(s, wi, pi, st);
    }
    producers_kick(s, wi);
}

/* ---- collective chain -------------------------------------------------- */

static void chain_try(struct sim *s, int ci, int b, int p);

static void phase_done(struct sim *s, int ci, int b, int p);

static void chain_slow(struct sim *s, int ci);

static void phase_flow(struct sim *s, int ci, int b, int p)
{
    struct chain *c = &s->ch[ci];
    const struct coll_phase *ph = chain_phase(c, b, p);
    if (s->cfg->trace && ph->amount > 0)
        sim_trace_begin(s->cfg->trace, s->now, SIM_ACT_PHASE_FLOW, ci, b, p, -1, ph->amount,
                        ph->use, ph->nuse);
    if (ph->amount <= 0 || ph->nuse == 0)
        phase_done(s, ci, b, p);
    else
        mm_add_flow(&s->mm, ph->amount, ph->bound, ph->use, ph->nuse, FL_PHASE, ci, b, p);
}

static void chain_try(struct sim *s, int ci, int b, int p)
{
    struct chain *c = &s->ch[ci];
    const struct coll_phase *ph;
    int lane;

    if (b >= c->nb || p >= c->nph || c->started[b * c->nph + p])
        return;
    if (p == 0 ? c->ready_cnt[b] < c->nmem || (s->cfg->c.cycle_s > 0 && !c->ticked[b])
               : !c->done[b * c->nph + p - 1])
        return;
    ph = chain_phase(c, b, p);
    lane = ph->lane;
    if (b > 0 && !c->done[(b - 1) * c->nph + c->last_in_lane[lane]])
        return;
    c->started[b * c->nph + p] = 1;
    if (c->active++ == 0)
        chain_slow(s, ci);
    if (s->cfg->trace)
        sim_trace_begin(s->cfg->trace, s->now, SIM_ACT_PHASE, ci, b, p, -1, ph->amount, NULL, 0);
    if (ph->lat_s > 0)
        evq_push(&s->q, s->now + ph->lat_s, EV_PHASE_LAT, ci, b, p);
    else
        phase_flow(s, ci, b, p);
}

#define worker_start_opt sim_worker_start_opt

static void chain_bucket_done(struct sim *s, int ci)
{
    struct chain *c = &s->ch[ci];

    if (++c->buckets_done < c->nb)
        return;
    /* Every bucket is shared: reset for the next step, release the members. */
    c->buckets_done = 0;
    memset(c->ready_cnt, 0, (size_t)c->nb * sizeof *c->ready_cnt);
    memset(c->started, 0, (size_t)c->nb * c->nph);
    memset(c->done, 0, (size_t)c->nb * c->nph);
    memset(c->ticked, 0, (size_t)c->nb);
    for (int i = 0; i < c->nmem; i++)
        worker_start_opt(s, c->mem[i]);
}

static void phase_done(struct sim *s, int ci, int b, int p)
{
    struct chain *c = &s->ch[ci];

    c->done[b * c->nph + p] = 1;
    if (--c->active == 0)
        chain_slow(s, ci);
    if (s->cfg->trace) {
        sim_trace_end(s->cfg->trace, s->now, SIM_ACT_PHASE_FLOW, ci, b, p);
        sim_trace_end(s->cfg->trace, s->now, SIM_ACT_PHASE, ci, b, p);
    }
    if (p + 1 < c->nph) {
        chain_try(s, ci, b, p + 1);
    } else {
        chain_bucket_done(s, ci);
        if (c->buckets_done == 0)
            return; /* step finished and state reset */
    }
    for (int q = 0; q < c->nph; q++)
        chain_try(s, ci, b + 1, q);
}

static void chain_bucket_ready(struct sim *s, int ci, int b)
{
    struct chain *c = &s->ch[ci];

    c->ready_cnt[b]++;
    if (c->nph == 0) {
        if (c->ready_cnt[b] == c->nmem)
            chain_bucket_done(s, ci);
        return;
    }
    /* A background loop (Horovod's) starts what is ready on its next tick. */
    if (s->cfg->c.cycle_s > 0) {
        double cyc = s->cfg->c.cycle_s;
        if (c->ready_cnt[b] == c->nmem && !c->tick_pending) {
            c->tick_pending = 1;
            evq_push(&s->q, cyc * (floor(s->now / cyc) + 1), EV_TICK, ci, 0, 0);
        }
        return;
    }
    chain_try(s, ci, b, 0);
}

/* A tick of the background loop: every bucket all members have released
 * starts now. */
static void chain_tick(struct sim *s, int ci)
{
    struct chain *c = &s->ch[ci];

    c->tick_pending = 0;
    for (int b = 0; b < c->nb; b++)
        if (c->ready_cnt[b] == c->nmem && !c->ticked[b]) {
            c->ticked[b] = 1;
            chain_try(s, ci, b, 0);
        }
}

/* ---- workers ----------------------------------------------------------- */

/* Trace hooks (trace.h): end one activity of worker wi and begin the next;
 * SIM_NACT for none.  One branch when tracing is off. */
void sim_tr_worker(struct sim *s, int wi, int end, int begin)
{
    struct sim_trace *t = s->cfg->trace;

    if (!t)
        return;
    if (end != SIM_NACT)
        sim_trace_end(t, s->now, (enum sim_act)end, wi, 0, 0);
    if (begin != SIM_NACT)
        sim_trace_begin(t, s->now, (enum sim_act)begin, wi, 0, 0, s->w[wi].step, 0, NULL, 0);
}

#define tr_worker sim_tr_worker

static void tr_bucket(struct sim *s, int wi, int b)
{
    if (s->cfg->trace)
        sim_trace_begin(s->cfg->trace, s->now, SIM_ACT_BUCKET, s->w[wi].chain, b, wi,
                        s->w[wi].step, s->ch[s->w[wi].chain].bbytes[b], NULL, 0);
}

int sim_measured(const struct sim *s, int step)
{
    return step >= s->cfg->warmup;
}

#define measured sim_measured

/* Of a step's backward passes, the share that releases gradients: under
 * accumulation the first n - 1 micro-batches' gradients stay local (DDP's
 * no_sync, and every framework that accumulates before reducing) and the
 * buckets fill during the last micro-batch's backward alone, so the
 * backward passes before it run with the forward ones (docs/model.md,
 * "Step semantics"). */
static double last_bwd_share(const struct sim_config *cfg)
{
    return cfg->w.accum > 1 ? 1.0 / cfg->w.accum : 1;
}

/* The forward phase of a step: its forward passes and the backward passes
 * that release nothing. */
static double fwd_phase_s(const struct sim_config *cfg, const struct sim_group *g)
{
    return g->fwd_s + g->bwd_s * (1 - last_bwd_share(cfg));
}

static void worker_start_step(struct sim *s, int wi)
{
    struct worker *w = &s->w[wi];

    w->state = W_WAIT_BATCH;
    w->t_wait0 = s->now;
    tr_worker(s, wi, SIM_NACT, SIM_ACT_WAIT_BATCH);
    w->m = jitter(s, sim_is_async(s->cfg) ? 1 : w->ranks);
    worker_try_consume(s, wi);
    producers_kick(s, wi);
}

static void worker_try_consume(struct sim *s, int wi)
{
    struct worker *w = &s->w[wi];
    const struct sim_group *g = &s->cfg->groups[w->g];

    if (w->state != W_WAIT_BATCH || w->ready == 0)
        return;
    w->ready--;
    tr_worker(s, wi, SIM_ACT_WAIT_BATCH, SIM_ACT_FWD);
    if (s->cfg->trace)
        sim_trace_ready(s->cfg->trace, s->now, wi, w->ready);
    if (measured(s, w->step))
        w->stall += s->now - w->t_wait0;
    if (s->stepper >= 0) {
        sim_dims[s->stepper]->step_begin(s, s->dim[s->stepper], wi);
        return;
    }
    w->state = W_FWD;
    w->t_fwd0 = s->now;
    evq_push(&s->q, s->now + fwd_phase_s(s->cfg, g) * w->m, EV_FWD_DONE, wi, 0, 0);
}

double sim_slowdown(const struct sim *s, const struct worker *w)
{
    double f = s->cfg->groups[w->g].comm_slowdown;
    return f > 1 ? f : 1;
}

/* Backward as work at a rate (a group with a comm_slowdown): bring the work
 * done up to now, and queue the next event of the pass at the current rate,
 * the next bucket's release or the end, as generation bwd_gen. */
static void bwd_advance(struct sim *s, struct worker *w)
{
    w->bwd_done += (s->now - w->bwd_t) * w->bwd_rate;
    if (w->bwd_done > w->bwd_total)
        w->bwd_done = w->bwd_total;
    w->bwd_t = s->now;
}

static void bwd_schedule(struct sim *s, int wi)
{
    struct worker *w = &s->w[wi];
    const struct chain *c = &s->ch[w->chain];
    double total = s->cfg->w.grad_bytes, at = w->bwd_total;

    w->bwd_rate = c->active > 0 ? 1 / sim_slowdown(s, w) : 1;
    w->bwd_gen++;
    if (s->cfg->c.overlap && w->next_bucket + 1 < c->nb) {
        at = w->bwd_total * (c->cum[w->next_bucket] / total);
        evq_push(&s->q, s->now + fmax(0, at - w->bwd_done) / w->bwd_rate, EV_BUCKET, wi,
                 w->next_bucket, w->bwd_gen);
        return;
    }
    evq_push(&s->q, s->now + fmax(0, at - w->bwd_done) / w->bwd_rate, EV_BWD_DONE, wi, 0,
             w->bwd_gen);
}

/* The chain's collectives started or all ended: its members' backward
 * passes change speed.  Marked here, brought in line once the events of
 * the instant are handled (sim_apply_slow): a bucket's collective that ends
 * as the next one starts changes no rate, and its members' next events stand. */
static void chain_slow(struct sim *s, int ci)
{
    s->ch[ci].slow_mark = 1;
    s->slow_pending = 1;
}

/* Each marked chain's members in backward whose rate is no longer the one
 * the chain's collectives give: their work brought up to now and their next
 * event queued at the new rate.  Before the clock moves. */
static void sim_apply_slow(struct sim *s)
{
    s->slow_pending = 0;
    for (int ci = 0; ci < s->nch; ci++) {
        struct chain *c = &s->ch[ci];
        if (!c->slow_mark)
            continue;
        c->slow_mark = 0;
        for (int i = 0; i < c->nmem; i++) {
            struct worker *w = &s->w[c->mem[i]];
            if (w->state != W_BWD || sim_slowdown(s, w) <= 1 ||
                w->bwd_rate == (c->active > 0 ? 1 / sim_slowdown(s, w) : 1))
                continue;
            bwd_advance(s, w);
            bwd_schedule(s, c->mem[i]);
        }
    }
}

/* A bucket backward released, or a stale event of an older rate. */
static void worker_bucket(struct sim *s, int wi, int b, int gen)
{
    struct worker *w = &s->w[wi];

    if (sim_slowdown(s, w) > 1) {
        if (gen != w->bwd_gen)
            return;
        bwd_advance(s, w);
        w->next_bucket = b + 1;
        bwd_schedule(s, wi);
    }
    tr_bucket(s, wi, b);
    chain_bucket_ready(s, w->chain, b);
}

static void worker_fwd_done(struct sim *s, int wi)
{
    struct worker *w = &s->w[wi];
    const struct sim_group *g = &s->cfg->groups[w->g];
    struct chain *c = &s->ch[w->chain];
    double bwd = g->bwd_s * last_bwd_share(s->cfg) * w->m, cum = 0, total = s->cfg->w.grad_bytes;

    w->state = W_BWD;
    tr_worker(s, wi, SIM_ACT_FWD, SIM_ACT_BWD);
    if (sim_slowdown(s, w) > 1) {
        w->bwd_total = bwd;
        w->bwd_done = 0;
        w->bwd_t = s->now;
        w->next_bucket = 0;
        bwd_schedule(s, wi);
        return;
    }
    evq_push(&s->q, s->now + bwd, EV_BWD_DONE, wi, 0, 0);
    if (!s->cfg->c.overlap)
        return;
    /* Gradients appear in proportion to backward progress (docs/model.md);
     * the last bucket is released by EV_BWD_DONE itself. */
    for (int b = 0; b + 1 < c->nb; b++) {
        cum += c->bbytes[b];
        evq_push(&s->q, s->now + bwd * (cum / total), EV_BUCKET, wi, b, 0);
    }
}

static void worker_bwd_done(struct sim *s, int wi, int gen)
{
    struct worker *w = &s->w[wi];
    struct chain *c = &s->ch[w->chain];
    double lost = 0;

    if (sim_slowdown(s, w) > 1) {
        if (gen != w->bwd_gen)
            return;
        /* elapsed backward less its work at full speed */
        lost = fmax(0, (s->now - w->t_fwd0) - fwd_phase_s(s->cfg, &s->cfg->groups[w->g]) * w->m -
                       w->bwd_total);
    }
    if (measured(s, w->step)) {
        w->compute += s->now - w->t_fwd0 - lost;
        w->interf += lost;
    }
    w->state = W_WAIT_COMM;
    w->t_bwd_end = s->now;
    tr_worker(s, wi, SIM_ACT_BWD, SIM_ACT_WAIT_COMM);
    if (s->cfg->c.overlap) {
        tr_bucket(s, wi, c->nb - 1);
        chain_bucket_ready(s, w->chain, c->nb - 1);
    } else {
        for (int b = 0; b < c->nb && w->state == W_WAIT_COMM; b++) {
            tr_bucket(s, wi, b);
            chain_bucket_ready(s, w->chain, b);
        }
    }
}

void sim_worker_start_opt(struct sim *s, int wi)
{
    struct worker *w = &s->w[wi];
    const struct sim_group *g = &s->cfg->groups[w->g];
    double opt = g->opt_s + s->cfg->w.step_overhead_s;

    assert(w->state == W_WAIT_COMM);
    if (measured(s, w->step)) {
        w->exposed += s->now - w->t_bwd_end;
        w->opt += opt;
    }
    w->state = W_OPT;
    tr_worker(s, wi, SIM_ACT_WAIT_COMM, SIM_ACT_OPT);
    evq_push(&s->q, s->now + opt, EV_OPT_DONE, wi, 0, 0);
}

void sim_window_snapshot(struct sim *s, double **dst)
{
    *dst = x_realloc(*dst, (size_t)(s->mm.nres ? s->mm.nres : 1) * sizeof **dst);
    for (int r = 0; r < s->mm.nres; r++)
        (*dst)[r] = s->mm.res[r].busy;
}

static void worker_opt_done(struct sim *s, int wi)
{
    struct worker *w = &s->w[wi];
    int all = 1;

    w->end[w->step] = s->now;
    tr_worker(s, wi, SIM_ACT_OPT, SIM_NACT);
    w->step++;
    for (int i = 0; i < s->nw; i++)
        if (s->w[i].step <= s->global_done)
            all = 0;
    if (all) {
        s->global_done++;
        if (s->global_done == s->cfg->warmup) {
            s->t0 = s->now;
            sim_window_snapshot(s, &s->busy0);
            s->window_open = 1;
        }
    }
    if (w->step >= s->total_steps) {
        w->state = W_DONE;
        return;
    }
    worker_start_step(s, wi);
}

/* Register the tracks of a trace (trace.h): per group its worker, CPU, PCIe,
 * NIC directions and GPU link, then the fabric and the collective chains. */
static void trace_tracks(struct sim *s)
{
    const struct sim_config *cfg = s->cfg;
    struct sim_trace *t = cfg->trace;

    sim_trace_reset(t);
    for (int i = 0; i < cfg->ngroups; i++) {
        const struct sim_group *g = &cfg->groups[i];
        for (int k = 0; k < s->nw; k++)
            if (s->w[k].g == i)
                sim_trace_add_track(t, SIM_TRACK_COMPUTE, i, k, 0, s->w[k].ranks);
#define RES(kind, r, per) \
        if ((r) >= 0) sim_trace_add_track(t, kind, i, r, s->mm.res[r].cap, per)
        RES(SIM_TRACK_CPU, s->r_cpu[i], g->count);
        RES(SIM_TRACK_PCIE, s->r_pcie[i], (double)g->count * sim_workers_per_node(g));
        RES(SIM_TRACK_NIC_TX, s->r_tx[i], g->count);
        RES(SIM_TRACK_NIC_RX, s->r_rx[i], g->count);
        RES(SIM_TRACK_GPU_LINK, s->r_intra[i], (double)g->count * sim_workers_per_node(g));
#undef RES
    }
    if (s->r_fabric >= 0)
        sim_trace_add_track(t, SIM_TRACK_FABRIC, -1, s->r_fabric, s->mm.res[s->r_fabric].cap, 1);
    for (int c = 0; c < s->nch; c++)
        sim_trace_add_track(t, SIM_TRACK_CHAIN, -1, c, 0, 1);
}

static void handle_event(struct sim *s, const struct evq_event *ev)
{
    switch (ev->type) {
    case EV_FWD_DONE: worker_fwd_done(s, ev->a); break;
    case EV_BWD_DONE: worker_bwd_done(s, ev->a, ev->c); break;
    case EV_BUCKET: worker_bucket(s, ev->a, ev->b, ev->c); break;
    case EV_OPT_DONE: worker_opt_done(s, ev->a); break;
    case EV_PHASE_LAT: phase_flow(s, ev->a, ev->b, ev->c); break;
    case EV_STAGE_NOW: stage_done(s, ev->a, ev->b, ev->c); break;
    case EV_TICK: chain_tick(s, ev->a); break;
    default: {
        int d = (ev->type - EV_DIM) / SIM_DIM_EVENTS;
        assert(ev->type >= EV_DIM && s->dim[d]);
        sim_dims[d]->event(s, s->dim[d], (ev->type - EV_DIM) % SIM_DIM_EVENTS, ev->a, ev->b,
                           ev->c);
        break;
    }
    }
}

static int all_done(const struct sim *s)
{
    for (int i = 0; i < s->nw; i++)
        if (s->w[i].state != W_DONE)
            return 0;
    return 1;
}

static int sim_once(const struct sim_config *cfg, double ps_duty, struct sim_result *res,
                    struct dt_err *e)
{
    struct sim s;
    int rc = -1;

    memset(&s, 0, sizeof s);
    s.cfg = cfg;
    s.ps_duty = ps_duty;
    evq_init(&s.q);
    mm_init(&s.mm);
    s.mm.incremental = cfg->trace == NULL;  /* a trace records the loads at each solve */
    s.rng = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(s.rng, cfg->seed);
    s.total_steps = cfg->warmup + cfg->steps;
    sim_build_resources(&s);

    for (int i = 0; i < cfg->ngroups; i++) {
        struct worker *w;
        if (cfg->groups[i].role != SIM_TRAIN)
            continue;
        w = &s.w[s.nw];
        w->g = i;
        w->tg = s.nw;   /* train groups are the workers, in order */
        w->ranks = (double)cfg->groups[i].count * sim_workers_per_node(&cfg->groups[i]);
        w->end = x_calloc((size_t)s.total_steps, sizeof *w->end);
        w->chain = sim_is_async(cfg) ? s.nw : 0;
        s.nw++;
    }
    s.nch = sim_is_async(cfg) ? s.nw : 1;
    for (int c = 0; c < s.nch; c++) {
        sim_build_chain(&s, &s.ch[c]);
        for (int i = 0; i < s.nw; i++)
            if (s.w[i].chain == c)
                s.ch[c].mem[s.ch[c].nmem++] = i;
    }
    /* the parallel dimensions of this run, and which runs the step */
    s.stepper = -1;
    for (int d = 0; sim_dims[d]; d++) {
        assert(d < SIM_MAX_DIMS);
        s.dim[d] = sim_dims[d]->build ? sim_dims[d]->build(&s, d) : NULL;
        if (s.dim[d] && sim_dims[d]->step_begin && s.stepper < 0)
            s.stepper = d;
    }
    /* the others that hook a layer's use, in table order */
    for (int d = 0; sim_dims[d]; d++)
        if (d != s.stepper && s.dim[d] && (sim_dims[d]->use_begin || sim_dims[d]->use_end))
            s.hooked[s.nhooked++] = d;
    for (int i = 0; i < s.nw; i++)
        sim_build_producers(&s, &s.w[i]);
    if (cfg->trace)
        trace_tracks(&s);
    if (cfg->warmup == 0) {
        s.t0 = 0;
        sim_window_snapshot(&s, &s.busy0);
        s.window_open = 1;
    }
    for (int i = 0; i < s.nw; i++)
        worker_start_step(&s, i);

    while (!all_done(&s)) {
        double t_flow, t_ev, t_next, dt_flow;
        struct evq_event ev;

        if (s.slow_pending)
            sim_apply_slow(&s);
        if (s.mm.dirty) {
            mm_solve(&s.mm);
            if (cfg->trace)
                sim_trace_loads(cfg->trace, s.now, &s.mm);
        }
        dt_flow = mm_next_completion(&s.mm);
        t_flow = s.now + dt_flow;
        t_ev = evq_peek_time(&s.q);
        t_next = t_flow < t_ev ? t_flow : t_ev;
        if (!isfinite(t_next)) {
            dt_errf(e, "sim: no progress at t=%.6f s (a resource has zero capacity?)", s.now);
            goto out;
        }
        /* Advance the flows by their own dt when they finish first: at a
         * large clock, s.now + dt may round back to s.now, and advancing by
         * the difference would then never finish them. */
        mm_advance(&s.mm, t_flow < t_ev ? dt_flow : t_next - s.now);
        s.now = t_next;
        /* Flows that finish now, in id order (deterministic). */
        for (int id = 0; id < s.mm.nflows; id++) {
            struct mm_flow *f = &s.mm.flows[id];
            int tag, a, b, c;
            if (!f->active || f->remaining > f->rate * 1e-12 + 1e-12)
                continue;
            tag = f->tag; a = f->a; b = f->b; c = f->c;
            mm_remove_flow(&s.mm, id);
            s.events++;
            if (tag == FL_STAGE)
                stage_done(&s, a, b, c);
            else if (tag == FL_PHASE)
                phase_done(&s, a, b, c);
            else
                sim_dims[tag - FL_DIM]->flow_done(&s, s.dim[tag - FL_DIM], a, b, c);
        }
        while (evq_peek_time(&s.q) <= s.now && evq_pop(&s.q, &ev)) {
            s.events++;
            handle_event(&s, &ev);
        }
    }
    s.t1 = s.now;
    if (cfg->trace)
        cfg->trace->end_s = s.now;
    sim_collect(&s, res);
    rc = 0;
out:
    sim_release(&s);
    return rc;
}

/*
 * Asynchronous parameter servers: identical workers simulated as one would
 * push in lockstep, which real ones do not; they drift apart, so a push
 * meets another worker's push only while that one is pushing.  The duty d
 * (push time over step time, about half the communication time over the
 * step, pull and push being the same size) sets the servers' incast to
 * 1 + (n-1) d; d comes from a damped fixed-point iteration starting from
 * lockstep (d = 1), at most 12 passes, to 1e-4.  Every other strategy runs
 * once.
 */
int sim_run(const struct sim_config *cfg, struct sim_result *res, struct dt_err *e)
{
    struct sim_config quiet;
    double d = 1;

    if (sim_check(cfg, e))
        return -1;
    /* a dimension that runs the step as another config (pipeline
     * parallelism: its slowest stage) */
    for (int k = 0; sim_dims[k]; k++) {
        void *plan = NULL;
        int r = sim_dims[k]->reduce ? sim_dims[k]->reduce(cfg, &quiet, &plan, e) : 0;
        if (r < 0)
            return -1;
        if (r == 0)
            continue;
        if (sim_once(&quiet, 1, res, e)) {
            sim_dims[k]->restore(plan, NULL);
            return -1;
        }
        sim_dims[k]->restore(plan, res);
        return 0;
    }
    if (!sim_is_async(cfg))
        return sim_once(cfg, 1, res, e);
    quiet = *cfg;
    quiet.trace = NULL;
    for (int it = 0; it < 12; it++) {
        double nd;
        if (sim_once(&quiet, d, res, e))
            return -1;
        nd = res->step_mean_s > 0 ? res->exposed_comm_s / (2 * res->step_mean_s) : 1;
        nd = nd < 0 ? 0 : nd > 1 ? 1 : nd;
        if (fabs(nd - d) < 1e-4)
            break;
        d = 0.5 * (d + nd);
    }
    return sim_once(cfg, d, res, e);
}
