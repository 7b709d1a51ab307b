/*
 * plan_advice.c - the recommendation: which action takes the user from the
 * cluster they start from to the best one, and the reason in words.
 *
 * Both comparisons end here, the listed clusters of plan_run() and the
 * catalog search's candidates: one classification (keep, cpu_only,
 * heterogeneous, scale_out, scale_up, in that order of precedence) and one
 * piece of advice per bottleneck of the starting cluster.  The reasoning
 * follows docs/model.md (seed case S3): for an input-bound job scale up
 * within the family when a larger CPU:GPU ratio exists, add CPU nodes when
 * none does; more nodes of the same type keep the ratio and do not help.
 *
 * The two comparisons phrase the advice differently (a search also knows
 * what it tried, so it says what to try first); each bottleneck's case
 * holds both phrasings side by side, so that they change together.
 */
#include "planner.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "band.h"
#include "cluster.h"
#include "goodput.h"
#include "plan_int.h"
#include "../base/numfmt.h"
#include "../base/xmem.h"

const char *plan_action_name(enum plan_action a)
{
    static const char *n[PLAN_NACTION] = {"keep", "scale_up", "scale_out", "heterogeneous",
                                          "cpu_only", "scale_in", "change_type", "none"};
    return (a >= PLAN_KEEP && a < PLAN_NACTION) ? n[a] : "?";
}

double plan_vcpu_per_gpu(const struct cat_instance *in)
{
    return in->gpu_count > 0 ? (double)in->vcpus / in->gpu_count : in->vcpus;
}

const struct cat_instance *plan_bigger_ratio(const struct catalog *cat,
                                             const struct cat_instance *in, int same_count)
{
    const struct cat_instance *best = NULL;
    size_t fl = catalog_family_len(in->name);

    if (!cat)
        return NULL;
    for (int i = 0; i < cat->ninstances; i++) {
        const struct cat_instance *c = &cat->instances[i];
        if (catalog_family_len(c->name) != fl || strncmp(c->name, in->name, fl) != 0 ||
            strcmp(c->gpu_model, in->gpu_model) != 0)
            continue;
        if (same_count ? c->gpu_count != in->gpu_count : c->gpu_count < 1)
            continue;
        if (plan_vcpu_per_gpu(c) <= plan_vcpu_per_gpu(in))
            continue;
        if (!best || plan_vcpu_per_gpu(c) < plan_vcpu_per_gpu(best))
            best = c;
    }
    return best;
}

/* Whether a node of b is larger than one of c: at least as much GPU compute
 * (GPUs at their 16-bit dense peak) and as many vCPUs, and more of one. */
static int larger_node(const struct cat_instance *b, const struct cat_instance *c)
{
    double pb = b->gpu && !isnan(b->gpu->peak_tflops[CAT_FP16]) ? b->gpu->peak_tflops[CAT_FP16] : 0;
    double pc = c->gpu && !isnan(c->gpu->peak_tflops[CAT_FP16]) ? c->gpu->peak_tflops[CAT_FP16] : 0;
    double gb = b->gpu_count * pb, gc = c->gpu_count * pc;

    return gb >= gc && b->vcpus >= c->vcpus && (gb > gc || b->vcpus > c->vcpus);
}

enum plan_action plan_advice_action(const struct sc_cluster *cur, const struct sc_cluster *best,
                                    int same)
{
    const struct sc_group *ct = cluster_first_train(cur), *bt = cluster_first_train(best);

    if (same)
        return PLAN_KEEP;
    if (bt->inst->gpu_count == 0 && ct->inst->gpu_count > 0)
        return PLAN_CPU_ONLY;
    if (cluster_has_role(best, SIM_DATA) && !cluster_has_role(cur, SIM_DATA))
        return PLAN_HETEROGENEOUS;
    if (bt->inst == ct->inst)       /* more or fewer of the same nodes */
        return cluster_train_nodes(best) > cluster_train_nodes(cur) ? PLAN_SCALE_OUT
                                                                    : PLAN_SCALE_IN;
    /* another type, whatever the count: the type is the move */
    return larger_node(bt->inst, ct->inst) ? PLAN_SCALE_UP : PLAN_CHANGE_TYPE;
}

/* A reason being written: a piece that does not fit is not counted, and the
 * next piece writes over what of it was cut in. */
struct text {
    char *p;
    size_t left;
};

static void add(struct text *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void add(struct text *t, const char *fmt, ...)
{
    va_list ap;
    int n;

    va_start(ap, fmt);
    n = vsnprintf(t->p, t->left, fmt, ap);
    va_end(ap);
    if (n > 0 && (size_t)n < t->left) {
        t->p += n;
        t->left -= (size_t)n;
    }
}

/* The table the advice sits under: its clusters, the recommended one and
 * the action that leads there.  The advice names nothing it contradicts. */
struct table {
    const struct plan_cluster *const *c;
    int n;
    const struct plan_cluster *best;
    enum plan_action action;
};

/* The table's cluster whose training nodes are of type in, NULL if none. */
static const struct plan_cluster *in_table(const struct table *tb, const struct cat_instance *in)
{
    for (int i = 0; in && i < tb->n; i++)
        if (tb->c[i]->feasible && cluster_first_train(tb->c[i]->cl)->inst == in)
            return tb->c[i];
    return NULL;
}

/*
 * What to do about the bottleneck of cur, the starting cluster, checked
 * against tb.  search: 1 for the catalog search's phrasing ("Try first:
 * ..."), 0 for the listed comparison's.  keep: the listed comparison keeps
 * cur.
 */
static void advise(struct text *t, const struct scenario *sc, const struct plan_cluster *cur,
                   const struct table *tb, int search, int keep)
{
    const struct sc_group *ct = cluster_first_train(cur->cl);
    int gpu = ct->inst->gpu_count > 0;
    int more_nodes = cluster_train_nodes(tb->best->cl) > cluster_train_nodes(cur->cl);

    /* the listed comparison kept the start: what follows is beyond the list,
     * not what the action says */
    if (!search && keep && cur->bound != PLAN_BOUND_COMPUTE)
        add(t, " Beyond the listed clusters:");
    switch (cur->bound) {
    case PLAN_BOUND_CPU:
        if (ct->inst->gpu_count > 0) {
            /* The listed comparison looks for the same GPU count per node, the
             * search for any (it can change the node count too). */
            const struct cat_instance *up = plan_bigger_ratio(sc->catalog, ct->inst, !search);
            const struct plan_cluster *ut = in_table(tb, up);
            if (search)
                add(t, " Try first: more vCPU per GPU, not more of the same nodes (%s has %.0f "
                    "vCPU per GPU; another %s keeps that ratio).", ct->inst->name,
                    plan_vcpu_per_gpu(ct->inst), ct->inst->name);
            else
                add(t, " %s has %.0f vCPU per GPU; another %s keeps that ratio and does not help.",
                    ct->inst->name, plan_vcpu_per_gpu(ct->inst), ct->inst->name);
            if (ut && ut != tb->best)
                add(t, " %s, with %.0f vCPU per GPU, is in the table: %s is recommended over it.",
                    up->name, plan_vcpu_per_gpu(up), tb->best->cl->name);
            else if (up && search)
                add(t, " Scale up within the family: %s has %.0f vCPU per GPU; then add CPU data "
                    "nodes (heterogeneous) if that is not enough.", up->name, plan_vcpu_per_gpu(up));
            else if (up)
                add(t, " First scale up within the family: %s has %.0f vCPU per GPU.", up->name,
                    plan_vcpu_per_gpu(up));
            else if (search)
                add(t, " No instance of the family has a larger CPU:GPU ratio: add CPU data nodes "
                    "for preprocessing (heterogeneous).");
            else
                add(t, " No instance of the family has a larger CPU:GPU ratio, so add CPU nodes for "
                    "preprocessing (heterogeneous).");
        } else if (search) {
            add(t, " Try first: a larger CPU instance, then more nodes.");
        }
        break;
    case PLAN_BOUND_NETWORK:
    case PLAN_BOUND_PS:
        if (cur->ep_comm_s > 0 && strncmp(cur->bound_text, "expert-all-to-all", 17) == 0) {
            /* the MoE layers' all-to-alls: what shrinks or hides them */
            add(t, " %s dispatcher that sends a token once a node (parallel.ep_dispatch: "
                "deepep or hybridep), the all-to-alls beside the other micro-batch's compute "
                "(parallel.ep_overlap) or an expert-parallel group inside a node cut the waits.",
                search ? "Try first: a" : "A");
            break;
        }
        if (!search) {
            add(t, gpu ? " Fewer, larger nodes with a faster intra-node link, fp16 gradients or "
                         "overlapping communication with backward cut the exposed communication."
                       : " Fewer, larger nodes, a faster network, fp16 gradients or overlapping "
                         "communication with backward cut the exposed communication.");
            break;
        }
        /* fall through */
    case PLAN_BOUND_GPU_LINK:
        if (more_nodes)
            break;      /* more nodes did better all the same: the table says so */
        if (search && gpu)
            add(t, " Try first: fewer, larger nodes with a fast intra-node link (NVLink), fp16 "
                "gradients or larger buckets; scale out only once the network is not the bound.");
        else if (search)
            add(t, " Try first: fewer, larger nodes, fp16 gradients or larger buckets; scale out "
                "only once the network is not the bound.");
        break;
    case PLAN_BOUND_INPUT_NET:
        if (search)
            add(t, " Try first: more or faster-network data nodes, or preprocessing on the GPU "
                "nodes.");
        break;
    case PLAN_BOUND_PCIE:
        if (search)
            add(t, " Try first: smaller preprocessed samples or instances with a faster host "
                "link.");
        break;
    case PLAN_BOUND_INPUT:
    case PLAN_BOUND_LATENCY:
    case PLAN_BOUND_CYCLE:
        break;      /* the label says what cuts it */
    case PLAN_BOUND_COMPUTE:
        if (search && tb->action == PLAN_SCALE_UP)
            add(t, " Try first: scale up (a faster GPU, or more GPUs in one node over NVLink), "
                "then scale out.");
        else if (keep)
            add(t, " Check utilisation before scaling: first scale up, then out.");
        break;
    }
    if (search && gpu)
        add(t, " Check utilisation before scaling: on %s GPU %.0f%%, CPU %.0f%%, busiest NIC "
            "%.0f%%.", cur->cl->name, 100 * cur->res.util_gpu, 100 * cur->res.util_cpu,
            100 * cur->res.util_nic);
    else if (search)
        add(t, " Check utilisation before scaling: on %s CPU %.0f%%, busiest NIC %.0f%%.",
            cur->cl->name, 100 * cur->res.util_cpu, 100 * cur->res.util_nic);
}

/* "step 1.0 ms -> 2.0 ms, $x -> $y per step" and the times to train. */
static void add_change(struct text *t, const struct plan_cluster *cur,
                       const struct plan_cluster *best)
{
    add(t, "step %.1f ms -> %.1f ms, $%.3g -> $%.3g per step", 1e3 * cur->res.step_mean_s,
        1e3 * best->res.step_mean_s, cur->cost_per_step_usd, best->cost_per_step_usd);
}

/* The change of a cost from was to now in percent; a free cluster (no
 * price: hardware already paid for) is said to be free, not a percentage
 * of nothing. */
static void add_cost_change(struct text *t, double was, double now, int per_sample)
{
    if (was > 0)
        add(t, " (%+.0f%%%s)", 100 * (now / was - 1), per_sample ? " per sample" : "");
    else if (now > 0)
        add(t, " (the current one is free)");
    else
        add(t, " (both free)");
}

static void add_train(struct text *t, const struct plan_cluster *cur,
                      const struct plan_cluster *best)
{
    char a[32], b[32];

    if (!isnan(best->train_s) && !isnan(cur->train_s)) {
        numfmt_duration(a, sizeof a, best->train_s, NUMFMT_OWN);
        numfmt_duration(b, sizeof b, cur->train_s, NUMFMT_OWN);
        add(t, ", %s and $%.2f to train instead of %s and $%.2f", a, best->cost_to_train_usd, b,
            cur->cost_to_train_usd);
    }
}

/* What failures cost the recommended cluster at its size (goodput.c), when
 * the goodput section is on:
 * " Failures: 7.76 interruptions a day at its size, 90.7% of the time
 * training (ETTR): 2.1 d and $9823105 more to train than without them." */
static void add_goodput(struct text *t, const struct plan_cluster *pc)
{
    const struct plan_goodput *g = &pc->goodput;
    char d[32];

    if (!g->on)
        return;
    add(t, " Failures: %.3g interruptions a day at its size, %.1f%% of the time training (ETTR)",
        g->interruptions_per_day, 100 * g->ettr);
    if (isfinite(g->spot_per_day)) {
        char why[160];
        goodput_spot_basis(g, why, sizeof why);
        add(t, ", its spot nodes preempted %.3g times a day each (%s)", g->spot_per_day, why);
    }
    if (isfinite(pc->train_s) && !isnan(g->train_nofail_s)) {
        numfmt_duration(d, sizeof d, pc->train_s - g->train_nofail_s, NUMFMT_OWN);
        add(t, ": %s and $%.0f more to train than without them", d,
            pc->cost_to_train_usd - g->cost_nofail_usd);
    }
    add(t, ".");
}

/* One cluster's layout and where its step goes: "p5 runs tp 8 x pp 2 x
 * dp 4 (zero1): 6% of its step tensor-parallel communication over NVLink,
 * 3% the pipeline's bubble, 1% data-parallel communication". */
static void add_layout(struct text *t, const struct plan_cluster *pc)
{
    const struct sim_result *r = &pc->res;
    int tp = pc->cfg.c.tp > 1 ? pc->cfg.c.tp : 1, pp = pc->cfg.c.pp > 1 ? pc->cfg.c.pp : 1;
    const struct sim_group *g = &pc->cfg.groups[0];
    double st = r->step_mean_s > 0 ? r->step_mean_s : 1;
    const char *link = tp > g->gpus ? "the network"
                       : g->link == SIM_LINK_PCIE ? "PCIe" : "NVLink";

    add(t, "%s runs tp %d x pp %d x dp %.0f (%s): ", pc->cl->name, tp, pp,
        r->workers / (tp * pp), scenario_sharding_name(pc->sharding));
    if (tp > 1)
        add(t, "%.0f%% of its step tensor-parallel communication over %s, ",
            100 * r->tp_comm_s / st, link);
    if (pp > 1)
        add(t, "%.0f%% the pipeline's bubble, ", 100 * r->pp_bubble_s / st);
    add(t, "%.0f%% data-parallel communication", 100 * (r->exposed_comm_s - r->tp_comm_s) / st);
}

/* The verdict in layout terms when a model-parallel layout is involved:
 * the recommended cluster's layout, and the other's with how much longer
 * its step is. */
static void add_layouts(struct text *t, const struct plan_cluster *best,
                        const struct plan_cluster *other)
{
    if (!other || !other->feasible || (best->cfg.c.tp <= 1 && best->cfg.c.pp <= 1 &&
                                       other->cfg.c.tp <= 1 && other->cfg.c.pp <= 1))
        return;
    add(t, " In layout terms: ");
    add_layout(t, best);
    add(t, "; ");
    add_layout(t, other);
    {
        double x = other->res.step_mean_s / best->res.step_mean_s;
        if (x >= 1.005)
            add(t, ", and its step is %.2f x as long.", x);
        else if (x <= 1 / 1.005)
            add(t, ", and the recommended step is %.2f x as long as its.", 1 / x);
        else
            add(t, ", and its step is as long within 0.5%%.");
    }
}

/* Whether the feasible clusters of rep process different global batches:
 * then cost per step is compared per sample.  *lo, *hi: the range. */
static int batches_differ(const struct plan_report *rep, double *lo, double *hi)
{
    *lo = *hi = NAN;
    for (int i = 0; i < rep->nclusters; i++) {
        double b = rep->clusters[i].res.workers * rep->clusters[i].cfg.w.batch;
        if (!rep->clusters[i].feasible)
            continue;
        if (isnan(*lo) || b < *lo)
            *lo = b;
        if (isnan(*hi) || b > *hi)
            *hi = b;
    }
    return *hi > *lo * (1 + 1e-9);
}

/* What the objective compares, into rep->ranked_by (planner.h). */
static void ranked_by(const struct scenario *sc, struct plan_report *rep, int differ, double lo,
                      double hi)
{
    const char *by = "step time";
    int known = rep->nclusters > 0 && !isnan(rep->clusters[0].train_s);

    if (sc->objective.minimize == SC_OBJ_TIME)
        by = known ? "time to train" : "time per sample";
    else if (sc->objective.minimize == SC_OBJ_COST_TRAIN)
        by = known ? "cost to train" : "cost per sample";
    else
        by = differ ? "cost per sample" : "cost per step";
    if (differ)
        snprintf(rep->ranked_by, sizeof rep->ranked_by, "%s (the clusters' global batches "
                 "differ: %.0f to %.0f samples a step)", by, lo, hi);
    else
        snprintf(rep->ranked_by, sizeof rep->ranked_by, "%s", by);
}

/*
 * The recommendation among rep's feasible clusters: the objective's best,
 * or among those that tie with it (band.h) and do no worse on the objective
 * than the current choice (clusters[0]), the one the second criterion
 * prefers.  Fills rep->tie.
 */
/* Whether clusters[i] ties with clusters[first], the objective's best, and
 * does no worse on the objective than the current choice (clusters[0]). */
static int ties_with(const struct scenario *sc, const struct plan_report *rep, int per, int first,
                     int i)
{
    const struct plan_cluster *c = rep->clusters;
    double cur = c[0].feasible ? cluster_objective(sc, &c[0], per) : INFINITY;

    return i != first && c[i].feasible && plan_band_tie(sc, &c[first], &c[i], per, NULL) &&
           cluster_objective(sc, &c[i], per) <= cur;
}

static int tie_break(const struct scenario *sc, struct plan_report *rep, int per)
{
    struct plan_tie_report *tr = &rep->tie;
    const struct plan_cluster *c = rep->clusters;
    int first = -1, pick;

    memset(tr, 0, sizeof *tr);
    tr->first = -1;
    for (int i = 0; i < rep->nclusters; i++)
        if (c[i].feasible && (first < 0 || cluster_objective(sc, &c[i], per) <
                                               cluster_objective(sc, &c[first], per)))
            first = i;
    pick = first;
    for (int i = 0; first >= 0 && i < rep->nclusters; i++) {
        if (!ties_with(sc, rep, per, first, i))
            continue;
        if (tr->n++ == 0 || cluster_objective(sc, &c[i], per) <
                                cluster_objective(sc, &c[tr->other], per))
            tr->other = i;
        if (plan_band_prefer(sc, &c[pick], &c[i], &tr->by))
            pick = i;
    }
    if (tr->n > 0) {
        struct plan_tie t;
        if (pick != first)
            tr->other = first;
        plan_band_tie(sc, &c[first], &c[pick != first ? pick : tr->other], per, &t);
        tr->first = first;
        tr->gap = t.gap;
        tr->error = t.error;
        tr->limit = t.limit;
    }
    return pick;
}

/* "it ties on cost_to_train with a, b (a is 1.2% lower, within the 3.4% of
 * the model's error that does not cancel between them); time breaks the
 * tie" */
void plan_add_tie(char *buf, size_t cap, const struct scenario *sc,
                  const struct plan_tie_report *tr, const char *names, const char *first)
{
    struct text t = {buf, cap};
    const char *obj = scenario_objective_name(sc->objective.minimize);

    buf[0] = '\0';
    if (tr->n <= 0)
        return;
    add(&t, " It ties on %s with %s", obj, names);
    if (first)
        add(&t, " (%s is %.1f%% lower, within the %.1f%% of the model's error that does not "
            "cancel between them, at most %.0f%%); %s breaks the tie.", first, 100 * tr->gap,
            100 * tr->error, 100 * PLAN_TIE_MAX, tr->by);
    else
        add(&t, " (the closest %.1f%% higher, within the %.1f%% of the model's error that does "
            "not cancel between them, at most %.0f%%); it is also the better on %s, the "
            "tie-break.", 100 * tr->gap, 100 * tr->error, 100 * PLAN_TIE_MAX, tr->by);
}

/* The clusters that tie with the objective's best, and what broke the tie. */
static void add_ties(struct text *t, const struct scenario *sc, const struct plan_report *rep,
                     int per)
{
    char names[512], buf[1024];
    struct text n = {names, sizeof names};
    int k = 0, first = rep->tie.first;

    if (rep->tie.n <= 0)
        return;
    names[0] = '\0';
    for (int i = 0; i < rep->nclusters; i++)
        if (i != rep->best && (i == first || ties_with(sc, rep, per, first, i)))
            add(&n, "%s%s", k++ ? ", " : "", rep->clusters[i].cl->name);
    plan_add_tie(buf, sizeof buf, sc, &rep->tie, names,
                 first != rep->best ? rep->clusters[first].cl->name : NULL);
    add(t, "%s", buf);
}

void plan_advice_listed(const struct scenario *sc, struct plan_report *rep)
{
    const struct plan_cluster *cur = &rep->clusters[0], *best;
    struct text t = {rep->reason, sizeof rep->reason};
    int per;
    double lo = NAN, hi = NAN;

    rep->reason[0] = '\0';
    if (rep->nfailed > 0 && strcmp(rep->failed[0].name, sc->clusters[0].name) == 0)
        add(&t, "The first cluster, %s, could not be simulated (Not comparable); compared from "
            "%s. ", rep->failed[0].name, cur->cl->name);
    /* clusters of other global batches: cost per step compared per sample */
    per = batches_differ(rep, &lo, &hi);
    ranked_by(sc, rep, per, lo, hi);
    rep->best = tie_break(sc, rep, per);
    if (rep->best < 0) {
        rep->action = PLAN_NONE;
        add(&t, "no cluster meets the constraints (memory, deadline or budget; each one's reason "
            "is under Infeasible); relax them or add candidates");
        return;
    }
    best = &rep->clusters[rep->best];
    rep->action = plan_advice_action(cur->cl, best->cl, rep->best == 0);
    if (!cur->feasible)
        add(&t, "%s cannot be used: %s.", cur->cl->name, cur->infeasible_why);
    else
        add(&t, "%s is %s.", cur->cl->name, cur->bound_text);
    if (rep->best != 0) {
        add(&t, " %s: ", best->cl->name);
        add_change(&t, cur, best);
        /* the clusters' global batches differ: the change per sample, as
         * they are ranked */
        if (per)
            add_cost_change(&t, cur->cost_per_step_usd / (cur->res.workers * cur->cfg.w.batch),
                            best->cost_per_step_usd / (best->res.workers * best->cfg.w.batch),
                            1);
        else
            add_cost_change(&t, cur->cost_per_step_usd, best->cost_per_step_usd, 0);
        add_train(&t, cur, best);
        add(&t, "; it is %s.", best->bound_text);
    } else {
        if (rep->tie.n == 0 || rep->tie.first == rep->best)
            add(&t, " It is the best of the %d clusters for %s.", rep->nclusters,
                scenario_objective_name(sc->objective.minimize));
        else
            add(&t, " It is recommended of the %d clusters for %s on a tie.", rep->nclusters,
                scenario_objective_name(sc->objective.minimize));
    }
    add_ties(&t, sc, rep, per);
    add_goodput(&t, best);
    if (best->layout_why[0])
        add(&t, " Layout: %s.", best->layout_why);
    {
        /* compared with the start, or when that is the best with the runner-up */
        const struct plan_cluster *other = rep->best != 0 ? cur : NULL;
        for (int i = 0; !other && i < rep->nclusters; i++)
            if (i != rep->best && rep->clusters[i].feasible &&
                (!other || rep->clusters[i].res.step_mean_s < other->res.step_mean_s))
                other = &rep->clusters[i];
        add_layouts(&t, best, other);
    }
    {
        const struct plan_cluster **tab = x_calloc((size_t)rep->nclusters, sizeof *tab);
        struct table tb = {tab, rep->nclusters, best, rep->action};
        for (int i = 0; i < rep->nclusters; i++)
            tab[i] = &rep->clusters[i];
        advise(&t, sc, cur, &tb, 0, rep->best == 0);
        x_free(tab);
    }
}

void plan_advice_search(const struct scenario *sc, const struct plan_advice_in *in, char *reason,
                        size_t cap)
{
    const struct plan_cluster *cur = in->cur, *best = in->best;
    const struct sc_group *ct = cluster_first_train(cur->cl);
    const struct sc_group *bt = cluster_first_train(best->cl);
    struct text t = {reason, cap};

    reason[0] = '\0';
    add(&t, "%s %s is %s.", in->cur_listed ? "The current choice" : "The smallest start",
        cur->cl->name, cur->bound_text);
    if (in->keep_current) {
        char a[32], b[32];
        numfmt_duration(a, sizeof a, cur->train_s, NUMFMT_OWN);
        numfmt_duration(b, sizeof b, best->train_s, NUMFMT_OWN);
        add(&t, " It does better on %s than the best of the %ld candidates searched, %s "
            "(step %.1f ms against %.1f ms, $%.3g against $%.3g per step", 
            scenario_objective_name(sc->objective.minimize), in->candidates, best->cl->name,
            1e3 * cur->res.step_mean_s, 1e3 * best->res.step_mean_s, cur->cost_per_step_usd,
            best->cost_per_step_usd);
        if (!isnan(cur->train_s) && !isnan(best->train_s))
            add(&t, ", %s and $%.2f to train against %s and $%.2f", a, cur->cost_to_train_usd,
                b, best->cost_to_train_usd);
        add(&t, "): keep it.");
        add_goodput(&t, cur);
        advise(&t, sc, cur, &(struct table){in->table, in->ntable, cur, in->action}, 1, 0);
        return;
    } else if (in->action == PLAN_KEEP) {
        add(&t, " It is also the best of %ld candidates for %s.", in->candidates,
            scenario_objective_name(sc->objective.minimize));
    } else {
        add(&t, " Best for %s: %s (%s, %s), ", scenario_objective_name(sc->objective.minimize),
            best->cl->name, sim_strategy_name(best->cfg.c.strategy), plan_action_name(in->action));
        add_change(&t, cur, best);
        add_train(&t, cur, best);
        if (!cur->feasible)
            add(&t, " (%s: %s)", cur->cl->name, cur->infeasible_why);
        add(&t, "; it is %s.", best->bound_text);
        if (in->tie->n > 0) {
            char names[64], buf[1024];
            snprintf(names, sizeof names, "%d of the top", in->tie->n);
            plan_add_tie(buf, sizeof buf, sc, in->tie, names,
                         in->tie_first ? in->tie_first->cl->name : NULL);
            add(&t, "%s", buf);
        }
        if (in->action == PLAN_SCALE_UP &&
            (double)bt->count * bt->inst->gpu_count < (double)ct->count * ct->inst->gpu_count)
            add(&t, " (scale_up here is a change of instance type to fewer GPUs, which does "
                "better for %s.)", scenario_objective_name(sc->objective.minimize));
    }
    add_goodput(&t, best);
    if (best->layout_why[0])
        add(&t, " Layout: %s.", best->layout_why);
    if (best != cur)
        add_layouts(&t, best, cur);
    {
        struct table tb = {in->table, in->ntable, best, in->action};
        advise(&t, sc, cur, &tb, 1, 0);
    }
}
