/*
 * chrome_trace.c - the Chrome trace event writer (chrome_trace.h; format: "Trace Event
 * Format", the JSON object form with traceEvents, as chrome://tracing and
 * Perfetto read it).
 *
 * Per cluster, from the steps the planner recorded (plan_opts.trace,
 * sim/trace.h):
 *   - give each span a lane of its track so that spans of one thread never
 *     overlap (greedy interval partitioning in start order: O(n log n));
 *   - write metadata (process and thread names and order), complete events
 *     ("X") for spans, instant events for bucket releases, flow events
 *     ("s", "t", "f", bound to the enclosing slice) joining the spans of one
 *     batch or one bucket, and counter events ("C").
 * Times are simulated seconds written as microseconds with nanosecond
 * resolution; start and end are rounded to whole nanoseconds first, so a
 * span that ends when the next begins never overlaps it in the file.
 * Output is deterministic: recording order, fixed formats.
 */
#include "chrome_trace.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../sim/trace.h"

static void put_str(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            fprintf(f, "\\%c", c);
        else if (c < 0x20)
            fprintf(f, "\\u%04x", c);
        else
            fputc(c, f);
    }
    fputc('"', f);
}

static long long to_ns(double t_s)
{
    double ns = t_s * 1e9;

    /* a simulated time is finite and far below 292 years; clamped, so that
     * no value converts out of range */
    return ns < 9e18 ? (ns > -9e18 ? llround(ns) : -9000000000000000000LL)
                     : 9000000000000000000LL;
}

/* Microseconds with three decimals from whole nanoseconds (>= 0). */
static void put_us(FILE *f, long long ns)
{
    fprintf(f, "%lld.%03lld", ns / 1000, ns % 1000);
}

/* ---- names ---------------------------------------------------------------- */

static const char *role_name(enum sim_role r)
{
    return r == SIM_TRAIN ? "train" : r == SIM_DATA ? "data" : "ps";
}

/* "g0 train 4x p4d.24xlarge" */
static void group_label(char *buf, size_t n, const struct plan_cluster *pc, int g)
{
    const struct sim_group *sg = &pc->cfg.groups[g];
    const char *inst = pc->cl && g < pc->cl->ngroups && pc->cl->groups[g].inst
                           ? pc->cl->groups[g].inst->name : NULL;

    if (inst)
        snprintf(buf, n, "g%d %s %dx %s", g, role_name(sg->role), sg->count, inst);
    else
        snprintf(buf, n, "g%d %s %dx", g, role_name(sg->role), sg->count);
}

/* Short name, used for counters: "g0 NIC tx". */
static void track_short(char *buf, size_t n, const struct sim_trace_track *tk,
                        const struct sim_config *cfg)
{
    static const char *kind[SIM_TRACK_NKIND] = {"compute", "CPU", "PCIe", "NIC tx", "NIC rx",
                                                "GPU link", "fabric", "collective"};
    const char *k = kind[tk->kind];

    if (tk->kind == SIM_TRACK_COMPUTE && tk->group >= 0)
        k = cfg->groups[tk->group].gpus > 0 ? "GPU compute" : "CPU compute";
    if (tk->group >= 0)
        snprintf(buf, n, "g%d %s", tk->group, k);
    else if (tk->kind == SIM_TRACK_CHAIN)
        snprintf(buf, n, "collective %d", tk->index);
    else
        snprintf(buf, n, "%s", k);
}

/* "stands for each of 4 nodes", or "one node" when it stands for one. */
static void stands(char *buf, size_t n, double count, const char *one, const char *many)
{
    if (count == 1)
        snprintf(buf, n, "one %s", one);
    else
        snprintf(buf, n, "stands for each of %g %s", count, many);
}

/* Long name of a track, saying what it stands for. */
static void track_long(char *buf, size_t n, const struct sim_trace_track *tk,
                       const struct plan_cluster *pc)
{
    const struct sim_config *cfg = &pc->cfg;
    char grp[160] = "";
    const char *what = "";
    char extra[160] = "", who[80];

    if (tk->group >= 0)
        group_label(grp, sizeof grp, pc, tk->group);
    switch (tk->kind) {
    case SIM_TRACK_COMPUTE:
        what = cfg->groups[tk->group].gpus > 0 ? "GPU compute" : "CPU compute";
        if (tk->stands_for == 1)
            snprintf(extra, sizeof extra, "one %s", cfg->groups[tk->group].gpus > 0 ? "GPU" : "CPU node");
        else
            snprintf(extra, sizeof extra, "one simulated worker stands for %g %s", tk->stands_for,
                     cfg->groups[tk->group].gpus > 0 ? "GPUs" : "CPU nodes");
        break;
    case SIM_TRACK_CPU: {
        enum sim_role r = cfg->groups[tk->group].role;
        what = r == SIM_TRAIN ? "CPU, input loader workers"
               : r == SIM_DATA ? "CPU, preprocessing for the train nodes" : "CPU, gradient summation";
        stands(who, sizeof who, tk->stands_for, "node", "nodes");
        snprintf(extra, sizeof extra, "%.3g reference cores per node; %s", tk->cap, who);
        break;
    }
    case SIM_TRACK_PCIE:
        what = "PCIe host to device";
        stands(who, sizeof who, tk->stands_for, "GPU", "GPUs");
        snprintf(extra, sizeof extra, "%.3g GB/s per GPU; %s", tk->cap / 1e9, who);
        break;
    case SIM_TRACK_NIC_TX:
    case SIM_TRACK_NIC_RX:
        what = tk->kind == SIM_TRACK_NIC_TX ? "NIC transmit" : "NIC receive";
        stands(who, sizeof who, tk->stands_for, "node", "nodes");
        snprintf(extra, sizeof extra, "%.3g GB/s; %s", tk->cap / 1e9, who);
        break;
    case SIM_TRACK_GPU_LINK:
        what = "GPU link";
        stands(who, sizeof who, tk->stands_for, "GPU", "GPUs");
        snprintf(extra, sizeof extra, "%.3g GB/s per GPU; %s", tk->cap / 1e9, who);
        break;
    case SIM_TRACK_FABRIC:
        what = "fabric";
        snprintf(extra, sizeof extra, "oversubscribed %g:1, %.3g GB/s in all", cfg->fabric_oversub,
                 tk->cap / 1e9);
        break;
    case SIM_TRACK_CHAIN:
        what = "gradient buckets";
        snprintf(extra, sizeof extra, "%s phases, all ranks of the collective",
                 sim_strategy_name(cfg->c.strategy));
        break;
    default:
        break;
    }
    snprintf(buf, n, "%s%s%s (%s)", grp, grp[0] ? ": " : "", what, extra);
}

static const char *span_cat(const struct sim_trace_span *sp)
{
    switch (sp->act) {
    case SIM_ACT_WAIT_BATCH:
    case SIM_ACT_WAIT_COMM: return "wait";
    case SIM_ACT_FWD:
    case SIM_ACT_BWD:
    case SIM_ACT_OPT: return "compute";
    case SIM_ACT_STAGE: return "input";
    default: return "collective";
    }
}

static void span_name(char *buf, size_t n, const struct sim_trace_span *sp,
                      const struct sim_trace_track *tk, const struct sim_config *cfg)
{
    switch (sp->act) {
    case SIM_ACT_WAIT_BATCH: snprintf(buf, n, "waiting for input"); break;
    case SIM_ACT_FWD: snprintf(buf, n, "forward"); break;
    case SIM_ACT_BWD: snprintf(buf, n, "backward"); break;
    case SIM_ACT_WAIT_COMM: snprintf(buf, n, "waiting for gradients"); break;
    case SIM_ACT_OPT: snprintf(buf, n, "optimizer"); break;
    case SIM_ACT_STAGE:
        if (tk->kind == SIM_TRACK_CPU)
            snprintf(buf, n, "%s", cfg->groups[tk->group].role == SIM_DATA ? "preprocess batch (data node)"
                                   : sp->c == 0 ? "preprocess batch" : "receive batch");
        else if (tk->kind == SIM_TRACK_PCIE)
            snprintf(buf, n, "host-to-device copy");
        else
            snprintf(buf, n, "input batch transfer");
        break;
    case SIM_ACT_PHASE: snprintf(buf, n, "bucket %d phase %d", sp->b, sp->c); break;
    case SIM_ACT_PHASE_FLOW: snprintf(buf, n, "gradients, bucket %d phase %d", sp->b, sp->c); break;
    case SIM_ACT_BUCKET: snprintf(buf, n, "bucket %d released", sp->b); break;
    case SIM_ACT_SHARD:
        snprintf(buf, n, "%s %d phase %d",
                 sp->a == 0 ? "parameter all-gather" : sp->a == 1 ? "gradient reduction"
                 : sp->a == 2 ? "tensor-parallel collectives, worker"
                              : "expert all-to-alls, worker",
                 sp->b, sp->c);
        break;
    case SIM_ACT_SHARD_FLOW:
        snprintf(buf, n, "%s, collective %d phase %d",
                 sp->a == 0 ? "parameters" : sp->a == 1 ? "gradients" : sp->a == 2 ? "activations"
                                                                               : "tokens",
                 sp->b, sp->c);
        break;
    default: snprintf(buf, n, "?"); break;
    }
}

/* ---- lanes and flows ------------------------------------------------------ */

struct item {
    long long t0, t1;   /* ns */
    size_t idx;         /* span index */
    int track;
    unsigned long long flow;
};

static int by_track_start(const void *pa, const void *pb)
{
    const struct item *a = pa, *b = pb;
    if (a->track != b->track)
        return a->track < b->track ? -1 : 1;
    if (a->t0 != b->t0)
        return a->t0 < b->t0 ? -1 : 1;
    return a->idx < b->idx ? -1 : a->idx > b->idx;
}

static int by_flow_time(const void *pa, const void *pb)
{
    const struct item *a = pa, *b = pb;
    long long ma = (a->t0 + a->t1) / 2, mb = (b->t0 + b->t1) / 2;
    if (a->flow != b->flow)
        return a->flow < b->flow ? -1 : 1;
    if (ma != mb)
        return ma < mb ? -1 : 1;
    if (a->track != b->track)
        return a->track < b->track ? -1 : 1;
    return a->idx < b->idx ? -1 : a->idx > b->idx;
}

/* ---- one cluster ---------------------------------------------------------- */

struct writer {
    FILE *f;
    int first;                 /* no event written yet */
    long long next_flow;       /* flow ids, unique in the file */
};

static void ev_begin(struct writer *w)
{
    fputs(w->first ? "\n" : ",\n", w->f);
    w->first = 0;
}

/* Where a cluster's spans go: visible spans sorted by track and start, each
 * span's lane within its track, and each track's first thread id. */
struct layout {
    struct item *it;
    size_t nit;
    int *lane;                  /* per span index */
    int *nlanes;                /* per track */
    int *tid0;                  /* per track */
};

/* Visible spans (finished, longer than a nanosecond) laid out in lanes. */
static void layout_spans(struct layout *ly, const struct sim_trace *tr)
{
    size_t ns = tr->nspans;
    long long *lane_end = NULL;
    int cap_lane = 0;

    ly->it = x_calloc(ns ? ns : 1, sizeof *ly->it);
    ly->lane = x_calloc(ns ? ns : 1, sizeof *ly->lane);
    ly->nlanes = x_calloc((size_t)tr->ntracks + 1, sizeof *ly->nlanes);
    ly->tid0 = x_calloc((size_t)tr->ntracks + 1, sizeof *ly->tid0);
    ly->nit = 0;
    for (size_t i = 0; i < ns; i++) {
        const struct sim_trace_span *sp = &tr->spans[i];
        long long a, b;
        if (sp->act == SIM_ACT_BUCKET || !isfinite(sp->t1_s))
            continue;
        a = to_ns(sp->t0_s);
        b = to_ns(sp->t1_s);
        if (b <= a)
            continue;
        ly->it[ly->nit++] = (struct item){a, b, i, sp->track, sp->flow};
    }
    if (ly->nit > 1)
        qsort(ly->it, ly->nit, sizeof *ly->it, by_track_start);
    for (size_t k = 0; k < ly->nit;) {
        int t = ly->it[k].track, nl = 0;
        for (; k < ly->nit && ly->it[k].track == t; k++) {
            int l = 0;
            while (l < nl && lane_end[l] > ly->it[k].t0)
                l++;
            if (l == nl) {
                if (nl == cap_lane) {
                    cap_lane = cap_lane ? cap_lane * 2 : 8;
                    lane_end = x_realloc(lane_end, (size_t)cap_lane * sizeof *lane_end);
                }
                nl++;
            }
            lane_end[l] = ly->it[k].t1;
            ly->lane[ly->it[k].idx] = l;
        }
        ly->nlanes[t] = nl;
    }
    for (int t = 0, tid = 1; t < tr->ntracks; t++) {
        ly->tid0[t] = tid;
        tid += ly->nlanes[t] > 0 ? ly->nlanes[t] : 1;
    }
    x_free(lane_end);
}

static void layout_free(struct layout *ly)
{
    x_free(ly->it);
    x_free(ly->lane);
    x_free(ly->nlanes);
    x_free(ly->tid0);
}

/* Process and thread names and their order. */
static void write_meta(struct writer *w, const struct plan_cluster *pc, int pid,
                       const struct sim_trace *tr, const struct layout *ly)
{
    FILE *f = w->f;
    const struct sim_config *cfg = &pc->cfg;
    char name[1024], label[400];

    label[0] = 0;
    for (int g = 0, len = 0; g < cfg->ngroups && len < (int)sizeof label; g++) {
        char one[160];
        group_label(one, sizeof one, pc, g);
        /* "train 4x p4d.24xlarge + data 2x c5.18xlarge": the label without "gN ". */
        len += snprintf(label + len, sizeof label - (size_t)len, "%s%s", g ? " + " : "",
                        strchr(one, ' ') + 1);
    }
    snprintf(name, sizeof name, "cluster %s: %s%s", pc->cl ? pc->cl->name : "?", label,
             tr->truncated ? " (trace cut: too many records)" : "");
    ev_begin(w);
    fprintf(f, "{\"ph\":\"M\",\"pid\":%d,\"name\":\"process_name\",\"args\":{\"name\":", pid);
    put_str(f, name);
    fprintf(f, "}}");
    ev_begin(w);
    fprintf(f, "{\"ph\":\"M\",\"pid\":%d,\"name\":\"process_sort_index\",\"args\":{\"sort_index\":%d}}",
            pid, pid);
    for (int t = 0; t < tr->ntracks; t++) {
        int nl = ly->nlanes[t] > 0 ? ly->nlanes[t] : 1;
        char base[400];
        track_long(base, sizeof base, &tr->tracks[t], pc);
        for (int l = 0; l < nl; l++) {
            if (l == 0)
                snprintf(name, sizeof name, "%s", base);
            else
                snprintf(name, sizeof name, "%s [lane %d]", base, l + 1);
            ev_begin(w);
            fprintf(f, "{\"ph\":\"M\",\"pid\":%d,\"tid\":%d,\"name\":\"thread_name\",\"args\":{\"name\":",
                    pid, ly->tid0[t] + l);
            put_str(f, name);
            fprintf(f, "}}");
            ev_begin(w);
            fprintf(f, "{\"ph\":\"M\",\"pid\":%d,\"tid\":%d,\"name\":\"thread_sort_index\","
                       "\"args\":{\"sort_index\":%d}}", pid, ly->tid0[t] + l, ly->tid0[t] + l);
        }
    }
}

/* Spans, in recording order; bucket releases as instants. */
static void write_spans(struct writer *w, const struct plan_cluster *pc, int pid,
                        const struct sim_trace *tr, const struct layout *ly)
{
    FILE *f = w->f;
    char name[1024];

    for (size_t i = 0; i < tr->nspans; i++) {
        const struct sim_trace_span *sp = &tr->spans[i];
        const struct sim_trace_track *tk = &tr->tracks[sp->track];
        long long a = to_ns(sp->t0_s), b;
        int instant = sp->act == SIM_ACT_BUCKET;
        const char *sep = "";
        if (!instant && !isfinite(sp->t1_s))
            continue;
        b = instant ? a : to_ns(sp->t1_s);
        if (!instant && b <= a)
            continue;
        span_name(name, sizeof name, sp, tk, &pc->cfg);
        ev_begin(w);
        fprintf(f, "{\"ph\":\"%s\",\"pid\":%d,\"tid\":%d,\"ts\":", instant ? "i" : "X", pid,
                ly->tid0[sp->track] + (instant ? 0 : ly->lane[i]));
        put_us(f, a);
        if (instant) {
            fprintf(f, ",\"s\":\"t\"");
        } else {
            fprintf(f, ",\"dur\":");
            put_us(f, b - a);
        }
        fprintf(f, ",\"name\":");
        put_str(f, name);
        fprintf(f, ",\"cat\":\"%s\",\"args\":{", span_cat(sp));
        if (sp->step >= 0) {
            fprintf(f, "\"step\":%d", sp->step);
            sep = ",";
        }
        if (sp->amount > 0) {
            fprintf(f, "%s\"%s\":%.6g", sep,
                    tk->kind == SIM_TRACK_CPU ? "reference_core_s" : "bytes", sp->amount);
            sep = ",";
        }
        if (sp->mult != 1)
            fprintf(f, "%s\"flows_per_resource\":%.6g", sep, sp->mult);
        fprintf(f, "}}");
    }
}

/* Flows: the spans of one batch or one bucket, in time order (re-sorts ly->it). */
static void write_flows(struct writer *w, int pid, const struct sim_trace *tr, struct layout *ly)
{
    FILE *f = w->f;

    if (ly->nit > 1)
        qsort(ly->it, ly->nit, sizeof *ly->it, by_flow_time);
    for (size_t k = 0; k < ly->nit;) {
        size_t e = k;
        while (e < ly->nit && ly->it[e].flow == ly->it[k].flow)
            e++;
        if (ly->it[k].flow != 0 && e - k >= 2) {
            long long id = ++w->next_flow;
            enum sim_act act = tr->spans[ly->it[k].idx].act;
            int input = act == SIM_ACT_STAGE;
            const char *name = input ? "input batch"
                               : act == SIM_ACT_SHARD || act == SIM_ACT_SHARD_FLOW
                                   ? "sharded collective" : "gradient bucket";
            for (size_t j = k; j < e; j++) {
                const struct item *x = &ly->it[j];
                ev_begin(w);
                fprintf(f, "{\"ph\":\"%s\",\"id\":%lld,\"pid\":%d,\"tid\":%d,\"ts\":",
                        j == k ? "s" : j + 1 == e ? "f" : "t", id, pid,
                        ly->tid0[x->track] + ly->lane[x->idx]);
                put_us(f, (x->t0 + x->t1) / 2);
                fprintf(f, ",\"name\":\"%s\",\"cat\":\"%s\",\"bp\":\"e\"}",
                        name, input ? "input" : "collective");
            }
        }
        k = e;
    }
}

/* Counters: input queue depth and each resource's utilisation. */
static void write_counters(struct writer *w, const struct plan_cluster *pc, int pid,
                           const struct sim_trace *tr)
{
    FILE *f = w->f;
    char name[1024];

    for (size_t i = 0; i < tr->nsamples; i++) {
        const struct sim_trace_sample *s = &tr->samples[i];
        char sh[96];
        track_short(sh, sizeof sh, &tr->tracks[s->track], &pc->cfg);
        if (s->what == SIM_CNT_READY)
            snprintf(name, sizeof name, "%s input queue (batches ready)", sh);
        else
            snprintf(name, sizeof name, "%s utilisation (%%)", sh);
        ev_begin(w);
        fprintf(f, "{\"ph\":\"C\",\"pid\":%d,\"ts\":", pid);
        put_us(f, to_ns(s->t_s));
        fprintf(f, ",\"name\":");
        put_str(f, name);
        if (s->what == SIM_CNT_READY)
            fprintf(f, ",\"args\":{\"batches\":%.0f}}", s->v);
        else
            fprintf(f, ",\"args\":{\"busy_pct\":%.4g}}", 100 * s->v);
    }
}

static void write_cluster(struct writer *w, const struct plan_cluster *pc, int pid,
                          const struct sim_trace *tr)
{
    struct layout ly;

    layout_spans(&ly, tr);
    write_meta(w, pc, pid, tr, &ly);
    write_spans(w, pc, pid, tr, &ly);
    write_flows(w, pid, tr, &ly);
    write_counters(w, pc, pid, tr);
    layout_free(&ly);
}

int chrome_trace_write(FILE *f, const struct plan_report *rep, struct dt_err *e)
{
    struct writer w = {f, 1, 0};

    if (rep->nclusters > 0 && !rep->traces)
        return dt_errf(e, "trace: the plan was run without recording its steps");
    fprintf(f, "{\"displayTimeUnit\":\"ms\",\"otherData\":{\"scenario\":");
    put_str(f, rep->sc ? rep->sc->name : "");
    fprintf(f, ",\"seed\":\"%lu\",\"clock\":\"simulated time\","
               "\"note\":\"one process per cluster; identical ranks are simulated once, so each "
               "track stands for every rank or node of its group (see its name)\"},"
               "\"traceEvents\":[", rep->sc ? rep->sc->simulation.seed : 0UL);
    for (int i = 0; i < rep->nclusters; i++)
        write_cluster(&w, &rep->clusters[i], i + 1, &rep->traces[i]);
    fprintf(f, "\n]}\n");
    return ferror(f) ? -1 : 0;    /* the caller names the file and the reason */
}
