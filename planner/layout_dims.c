/*
 * layout_dims.c - the table of parallel dimensions the layout search walks
 * (layout_dims.h; the search is layout.c), one row each, in walk order:
 *
 *   tp          1, then under parallel.tp: auto the powers of two that divide
 *               every train node's GPUs and the model's heads and KV heads,
 *               then 2 and 4 whole nodes of one train group (parameter
 *               servers, as a search's candidate may use: 1 only)
 *   pp          1, then under parallel.pp: auto the powers of two up to 64
 *               that fit the cluster in Megatron's order at this tp
 *               (parameter servers: 1 only)
 *   cp          the scenario's, or under parallel.cp: auto 1 and the powers
 *               of two up to 16 that leave a rank 2,048 tokens or more of
 *               a sequence cut into 2 cp chunks
 *   interleave  1 without a pipeline; the scenario's when it gives one or
 *               fixes pp; else 1, 2 and 4 while a chunk keeps a layer
 *   ep          the scenario's, or under parallel.ep: auto 1 and the powers
 *               of two up to 64 that divide the model's experts and a
 *               pipeline stage's GPUs (a dense model: 1)
 *   etp         the scenario's, or under parallel.etp: auto tp's and, with
 *               experts split over tp > 1 and ep > 1, 1 (whole experts)
 *   ep_overlap  the scenario's, or under parallel.ep_overlap: auto off and,
 *               with ep > 1, on (the all-to-alls beside another micro-
 *               batch's compute, which the dispatcher's held SMs slow)
 *   recompute   the scenario's, or under auto none, selective and full
 *   sharding    the scenario's, or under auto those that make sense here:
 *               none only on one rank or with parameter servers, hsdp over
 *               several nodes of several ranks, none or zero1 under a
 *               pipeline
 *
 * Each row's values come simplest first, so that the search's near ties
 * (LAYOUT_MARGIN in layout.c) keep the simpler layout.  At most 9 x 7 x 5 x 3
 * x 7 x 2 x 2 x 3 x 5 combinations; pruning by the rows before (pp by tp, interleave by pp,
 * sharding by both and the cluster's shape) leaves far fewer.  A new
 * dimension is a row here: its values, its check on a candidate, its field
 * of the scenario, how a simulated cluster reports it, and its words.
 */
#include "layout_dims.h"

#include <stdio.h>

#include "resolve.h"
#include "../catalog/shape.h"

static const enum sc_sharding stages[] = {SC_SHARD_NONE, SC_SHARD_ZERO1, SC_SHARD_ZERO2,
                                          SC_SHARD_ZERO3, SC_SHARD_HSDP};
#define NSTAGES ((int)(sizeof stages / sizeof stages[0]))

/* A train group's GPUs a node and its nodes as the simulation takes them:
 * trays of a wider NVLink domain joined into its nodes (resolve_domain_nodes). */
static int node_gpus(const struct sc_group *g, int *nodes)
{
    int k = catalog_domain_units(g->inst, g->count);

    if (nodes)
        *nodes = g->count / k;
    return g->inst->gpu_count * k;
}

void layout_dims_space(const struct scenario *sc, const struct sc_cluster *cl,
                       struct layout_space *s)
{
    struct sc_comm comm;

    s->sc = sc;
    s->cl = cl;
    s->ranks = 0;
    s->nodes = 0;
    s->wpn = 1;
    for (int i = 0; i < cl->ngroups; i++) {
        const struct sc_group *g = &cl->groups[i];
        int nodes = g->count, w = g->inst->gpu_count > 0 ? node_gpus(g, &nodes) : 1;
        if (g->role != SIM_TRAIN)
            continue;
        s->ranks += nodes * w;
        s->nodes += nodes;
        if (w > s->wpn)
            s->wpn = w;
    }
    scenario_cluster_comm(sc, cl, &comm);
    s->is_ps = sim_is_ps(comm.strategy);
}

/* tp: 1, and under tp: auto the powers of two that divide every train
 * node's GPUs and the model's heads and KV heads (a model given by its
 * shape), then 2 and 4 whole nodes of one train group, across their NICs,
 * where the cluster has them: the ranking keeps them only where they pay. */
static int tp_values(const struct layout_space *s, const int *chosen, int *out)
{
    const struct scenario *sc = s->sc;
    const struct sc_cluster *cl = s->cl;
    int n = 0, wpn = 0, groups = 0, count = 0, max = layout_dims[LAYOUT_DIM_TP].max;

    (void)chosen;
    if (!sc->parallel.tp_auto || s->is_ps) {
        /* parameter servers (a search's candidate) run no tensor parallelism */
        out[0] = sc->parallel.tp > 1 && !s->is_ps ? sc->parallel.tp : 1;
        return 1;
    }
    for (int i = 0; i < cl->ngroups; i++)
        if (cl->groups[i].role == SIM_TRAIN) {
            int g = node_gpus(&cl->groups[i], &count);
            wpn = wpn == 0 ? g : (g < wpn ? g : wpn);
            groups++;
        }
    for (int tp = 1; n < max; tp *= 2) {
        if (tp > 1 && (wpn <= 0 || wpn % tp != 0 || !shape_known(sc->workload.model) ||
                       !shape_tp_fits(sc->workload.model, tp)))
            break;
        out[n++] = tp;
    }
    for (int k = 2; k <= 4 && n < max && groups == 1 && wpn > 1 && shape_known(sc->workload.model);
         k *= 2)
        if (count % k == 0 && sim_tp_fits(wpn, count, wpn * k) &&
            shape_tp_fits(sc->workload.model, wpn * k))
            out[n++] = wpn * k;
    return n;
}

/* pp: the scenario's, or under pp: auto 1 and the powers of two that fit
 * the cluster at the chosen tp in Megatron's order, at most a layer a stage
 * (sim_pp_fits; one group of GPU train nodes). */
static int pp_values(const struct layout_space *s, const int *chosen, int *out)
{
    const struct scenario *sc = s->sc;
    const struct sc_cluster *cl = s->cl;
    int n = 0, max = layout_dims[LAYOUT_DIM_PP].max;

    if (!sc->parallel.pp_auto || s->is_ps) {
        /* nor a pipeline */
        out[0] = sc->parallel.pp > 1 && !s->is_ps ? sc->parallel.pp : 1;
        return 1;
    }
    out[n++] = 1;
    if (cl->ngroups != 1 || cl->groups[0].inst->gpu_count < 1 || !shape_known(sc->workload.model))
        return n;
    {
        int nodes, gpus = node_gpus(&cl->groups[0], &nodes);
        for (int pp = 2; n < max && pp <= sc->workload.model->layers; pp *= 2)
            if (sim_pp_fits_in(gpus, nodes, chosen[LAYOUT_DIM_TP], pp, sc->parallel.order))
                out[n++] = pp;
    }
    return n;
}

/* A pipeline's micro-batches: with interleaving, a multiple of pp. */
static int pp_fits(const struct scenario *t, const struct sc_cluster *cl)
{
    char why[320];

    return t->parallel.pp <= 1 || resolve_pp_fits(t, cl, why, sizeof why);
}

/* cp: the scenario's, or under auto 1 and the powers of two (up to the
 * row's max) whose 2 cp chunks of a sequence leave a rank 2,048 tokens or
 * more and that fit the GPUs with the chosen tp and pp. */
#define CP_MIN_TOKENS 2048
static int cp_values(const struct layout_space *s, const int *chosen, int *out)
{
    const struct scenario *sc = s->sc;
    int n = 0, max = layout_dims[LAYOUT_DIM_CP].max, rep = chosen[LAYOUT_DIM_TP] * chosen[LAYOUT_DIM_PP];
    double seq;

    if (!sc->parallel.cp_auto || s->is_ps) {
        out[0] = sc->parallel.cp > 1 && !s->is_ps ? sc->parallel.cp : 1;
        return 1;
    }
    out[n++] = 1;
    if (!shape_known(sc->workload.model))
        return n;
    seq = scenario_seq_len(sc);
    for (int cp = 2; n < max; cp *= 2) {
        if (seq / cp < CP_MIN_TOKENS || (long)seq % (2L * cp) != 0 || s->ranks % (rep * cp) != 0)
            break;
        out[n++] = cp;
    }
    return n;
}

static int cp_fits(const struct scenario *t, const struct sc_cluster *cl)
{
    char why[320];

    return t->parallel.cp <= 1 || resolve_cp_fits(t, cl, why, sizeof why);
}

/* ep: the scenario's, or under auto 1 and the powers of two up to the row's
 * max that divide the model's experts and a pipeline stage's GPUs (the
 * rows before: tp x cp x data-parallel ranks); 1 for a dense model. */
static int ep_values(const struct layout_space *s, const int *chosen, int *out)
{
    const struct scenario *sc = s->sc;
    const struct cat_model *m = sc->workload.model;
    int n = 0, max = layout_dims[LAYOUT_DIM_EP].max, stage = s->ranks / chosen[LAYOUT_DIM_PP];

    if (!sc->parallel.ep_auto || s->is_ps) {
        out[0] = sc->parallel.ep > 1 && !s->is_ps ? sc->parallel.ep : 1;
        return 1;
    }
    out[n++] = 1;
    if (!shape_known(m) || m->experts <= 0)
        return n;
    for (int ep = 2; n < max && ep <= m->experts; ep *= 2)
        if (m->experts % ep == 0 && stage % ep == 0)
            out[n++] = ep;
    return n;
}

static int ep_fits(const struct scenario *t, const struct sc_cluster *cl)
{
    char why[320];

    return (t->parallel.ep <= 1 && t->parallel.etp <= 0) || resolve_ep_fits(t, cl, why, sizeof why);
}

/* etp: the scenario's, or under auto tp's (0) and, where experts split over
 * tp > 1 under ep > 1, 1: whole experts, ep taken across the tensor-
 * parallel ranks too. */
static int etp_values(const struct layout_space *s, const int *chosen, int *out)
{
    const struct scenario *sc = s->sc;

    out[0] = sc->parallel.etp_auto ? 0 : sc->parallel.etp;
    if (!sc->parallel.etp_auto || chosen[LAYOUT_DIM_TP] <= 1 || chosen[LAYOUT_DIM_EP] <= 1)
        return 1;
    out[1] = 1;
    return 2;
}

/* ep_overlap: the scenario's, or under auto off and, where the chosen ep
 * splits the experts (ep > 1), on. */
static int ep_overlap_values(const struct layout_space *s, const int *chosen, int *out)
{
    const struct scenario *sc = s->sc;

    /* as a simulated cluster reports it: off where nothing is split */
    out[0] = !sc->parallel.ep_overlap_auto && chosen[LAYOUT_DIM_EP] > 1 && sc->parallel.ep_overlap;
    if (!sc->parallel.ep_overlap_auto || chosen[LAYOUT_DIM_EP] <= 1)
        return 1;
    out[1] = 1;
    return 2;
}

/* interleave: 1 without a pipeline; the scenario's when it gives one or
 * fixes pp; else 1, 2 and 4 while a chunk keeps a layer. */
static int interleave_values(const struct layout_space *s, const int *chosen, int *out)
{
    const struct scenario *sc = s->sc;
    int n = 0, pp = chosen[LAYOUT_DIM_PP], max = layout_dims[LAYOUT_DIM_INTERLEAVE].max;

    if (pp == 1) {
        out[0] = 1;
        return 1;
    }
    if (sc->parallel.interleave_set || !sc->parallel.pp_auto) {
        out[0] = sc->parallel.interleave > 1 ? sc->parallel.interleave : 1;
        return 1;
    }
    for (int v = 1; n < max && pp * v <= sc->workload.model->layers +
                                              (sc->parallel.pp_split == SC_PP_SPLIT_EMBEDDING_LOSS ? 2 : 0);
         v *= 2)
        out[n++] = v;
    return n;
}

static int recompute_values(const struct layout_space *s, const int *chosen, int *out)
{
    (void)chosen;
    if (!s->sc->parallel.recompute_auto || s->sc->workload.offload_layers > 0) {
        /* offloading runs without recompute (ld_offload) */
        out[0] = (int)s->sc->parallel.recompute;
        return 1;
    }
    out[0] = SC_RECOMPUTE_NONE;
    out[1] = SC_RECOMPUTE_SELECTIVE;
    out[2] = SC_RECOMPUTE_FULL;
    return 3;
}

/* Whether the search tries stage st on s under the chosen tp and pp: the
 * scenario's alone when it names one (fsdp in zero3's place), else what
 * makes sense (none only with one replica or parameter servers; hsdp over
 * several nodes of several ranks; none or zero1 under a pipeline). */
static int stage_ok(const struct layout_space *s, enum sc_sharding st, const int *chosen)
{
    const struct scenario *sc = s->sc;
    int tp = chosen[LAYOUT_DIM_TP], pp = chosen[LAYOUT_DIM_PP];
    int shards = s->ranks / layout_dims_ranks(chosen, LAYOUT_DIM_SHARDING) > 1 && !s->is_ps;

    if (!sc->parallel.sharding_auto)
        return st == (sc->parallel.sharding == SC_SHARD_FSDP ? SC_SHARD_ZERO3 : sc->parallel.sharding);
    if (st == SC_SHARD_HSDP && (s->nodes < 2 || s->wpn / tp < 2))
        return 0;   /* hsdp is zero3 on one node or one replica a node */
    if (!shards && st != SC_SHARD_NONE)
        return 0;
    return pp == 1 || st <= SC_SHARD_ZERO1;
}

/* sharding: the stages stage_ok allows, as simulated (a scenario's fsdp
 * stays fsdp). */
static int sharding_values(const struct layout_space *s, const int *chosen, int *out)
{
    int n = 0;

    for (int i = 0; i < NSTAGES; i++)
        if (stage_ok(s, stages[i], chosen))
            out[n++] = (int)(s->sc->parallel.sharding_auto ? stages[i] : s->sc->parallel.sharding);
    return n;
}

static void cp_apply(struct sc_parallel *p, int value) { p->cp = value; }
static void ep_apply(struct sc_parallel *p, int value) { p->ep = value; }
static void etp_apply(struct sc_parallel *p, int value) { p->etp = value; }
static void ep_overlap_apply(struct sc_parallel *p, int value) { p->ep_overlap = value; }
static void tp_apply(struct sc_parallel *p, int value) { p->tp = value; }
static void pp_apply(struct sc_parallel *p, int value) { p->pp = value; }
static void interleave_apply(struct sc_parallel *p, int value) { p->interleave = value; }
static void recompute_apply(struct sc_parallel *p, int value)
{
    p->recompute = (enum sc_recompute)value;
}
static void sharding_apply(struct sc_parallel *p, int value)
{
    p->sharding = (enum sc_sharding)value;
}

static int tp_of_result(const struct plan_cluster *pc)
{
    return pc->cfg.c.tp > 1 ? pc->cfg.c.tp : 1;
}
static int pp_of_result(const struct plan_cluster *pc)
{
    return pc->cfg.c.pp > 1 ? pc->cfg.c.pp : 1;
}
static int interleave_of_result(const struct plan_cluster *pc)
{
    return pp_of_result(pc) > 1 && pc->cfg.c.pp_interleave > 1 ? pc->cfg.c.pp_interleave : 1;
}
static int cp_of_result(const struct plan_cluster *pc) { return pc->cp > 1 ? pc->cp : 1; }
static int ep_of_result(const struct plan_cluster *pc) { return pc->ep > 1 ? pc->ep : 1; }
static int etp_of_result(const struct plan_cluster *pc) { return pc->etp; }
static int ep_overlap_of_result(const struct plan_cluster *pc) { return pc->ep_overlap; }
static int recompute_of_result(const struct plan_cluster *pc) { return (int)pc->recompute; }
static int sharding_of_result(const struct plan_cluster *pc) { return (int)pc->sharding; }

/* The words: "tp 8 x pp 4 (interleave 2) + zero1, recompute full", each
 * part only where the search chose it (tp named under pp: auto too). */
static int tp_text(const struct scenario *sc, const int *val, int first, char *buf, size_t len)
{
    (void)first;
    if (!sc->parallel.tp_auto && !sc->parallel.pp_auto)
        return 0;
    return snprintf(buf, len, "tp %d ", val[LAYOUT_DIM_TP]);
}
static int pp_text(const struct scenario *sc, const int *val, int first, char *buf, size_t len)
{
    (void)first;
    return sc->parallel.pp_auto ? snprintf(buf, len, "x pp %d ", val[LAYOUT_DIM_PP]) : 0;
}
static int interleave_text(const struct scenario *sc, const int *val, int first, char *buf,
                           size_t len)
{
    (void)first;
    if (!sc->parallel.pp_auto || val[LAYOUT_DIM_PP] <= 1)
        return 0;
    return snprintf(buf, len, "(interleave %d) ", val[LAYOUT_DIM_INTERLEAVE]);
}
static int cp_text(const struct scenario *sc, const int *val, int first, char *buf, size_t len)
{
    return sc->parallel.cp_auto ? snprintf(buf, len, "%scp %d ", first ? "" : "x ", val[LAYOUT_DIM_CP])
                                : 0;
}
static int ep_text(const struct scenario *sc, const int *val, int first, char *buf, size_t len)
{
    return sc->parallel.ep_auto ? snprintf(buf, len, "%sep %d ", first ? "" : "x ", val[LAYOUT_DIM_EP])
                                : 0;
}
static int etp_text(const struct scenario *sc, const int *val, int first, char *buf, size_t len)
{
    (void)first;
    if (!sc->parallel.etp_auto || val[LAYOUT_DIM_EP] <= 1 || val[LAYOUT_DIM_TP] <= 1)
        return 0;
    return val[LAYOUT_DIM_ETP] > 0 ? snprintf(buf, len, "(etp %d) ", val[LAYOUT_DIM_ETP])
                                   : snprintf(buf, len, "(etp tp's) ");
}
static int ep_overlap_text(const struct scenario *sc, const int *val, int first, char *buf,
                           size_t len)
{
    (void)first;
    if (!sc->parallel.ep_overlap_auto || val[LAYOUT_DIM_EP] <= 1)
        return 0;
    return snprintf(buf, len, ", ep_overlap %s", val[LAYOUT_DIM_EP_OVERLAP] ? "on" : "off");
}
static int recompute_text(const struct scenario *sc, const int *val, int first, char *buf,
                          size_t len)
{
    (void)first;
    if (!sc->parallel.recompute_auto)
        return 0;
    return snprintf(buf, len, ", recompute %s",
                    scenario_recompute_name((enum sc_recompute)val[LAYOUT_DIM_RECOMPUTE]));
}
static int sharding_text(const struct scenario *sc, const int *val, int first, char *buf,
                         size_t len)
{
    (void)sc;
    return snprintf(buf, len, "%s%s", first ? "" : "+ ",
                    scenario_sharding_name((enum sc_sharding)val[LAYOUT_DIM_SHARDING]));
}

const struct layout_dim layout_dims[LAYOUT_NDIMS] = {
    [LAYOUT_DIM_TP] = {"tp", 9, 1, LAYOUT_TEXT_SHAPE, tp_values, NULL, tp_apply, tp_of_result,
                       tp_text},
    [LAYOUT_DIM_PP] = {"pp", 7, 1, LAYOUT_TEXT_SHAPE, pp_values, pp_fits, pp_apply, pp_of_result,
                       pp_text},
    [LAYOUT_DIM_CP] = {"cp", 5, 1, LAYOUT_TEXT_SHAPE, cp_values, cp_fits, cp_apply, cp_of_result,
                       cp_text},
    [LAYOUT_DIM_INTERLEAVE] = {"interleave", 3, 0, LAYOUT_TEXT_SHAPE, interleave_values, NULL,
                               interleave_apply, interleave_of_result, interleave_text},
    [LAYOUT_DIM_EP] = {"ep", 7, 0, LAYOUT_TEXT_SHAPE, ep_values, ep_fits, ep_apply, ep_of_result,
                       ep_text},
    [LAYOUT_DIM_ETP] = {"etp", 2, 0, LAYOUT_TEXT_SHAPE, etp_values, NULL, etp_apply,
                        etp_of_result, etp_text},
    [LAYOUT_DIM_EP_OVERLAP] = {"ep_overlap", 2, 0, LAYOUT_TEXT_OPTION, ep_overlap_values, NULL,
                               ep_overlap_apply, ep_overlap_of_result, ep_overlap_text},
    [LAYOUT_DIM_RECOMPUTE] = {"recompute", 3, 0, LAYOUT_TEXT_OPTION, recompute_values, NULL,
                              recompute_apply, recompute_of_result, recompute_text},
    [LAYOUT_DIM_SHARDING] = {"sharding", NSTAGES, 0, LAYOUT_TEXT_STAGE, sharding_values, NULL,
                             sharding_apply, sharding_of_result, sharding_text},
};

int layout_dims_most(void)
{
    int most = 1;

    for (int d = 0; d < LAYOUT_NDIMS; d++)
        most *= layout_dims[d].max;
    return most;
}

/* The rows from d down, under the values val holds for the rows above. */
static int walk_from(const struct layout_space *s, int d, int *val,
                     int (*visit)(const int *val, void *arg), void *arg)
{
    int vals[LAYOUT_DIM_MAX_VALUES], n, rc = 0;

    if (d == LAYOUT_NDIMS)
        return visit(val, arg);
    n = layout_dims[d].values(s, val, vals);
    for (int i = 0; i < n && rc == 0; i++) {
        val[d] = vals[i];
        rc = walk_from(s, d + 1, val, visit, arg);
    }
    return rc;
}

int layout_dims_walk(const struct layout_space *s, int (*visit)(const int *val, void *arg),
                     void *arg)
{
    int val[LAYOUT_NDIMS] = {0};

    return walk_from(s, 0, val, visit, arg);
}

int layout_dims_ranks(const int *val, int n)
{
    int ranks = 1;

    for (int d = 0; d < n; d++)
        if (layout_dims[d].splits_ranks)
            ranks *= val[d];
    return ranks;
}

int layout_dims_fit(const struct scenario *t, const struct sc_cluster *cl)
{
    int ok = 1;
    struct sc_cluster own;
    struct cat_instance part[SC_MAX_GROUPS];

    cl = resolve_domain_nodes(cl, &own, part);      /* the nodes resolve_cluster makes */

    for (int d = 0; d < LAYOUT_NDIMS && ok; d++)
        ok = !layout_dims[d].fits || layout_dims[d].fits(t, cl);
    return ok;
}

void layout_dims_apply(struct sc_parallel *p, const int *val)
{
    for (int d = 0; d < LAYOUT_NDIMS; d++)
        layout_dims[d].apply(p, val[d]);
}

void layout_dims_of_result(const struct plan_cluster *pc, int *val)
{
    for (int d = 0; d < LAYOUT_NDIMS; d++)
        val[d] = layout_dims[d].of_result(pc);
}

const char *layout_dims_name(const struct scenario *sc, const int *val, char *buf, size_t len)
{
    size_t n = 0;

    buf[0] = '\0';
    for (int part = 0; part < LAYOUT_NTEXT; part++)
        for (int d = 0; d < LAYOUT_NDIMS; d++)
            if (layout_dims[d].text_part == (enum layout_text)part && n < len)
                n += (size_t)layout_dims[d].text(sc, val, n == 0, buf + n, len - n);
    return buf;
}
