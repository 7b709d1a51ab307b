/*
 * search_finish.c - the end of a catalog search (search.h): rank the swept
 * candidates, run the best again at the scenario's full settings (the top
 * N, the Pareto front, the best of each kind, the starting point), break
 * ties within the model's error, recommend, and the report every output
 * writes from.  When nothing is feasible: which limit, and by how much.
 */
#include "search.h"
#include "search_pick.h"
#include "search_prune.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "band.h"
#include "cluster.h"
#include "plan_int.h"
#include "../base/numfmt.h"
#include "../base/units.h"
#include "../base/xmem.h"

#define FRONT_MAX 25

/* A sort key: a, then b, then the index i (a total order): the keys travel
 * in the array sorted, no file-scope state. */
struct key {
    double a, b;
    int i;
};

static int by_key(const void *x, const void *y)
{
    const struct key *p = x, *q = y;

    if (p->a < q->a)
        return -1;
    if (p->a > q->a)
        return 1;
    if (p->b < q->b)
        return -1;
    if (p->b > q->b)
        return 1;
    return (p->i > q->i) - (p->i < q->i);
}

/* x to 30 bits of mantissa (about 1e-9 relative): candidates whose times or
 * costs differ by floating-point noise alone tie on the Pareto front. */
static double q30(double x)
{
    int ex;
    double m = frexp(x, &ex);
    return isfinite(x) ? ldexp(nearbyint(ldexp(m, 30)), ex - 30) : x;
}

/* The front's axes: time and cost to train, or step time and cost per step. */
static void front_xy(const struct search_eval *v, int train, double *x, double *y)
{
    *x = q30(train ? v->train_s : v->step_s);
    *y = q30(train ? v->cost_to_train_usd : v->cost_per_step_usd);
}

/* Sort the picks by their objective at full settings, ties by index. */
static void sort_picks(const struct scenario *sc, struct search_pick *pk, int n)
{
    struct key *k = x_calloc((size_t)n + 1, sizeof *k);
    struct search_pick *tmp = x_calloc((size_t)n + 1, sizeof *tmp);

    for (int i = 0; i < n; i++)
        k[i] = (struct key){cluster_objective(sc, &pk[i].pc, 1), 0, pk[i].index};
    /* the index breaks ties: picks of one search have distinct indices */
    qsort(k, (size_t)n, sizeof *k, by_key);
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            if (pk[j].index == k[i].i) {
                tmp[i] = pk[j];
                break;
            }
    memcpy(pk, tmp, (size_t)n * sizeof *pk);
    for (int i = 0; i < n; i++)
        search_pick_fix(&pk[i]);
    x_free(tmp);
    x_free(k);
}

/*
 * Within the model's error (band.h) the top's first pick may tie with
 * others no worse on the objective than cur (the current choice; INFINITY
 * when none); the one the second criterion prefers moves to the front, the
 * rest keep their order.  Fills *tr, first the objective's best's new place.
 */
static void tie_to_front(const struct scenario *sc, struct search_pick *pk, int n, double cur,
                         struct plan_tie_report *tr)
{
    int pick = 0;
    struct search_pick keep;
    struct plan_tie t;

    memset(tr, 0, sizeof *tr);
    tr->first = -1;
    for (int i = 1; i < n; i++) {
        if (!pk[i].pc.feasible || !plan_band_tie(sc, &pk[0].pc, &pk[i].pc, 1, NULL) ||
            cluster_objective(sc, &pk[i].pc, 1) > cur)
            continue;
        if (tr->n++ == 0)
            tr->other = i;      /* the picks are in order of the objective */
        if (plan_band_prefer(sc, &pk[pick].pc, &pk[i].pc, &tr->by))
            pick = i;
    }
    if (tr->n == 0)
        return;
    plan_band_tie(sc, &pk[0].pc, &pk[pick > 0 ? pick : tr->other].pc, 1, &t);
    tr->gap = t.gap;
    tr->error = t.error;
    tr->limit = t.limit;
    /* where they go once the pick moves to the front */
    tr->first = pick > 0 ? 1 : 0;
    tr->other = pick > 0 ? 1 : tr->other;
    if (pick > 0) {
        keep = pk[pick];
        memmove(pk + 1, pk, (size_t)pick * sizeof *pk);
        pk[0] = keep;
        for (int i = 0; i <= pick; i++)
            search_pick_fix(&pk[i]);
    }
}

static enum search_kind kind_of(const struct scenario *sc, const struct search_cand *c)
{
    if (sc->catalog->instances[c->train].gpu_count == 0)
        return SEARCH_CPU;
    if (c->data >= 0)
        return SEARCH_HETERO;
    return c->nodes > 1 ? SEARCH_SCALE_OUT : SEARCH_SINGLE;
}

static int same_cluster(const struct sc_cluster *a, const struct sc_cluster *b)
{
    if (a->ngroups != b->ngroups)
        return 0;
    for (int i = 0; i < a->ngroups; i++)
        if (a->groups[i].role != b->groups[i].role || a->groups[i].inst != b->groups[i].inst ||
            a->groups[i].count != b->groups[i].count)
            return 0;
    return 1;
}


/* ---- the report ------------------------------------------------------- */

int search_pick_comm(const struct search_pick *pk)
{
    return pk->pc.res.workers > 1 || pk->cl.ngroups > 1;
}

void search_pick_label(const struct search_pick *pk, char *out, size_t cap)
{
    char buf[160];
    size_t n;

    if (search_pick_comm(pk))
        snprintf(buf, sizeof buf, "%s, %s, %g MiB", pk->cl.name,
                 sim_strategy_name(pk->pc.cfg.c.strategy), pk->pc.cfg.c.bucket_bytes / DT_MIB);
    else
        snprintf(buf, sizeof buf, "%s", pk->cl.name);
    n = strlen(buf) < cap ? strlen(buf) : cap - 1;
    memcpy(out, buf, n);
    out[n] = '\0';
}

static void report_add(struct search_result *r, const struct search_pick *pk)
{
    int i = r->report.nclusters++;

    r->report.clusters[i] = pk->pc;
    r->report_cl[i] = pk->cl;
    search_pick_label(pk, r->report_cl[i].name, sizeof r->report_cl[i].name);
    r->report.clusters[i].cl = &r->report_cl[i];
}

/* r->report from the picks: the top N, then the front's others. */
static void build_report(struct search_result *r)
{
    struct plan_report *rep = &r->report;
    size_t n = (size_t)(r->ntop + r->nfront) + 1;

    rep->sc = r->sc;
    rep->clusters = x_calloc(n + 1, sizeof *rep->clusters);
    r->report_cl = x_calloc(n + 1, sizeof *r->report_cl);
    if (r->keep_current) {
        /* the current choice, recommended, before the top */
        rep->clusters[0] = r->current;
        r->report_cl[0] = *r->current.cl;
        rep->clusters[0].cl = &r->report_cl[0];
        rep->nclusters = 1;
    }
    for (int i = 0; i < r->ntop; i++)
        report_add(r, &r->top[i]);
    for (int i = 0; i < r->nfront; i++) {
        int seen = 0;
        for (int k = 0; k < r->ntop; k++)
            seen |= r->top[k].index == r->front[i].index;
        if (!seen)
            report_add(r, &r->front[i]);
    }
    rep->solved_value = rep->solved_lo = rep->solved_hi = NAN;
    rep->best = r->ntop > 0 ? 0 : -1;
    rep->action = r->action;
    memcpy(rep->reason, r->reason, sizeof rep->reason);
}

/* ---- finishing --------------------------------------------------------- */

/* The starting point when no cluster is listed: the cheapest single-node
 * candidate, GPU ones first, the best one failing that. */
static int baseline_of(const struct scenario *sc, const struct search_list *l,
                       const struct search_eval *ev, int best)
{
    int bi = -1;

    for (int pass = 0; pass < 2 && bi < 0; pass++)
        for (int i = 0; i < l->n; i++) {
            const struct search_cand *c = &l->c[i];
            int gpu = sc->catalog->instances[c->train].gpu_count > 0;
            if (!ev[i].ok || c->nodes != 1 || c->data >= 0 || c->ps >= 0 || (pass == 0 && !gpu))
                continue;
            if (bi < 0 || ev[i].price_usd_h < ev[bi].price_usd_h ||
                (ev[i].price_usd_h == ev[bi].price_usd_h && ev[i].step_s < ev[bi].step_s))
                bi = i;
        }
    return bi < 0 ? best : bi;
}

/* The Pareto front over the feasible candidates ord[0..nord-1], at search
 * fidelity, into fr (at most FRONT_MAX, both ends kept); returns its size. */
static int pareto(const struct search_eval *ev, const int *ord, int nord, int train, int *fr)
{
    struct key *k = x_calloc((size_t)nord + 1, sizeof *k);
    double besty = INFINITY;
    int nfr = 0;

    for (int i = 0; i < nord; i++) {
        front_xy(&ev[ord[i]], train, &k[i].a, &k[i].b);
        k[i].i = ord[i];
    }
    qsort(k, (size_t)nord, sizeof *k, by_key);
    for (int i = 0; i < nord; i++)
        if (k[i].b < besty) {
            besty = k[i].b;
            fr[nfr++] = k[i].i;
        }
    if (nfr > FRONT_MAX) { /* keep both ends and evenly spaced points between */
        for (int i = 0; i < FRONT_MAX; i++)
            fr[i] = fr[(int)((double)i * (nfr - 1) / (FRONT_MAX - 1) + 0.5)];
        nfr = FRONT_MAX;
    }
    x_free(k);
    return nfr;
}

/* The feasible candidates by objective at search fidelity into ord; the count. */
static int rank(const struct search_list *l, const struct search_eval *ev, int *ord)
{
    struct key *k = x_calloc((size_t)l->n + 1, sizeof *k);
    int nord = 0;

    for (int i = 0; i < l->n; i++)
        if (ev[i].ok && ev[i].feasible)
            k[nord++] = (struct key){ev[i].objective, 0, i};
    qsort(k, (size_t)nord, sizeof *k, by_key);
    for (int i = 0; i < nord; i++)
        ord[i] = k[i].i;
    x_free(k);
    return nord;
}

/* What pruned the candidates before simulating, as "N do not fit in memory, M
 * over the budget", the limits that pruned any; into buf. */
static void pruned_words(const struct search_list *l, char *buf, size_t cap)
{
    size_t n = 0;
    const long cnt[] = {l->pruned_memory, l->pruned_budget, l->pruned_channels, l->pruned_gpus,
                        l->pruned_tp, l->pruned_pp};
    static const char *words[] = {"do not fit in memory", "over the budget",
                                  "over the data channels", "over plan.max_gpus",
                                  "where parallel.tp does not fit a node",
                                  "that cannot place parallel.pp x tp (more or larger nodes)"};

    buf[0] = '\0';
    for (int k = 0; k < 6 && n < cap; k++)
        if (cnt[k] > 0)
            n += (size_t)snprintf(buf + n, cap - n, "%s%ld %s", n ? ", " : "", cnt[k], words[k]);
}

/* Nothing to simulate: the limits that pruned, and the candidate that came
 * closest to fitting in memory, by how much. */
static void none_enumerated(const struct scenario *sc, const struct search_list *l,
                            struct search_result *r)
{
    char pr[256], lay[128] = "";
    size_t n;

    pruned_words(l, pr, sizeof pr);
    n = (size_t)snprintf(r->reason, sizeof r->reason, "No candidate to simulate%s%s.",
                         pr[0] ? ": " : "", pr);
    if (l->closest_nodes > 0 && n < sizeof r->reason) {
        const struct mem_use *u = &l->closest_mem;
        const struct cat_instance *in = &sc->catalog->instances[l->closest_train];
        if (l->closest_layout[0])
            snprintf(lay, sizeof lay, " at its smallest layout, %s,", l->closest_layout);
        snprintf(r->reason + n, sizeof r->reason - n,
                 " The closest to fitting, %dx %s,%s needs %.1f GiB a %s, over the %.1f GiB "
                 "usable of its %.0f GiB by %.1f GiB (%.0f%%): a %s with more memory, or more "
                 "nodes (plan.max_nodes) to divide the model across.",
                 l->closest_nodes, in->name, lay, u->total / DT_GIB,
                 in->gpu_count > 0 ? "GPU" : "worker", u->capacity / DT_GIB, u->device / DT_GIB,
                 (u->total - u->capacity) / DT_GIB, 100 * (l->closest_ratio - 1),
                 in->gpu_count > 0 ? "GPU" : "type");
    }
}

/* No feasible candidate: say why, or fail when none could be simulated.
 * The limit that most candidates missed is named, with the candidate that
 * came closest to it and by how much; only limits the scenario set. */
static int none_feasible(const struct scenario *sc, const struct search_list *l,
                         const struct search_eval *ev, struct search_result *r, struct dt_err *e)
{
    int okn = 0, why = PLAN_OK, close = -1;
    long most = 0;
    struct search_pick pk;
    struct dt_err pe;

    for (int i = 0; i < l->n; i++)
        okn += ev[i].ok != 0;
    r->action = PLAN_NONE;
    if (l->n > 0 && okn == 0) {
        if (search_pick_run(sc, l, 0, NULL, &pk, e) == 0) /* the reason, from the first candidate */
            dt_errf(e, "plan: no candidate could be simulated");
        return -1;
    }
    if (l->n == 0) {
        none_enumerated(sc, l, r);
        return 0;
    }
    for (int k = PLAN_OK + 1; k < PLAN_INF_N; k++)
        if (r->counts.infeasible[k] > most) {
            most = r->counts.infeasible[k];
            why = k;
        }
    for (int i = 0; i < l->n; i++)
        if (ev[i].ok && (int)ev[i].infeasible == why && !isnan(ev[i].over) &&
            (close < 0 || ev[i].over < ev[close].over))
            close = i;
    if (close < 0)
        for (int i = 0; i < l->n && close < 0; i++)
            if (ev[i].ok && (int)ev[i].infeasible == why)
                close = i;
    if (close < 0 || search_pick_run(sc, l, close, NULL, &pk, &pe) != 0) {
        snprintf(r->reason, sizeof r->reason, "No candidate meets the constraints (%ld "
                 "enumerated, %d simulated).", r->candidates, okn);
        return 0;
    }
    {
        static const char *limit[PLAN_INF_N] = {
            [PLAN_INF_MEMORY] = "do not fit in memory", [PLAN_INF_BUDGET] = "are over the budget",
            [PLAN_INF_CHANNELS] = "need more data channels than allowed",
            [PLAN_INF_DEADLINE] = "miss the deadline",
            [PLAN_INF_BATCH] = "pass the global batch"};
        static const char *relax[PLAN_INF_N] = {
            [PLAN_INF_MEMORY] = "a GPU with more memory, or more nodes (plan.max_nodes)",
            [PLAN_INF_BUDGET] = "a larger budget (objective.budget_usd_h)",
            [PLAN_INF_CHANNELS] = "more data channels (objective.max_data_channels)",
            [PLAN_INF_DEADLINE] = "a later deadline (objective.deadline_h), or more nodes or "
                                  "faster types (plan.max_nodes, plan.instances)",
            [PLAN_INF_BATCH] = "a larger global batch or a smaller batch_per_gpu"};
        char by[96] = "";
        if (why == PLAN_INF_DEADLINE && !isnan(ev[close].over)) {
            char over[32];
            numfmt_duration(over, sizeof over, pk.pc.train_s - sc->objective.deadline_h * 3600,
                            NUMFMT_OWN);
            snprintf(by, sizeof by, ", over by %s (%.0f%%)", over, 100 * (ev[close].over - 1));
        } else if (why == PLAN_INF_BUDGET && !isnan(ev[close].over)) {
            snprintf(by, sizeof by, ", over by $%.2f/h (%.0f%%)",
                     pk.pc.price_usd_h - sc->objective.budget_usd_h, 100 * (ev[close].over - 1));
        }
        snprintf(r->reason, sizeof r->reason,
                 "No candidate meets the constraints (%ld enumerated, %d simulated): %ld %s. The "
                 "closest, %s: %s%s. Needed: %s.", r->candidates, okn, most, limit[why],
                 pk.cl.name, pk.pc.infeasible_why, by, relax[why]);
    }
    return 0;
}

/* A pick of a phase of search_finish done: say so when asked to. */
static void finishing(const struct search_opts *o, const char *phase, int done, int total)
{
    if (o && o->finishing)
        o->finishing(o->arg, phase, done, total);
}

int search_finish(const struct scenario *sc, const struct search_list *l,
                  const struct search_eval *ev, const struct search_opts *o,
                  struct search_result *r, struct dt_err *e)
{
    int *ord = NULL, nord, *fr = NULL, nfr, rc = -1;
    struct plan_advice_in adv;
    const struct plan_cluster **table;

    memset(r, 0, sizeof *r);
    r->sc = sc;
    for (int k = 0; k < SEARCH_NKINDS; k++)
        r->kinds[k].index = -1;
    r->baseline.index = -1;
    if (sc->workload.measured_cluster >= 0 && sc->workload.solve_for != SC_SOLVE_NONE)
        return dt_errf(e, "search: the scenario was not prepared (search_prepare)");
    if (sc->nclusters > 0) {
        struct plan_report cur;
        if (plan_run(sc, NULL, &cur, e) != 0)
            return -1;
        r->current = cur.clusters[0];
        plan_report_free(&cur);
    }
    r->current_listed = sc->nclusters > 0;
    r->candidates = l->n;
    ord = x_calloc((size_t)l->n + 1, sizeof *ord);
    fr = x_calloc((size_t)l->n + 1, sizeof *fr);
    nord = rank(l, ev, ord);
    r->feasible = nord;
    memset(&r->counts, 0, sizeof r->counts);
    for (int i = 0; i < l->n; i++) {
        int why = (int)ev[i].infeasible;
        if (!ev[i].ok)
            r->counts.failed++;
        else if (!ev[i].feasible && why > PLAN_OK && why < PLAN_INF_N)
            r->counts.infeasible[why]++;
    }
    if (nord == 0) {
        rc = none_feasible(sc, l, ev, r, e);
        if (rc == 0)
            build_report(r);
        goto out;
    }

    /* the top N at full settings, ranked again: each cluster (the same
     * groups) once, under its best-ranked strategy and bucket, and nothing
     * more than 10x worse than the best unless --all */
    {
        int *sel = x_calloc((size_t)nord + 1, sizeof *sel), nsel = 0;
        double best = ev[ord[0]].objective;
        for (int i = 0; i < nord && nsel < sc->plan.top; i++) {
            const struct search_cand *a = &l->c[ord[i]];
            int dup = 0;
            if (!sc->plan.all && ev[ord[i]].objective > 10 * best)
                break;
            for (int k = 0; k < nsel && !dup; k++) {
                const struct search_cand *b = &l->c[sel[k]];
                dup = !sc->plan.all && a->train == b->train && a->nodes == b->nodes &&
                      a->data == b->data && a->ndata == b->ndata && a->ps == b->ps &&
                      a->nps == b->nps && a->spot == b->spot;
            }
            if (!dup)
                sel[nsel++] = ord[i];
        }
        r->ntop = nsel;
        r->top = x_calloc((size_t)(nsel > 0 ? nsel : 1), sizeof *r->top);
        for (int i = 0; i < r->ntop; i++) {
            if (search_pick_run(sc, l, sel[i], NULL, &r->top[i], e) != 0) {
                x_free(sel);
                goto out;
            }
            finishing(o, "the top", i + 1, r->ntop);
        }
        x_free(sel);
    }
    sort_picks(sc, r->top, r->ntop);
    r->report.tie.first = -1;
    if (r->ntop > 1)
        tie_to_front(sc, r->top, r->ntop,
                     r->current_listed && r->current.feasible
                         ? cluster_objective(sc, &r->current, 1) : INFINITY,
                     &r->report.tie);

    /* the Pareto front over every feasible candidate, at search fidelity */
    r->front_train = !isnan(sc->input.dataset_samples);
    nfr = pareto(ev, ord, nord, r->front_train, fr);
    r->front = x_calloc((size_t)nfr, sizeof *r->front);
    for (int i = 0; i < nfr; i++) {
        if (search_pick_run(sc, l, fr[i], NULL, &r->front[i], e) != 0)
            goto out;
        finishing(o, "the Pareto front", i + 1, nfr);
        r->nfront++;
        search_pick_fix(&r->front[i]);
    }

    /* the best of each kind */
    for (int i = 0; i < nord; i++) {
        enum search_kind k = kind_of(sc, &l->c[ord[i]]);
        if (r->kinds[k].index >= 0)
            continue;
        if (search_pick_run(sc, l, ord[i], NULL, &r->kinds[k], e) != 0)
            goto out;
        search_pick_fix(&r->kinds[k]);
    }

    /* the best on each cloud, when the feasible candidates span two or more:
     * a buyer choosing a provider sees what each offers at its best.  The
     * top's picks first (re-run, in its order), then the search's order. */
    {
        const char *seen[SEARCH_MAX_CLOUDS];
        int at[SEARCH_MAX_CLOUDS], n = 0;
        for (int i = 0; i < r->ntop + nord && n < SEARCH_MAX_CLOUDS; i++) {
            int idx = i < r->ntop ? r->top[i].index : ord[i - r->ntop], k = 0;
            const char *cloud = sc->catalog->instances[l->c[idx].train].cloud;
            while (k < n && strcmp(seen[k], cloud) != 0)
                k++;
            if (k == n) {
                seen[n] = cloud;
                at[n++] = i;
            }
        }
        for (int k = 0; n > 1 && k < n; k++) {
            if (at[k] < r->ntop)
                r->clouds[k] = r->top[at[k]];
            else if (search_pick_run(sc, l, ord[at[k] - r->ntop], NULL, &r->clouds[k], e) != 0)
                goto out;
            search_pick_fix(&r->clouds[k]);
            r->nclouds++;
        }
    }

    /* the starting point: the listed cluster, else the cheapest single GPU node */
    if (!r->current_listed) {
        if (search_pick_run(sc, l, baseline_of(sc, l, ev, ord[0]), NULL, &r->baseline, e) != 0)
            goto out;
        search_pick_fix(&r->baseline);
        r->current = r->baseline.pc;
    }
    /* never a recommendation worse on the objective than the current choice */
    r->keep_current = r->current_listed && r->current.feasible &&
                      !same_cluster(r->current.cl, &r->top[0].cl) &&
                      cluster_objective(sc, &r->current, 1) <
                          cluster_objective(sc, &r->top[0].pc, 1) * (1 - 1e-9);
    r->action = r->keep_current ? PLAN_KEEP
                                : plan_advice_action(r->current.cl, &r->top[0].cl,
                                                     same_cluster(r->current.cl, &r->top[0].cl));
    table = x_calloc((size_t)r->ntop, sizeof *table);
    for (int i = 0; i < r->ntop; i++)
        table[i] = &r->top[i].pc;
    adv = (struct plan_advice_in){&r->current, r->current_listed, &r->top[0].pc, r->candidates,
                                  r->action, r->report.tie.first > 0
                                                 ? &r->top[r->report.tie.first].pc : NULL,
                                  &r->report.tie, r->keep_current, table, r->ntop};
    plan_advice_search(sc, &adv, r->reason, sizeof r->reason);
    x_free(table);
    build_report(r);

    /* the recommended cluster's steps, recorded by running it once more */
    if (o && o->trace) {
        struct search_pick again;
        r->report.traces = x_calloc((size_t)r->report.nclusters + 1, sizeof *r->report.traces);
        r->report.traces[0].max_records = o->trace_max_records;
        if (search_pick_run(sc, l, r->top[0].index, &r->report.traces[0], &again, e) != 0)
            goto out;
    }
    rc = 0;

out:
    x_free(ord);
    x_free(fr);
    if (rc)
        search_result_free(r);
    return rc;
}

void search_result_free(struct search_result *r)
{
    x_free(r->top);
    x_free(r->front);
    plan_report_free(&r->report);
    x_free(r->report_cl);
    memset(r, 0, sizeof *r);
}
