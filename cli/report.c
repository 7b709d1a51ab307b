/*
 * report.c - format a struct plan_report as a table or as JSON.
 *
 * The table is built cell by cell (every cell a formatted string), column
 * widths are the widest cell, and each line is written without trailing
 * blanks, so the layout depends on the data only.  The JSON tree is built
 * with cJSON, printed with cJSON_Print and freed; doubles are rounded to 6
 * significant digits first so that goldens do not churn on the last bits of
 * a floating-point sum.  Cost: O(clusters x columns) cells.
 *
 * Field meanings and units: docs/output.md.
 */
#include "report.h"
#include "report_parts.h"
#include "../catalog/csv.h"
#include "../planner/goodput.h"

#include "../base/units.h"
#include "../base/text.h"

#include <cJSON.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

double report_round6(double v)
{
    char buf[32];

    if (!isfinite(v))
        return v;
    snprintf(buf, sizeof buf, "%.6g", v);
    return strtod(buf, NULL);
}

/* ---- small string helpers ------------------------------------------------ */

/* A growable string; s is always NUL-terminated once something was added. */
struct rstr {
    char *s;
    size_t len, cap;
};

static void rstr_addf(struct rstr *b, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static void rstr_addf(struct rstr *b, const char *fmt, ...)
{
    va_list ap;
    int n;

    va_start(ap, fmt);
    n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0)
        return;
    if (b->len + (size_t)n + 1 > b->cap) {
        b->cap = (b->len + (size_t)n + 1) * 2;
        b->s = x_realloc(b->s, b->cap);
    }
    va_start(ap, fmt);
    vsnprintf(b->s + b->len, b->cap - b->len, fmt, ap);
    va_end(ap);
    b->len += (size_t)n;
}

/* Take the string out of b (never NULL), leaving b empty. */
static char *rstr_take(struct rstr *b)
{
    char *s = b->s ? b->s : x_strdup("");
    b->s = NULL;
    b->len = b->cap = 0;
    return s;
}

static char *fmt_str(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static char *fmt_str(const char *fmt, ...)
{
    char buf[256];
    va_list ap;
    char *s;
    int n;

    va_start(ap, fmt);
    n = vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    if (n < 0)
        return x_strdup("?");
    if ((size_t)n < sizeof buf)
        return x_strdup(buf);
    s = x_malloc((size_t)n + 1);
    va_start(ap, fmt);
    vsnprintf(s, (size_t)n + 1, fmt, ap);
    va_end(ap);
    return s;
}


/* ---- cell formats -------------------------------------------------------- */

char *report_cell_num(const char *fmt, double v)
{
    if (!isfinite(v))
        return x_strdup("-");
    return fmt_str(fmt, v);
}

/* Seconds shown as milliseconds with one decimal. */
static char *cell_ms(double s)
{
    return report_cell_num("%.1f", s * 1e3);
}

void report_json_collectives(cJSON *o, const struct plan_cluster *pc)
{
    const struct sim_coll_choice *c = pc->collectives;
    int m = pc->ncollectives;
    cJSON *a = cJSON_AddArrayToObject(o, "collectives");

    for (int k = 0; k < m; k++) {
        cJSON *e = cJSON_CreateObject();
        cJSON_AddStringToObject(e, "collective", c[k].collective);
        cJSON_AddNumberToObject(e, "bytes", c[k].bytes);
        cJSON_AddStringToObject(e, "library", c[k].library);
        cJSON_AddStringToObject(e, "algorithm", c[k].algorithm);
        cJSON_AddStringToObject(e, "protocol", c[k].protocol);
        cJSON_AddNumberToObject(e, "channels", c[k].channels);
        report_json_num(e, "time_s", c[k].time_s);
        report_json_num(e, "busbw_GBps", c[k].busbw_Bps / 1e9);
        cJSON_AddItemToArray(a, e);
    }
}

/* A pipeline stage's memory parts, GiB. */
static void report_json_mem_parts(cJSON *o, const struct mem_parts *p)
{
    report_json_num(o, "weights", p->weights / DT_GIB);
    report_json_num(o, "fp8_weights", p->fp8_weights / DT_GIB);
    report_json_num(o, "gradients", p->gradients / DT_GIB);
    report_json_num(o, "optimizer", p->optimizer / DT_GIB);
    report_json_num(o, "activations", p->activations / DT_GIB);
    report_json_num(o, "buffers", p->buffers / DT_GIB);
    report_json_num(o, "grad_copy", p->grad_copy / DT_GIB);
    report_json_num(o, "held", p->held / DT_GIB);
    report_json_num(o, "total", p->total / DT_GIB);
}

void report_json_cluster_model(cJSON *o, const struct plan_cluster *pc)
{
    const struct mem_use *u = &pc->mem;
    cJSON *m;

    if (pc->compute_note[0])
        cJSON_AddStringToObject(o, "precision_note", pc->compute_note);
    else
        cJSON_AddNullToObject(o, "precision_note");
    report_json_collectives(o, pc);
    m = cJSON_AddObjectToObject(o, "memory_gib");

    report_json_num(m, "weights", u->weights / DT_GIB);
    report_json_num(m, "fp8_weights", u->fp8_weights / DT_GIB);
    report_json_num(m, "gradients", u->gradients / DT_GIB);
    report_json_num(m, "optimizer", u->optimizer / DT_GIB);
    report_json_num(m, "activations", u->activations / DT_GIB);
    report_json_num(m, "buffers", u->buffers / DT_GIB);
    report_json_num(m, "grad_copy", u->grad_copy / DT_GIB);
    report_json_num(m, "total", u->total / DT_GIB);
    report_json_num(m, "held", u->held / DT_GIB);
    report_json_num(m, "capacity", u->capacity / DT_GIB);
    report_json_num(m, "registered", u->registered / DT_GIB);
    if (memory_stage_name(u->stage)) {
        cJSON *st = cJSON_AddObjectToObject(m, "stages");
        cJSON_AddStringToObject(m, "stage", memory_stage_name(u->stage));
        report_json_num(st, "first", u->stages[0].total / DT_GIB);
        report_json_num(st, "last", u->stages[1].total / DT_GIB);
        st = cJSON_AddObjectToObject(m, "stage_parts");
        report_json_mem_parts(cJSON_AddObjectToObject(st, "first"), &u->stages[0]);
        report_json_mem_parts(cJSON_AddObjectToObject(st, "last"), &u->stages[1]);
    } else {
        cJSON_AddNullToObject(m, "stage");
        cJSON_AddNullToObject(m, "stages");
        cJSON_AddNullToObject(m, "stage_parts");
    }
    report_json_num(o, "tokens_per_s", pc->tokens_per_s);
    report_json_num(o, "ep_comm_s", pc->ep_comm_s);
    report_json_num(o, "host_wait_s", pc->host_wait_s);
    report_json_num(o, "ep_sm_slow_s", pc->ep_sm_slow_s);
    if (pc->ep > 1) {
        cJSON_AddStringToObject(o, "ep_dispatch", scenario_ep_dispatch_name(pc->ep_dispatch));
        report_json_num(o, "ep_nvl_share", pc->ep_nvl_share);
    }
    report_json_num(o, "mfu", pc->mfu);
    report_json_num(o, "causal_flops_per_token", pc->causal_flops_per_token);
    cJSON_AddNumberToObject(o, "grad_accum", pc->grad_accum);
    if (pc->batch_note[0])
        cJSON_AddStringToObject(o, "batch_note", pc->batch_note);
    else
        cJSON_AddNullToObject(o, "batch_note");
    report_json_num(o, "global_batch", pc->global_batch);
    m = cJSON_AddObjectToObject(o, "parallel");
    cJSON_AddNumberToObject(m, "tp", pc->cfg.c.tp > 1 ? pc->cfg.c.tp : 1);
    cJSON_AddNumberToObject(m, "pp", pc->cfg.c.pp > 1 ? pc->cfg.c.pp : 1);
    report_json_num(m, "dp", pc->res.workers / ((pc->cfg.c.tp > 1 ? pc->cfg.c.tp : 1) *
                                                (pc->cfg.c.pp > 1 ? pc->cfg.c.pp : 1)));
    cJSON_AddNumberToObject(m, "micro_batch", pc->batch_per_gpu);
    cJSON_AddNumberToObject(m, "micro_batches", pc->grad_accum);
    cJSON_AddNumberToObject(m, "interleave", pc->cfg.c.pp > 1 && pc->cfg.c.pp_interleave > 1
                                                 ? pc->cfg.c.pp_interleave : 1);
    cJSON_AddBoolToObject(m, "sequence_parallel", pc->cfg.c.tp > 1 && pc->cfg.c.tp_sp);
    cJSON_AddBoolToObject(m, "tp_overlap", pc->cfg.c.tp > 1 && pc->cfg.c.tp_overlap);
    cJSON_AddStringToObject(m, "order", scenario_pp_order_name(pc->cfg.c.pp > 1 ? pc->cfg.c.pp_order
                                                                               : 0));
    cJSON_AddStringToObject(m, "sharding", scenario_sharding_name(pc->sharding));
    cJSON_AddStringToObject(m, "recompute", scenario_recompute_name(pc->recompute));
    cJSON_AddStringToObject(o, "sharding", scenario_sharding_name(pc->sharding));
    cJSON_AddNumberToObject(o, "batch_per_gpu", pc->batch_per_gpu);
    if (pc->layout_why[0])
        cJSON_AddStringToObject(o, "layout_why", pc->layout_why);
    else
        cJSON_AddNullToObject(o, "layout_why");
}

char *report_cell_band(const struct plan_cluster *pc)
{
    char buf[64];

    if (!isfinite(pc->band_lo_s) || !isfinite(pc->band_hi_s) || !(pc->band_hi_s > 0))
        return x_strdup("-");
    snprintf(buf, sizeof buf, "%.1f-%.1f", pc->band_lo_s * 1e3, pc->band_hi_s * 1e3);
    return x_strdup(buf);
}

void report_json_train_band(cJSON *o, const char *time_key, const struct plan_cluster *pc)
{
    report_json_band(o, time_key, pc->train_band_lo_s, pc->train_band_hi_s);
    report_json_band(o, "cost_to_train_band_usd", pc->price_usd_h * pc->train_band_lo_s / 3600,
                     pc->price_usd_h * pc->train_band_hi_s / 3600);
}

void report_json_band(cJSON *o, const char *key, double lo, double hi)
{
    cJSON *a = cJSON_AddArrayToObject(o, key);
    double v[2] = {lo, hi};

    for (int i = 0; i < 2; i++)
        cJSON_AddItemToArray(a, isfinite(v[i]) ? cJSON_CreateNumber(report_round6(v[i]))
                                               : cJSON_CreateNull());
}

/* A fraction 0..1 shown as a whole percentage. */
static char *cell_pct(double frac)
{
    return report_cell_num("%.0f", frac * 100.0);
}

char *report_cell_usd(double usd, int decimals)
{
    char buf[64];

    numfmt_usd(buf, sizeof buf, usd, decimals);
    return x_strdup(buf);
}

char *report_cell_duration(double s, enum numfmt_dur style)
{
    char buf[64];

    numfmt_duration(buf, sizeof buf, s, style);
    return x_strdup(buf);
}

void report_colfmt_of(const struct plan_cluster *pc, int n, size_t stride,
                      struct report_colfmt *cf)
{
    double *usd = x_calloc((size_t)n + 1, sizeof *usd), ep = -1, tr = -1;

    for (int i = 0; i < n; i++) {
        const struct plan_cluster *p = report_nth(pc, stride, i);
        usd[i] = p->cost_per_step_usd;
        if (isfinite(p->epoch_s) && p->epoch_s > ep)
            ep = p->epoch_s;
        if (isfinite(p->train_s) && p->train_s > tr)
            tr = p->train_s;
    }
    cf->usd_step_decimals = numfmt_usd_decimals(usd, n);
    cf->epoch = numfmt_dur_style(ep);
    cf->train = numfmt_dur_style(tr);
    x_free(usd);
}

/* "1x ml.p4d.24xlarge + 2x ml.c5.18xlarge (data)" */
char *report_cell_groups(const struct sc_cluster *cl)
{
    struct rstr b = {0};

    if (!cl)
        return x_strdup("-");
    for (int i = 0; i < cl->ngroups; i++) {
        const struct sc_group *g = &cl->groups[i];
        rstr_addf(&b, "%s%dx %s", i ? " + " : "", g->count, g->inst ? g->inst->name : "?");
        if (g->role != SIM_TRAIN && g->spot)
            rstr_addf(&b, " (%s, spot)", sim_role_name(g->role));
        else if (g->role != SIM_TRAIN)
            rstr_addf(&b, " (%s)", sim_role_name(g->role));
        else if (g->spot)
            rstr_addf(&b, " (spot)");
    }
    return rstr_take(&b);
}

const char *report_cluster_name(const struct plan_cluster *pc)
{
    return pc->cl ? pc->cl->name : "";
}

/* ---- the table ----------------------------------------------------------- */

enum { ALIGN_LEFT = 0, ALIGN_RIGHT = 1 };

struct column {
    const char *head;
    int align;
};

/* Columns of the table, in order.  The epoch and training columns appear only
 * when some cluster has them (the dataset size is known); the step's parts,
 * compute to optim in enum report_part's order, as report_parts_shown says. */
enum col_id {
    COL_MARK, COL_NAME, COL_GROUPS, COL_MEAN, COL_BAND, COL_P95, COL_COMPUTE, COL_STALL,
    COL_DP_COMM, COL_TP_COMM, COL_EP_COMM, COL_BUBBLE, COL_INTERF, COL_OPT, COL_GPU, COL_CPU, COL_NIC,
    COL_SPS, COL_USD_H, COL_USD_STEP, COL_EPOCH, COL_USD_EPOCH, COL_TRAIN, COL_USD_TRAIN,
    COL_BOTTLENECK, NCOL
};
_Static_assert(COL_OPT - COL_COMPUTE + 1 == REPORT_NPARTS, "a column for each part of the step");

static const struct column columns[NCOL] = {
    [COL_MARK] = {"", ALIGN_LEFT},
    [COL_NAME] = {"cluster", ALIGN_LEFT},
    [COL_GROUPS] = {"groups", ALIGN_LEFT},
    [COL_MEAN] = {"step ms", ALIGN_RIGHT},
    [COL_BAND] = {"band ms", ALIGN_RIGHT},
    [COL_P95] = {"p95 ms", ALIGN_RIGHT},
    [COL_COMPUTE] = {"compute", ALIGN_RIGHT},
    [COL_STALL] = {"stall", ALIGN_RIGHT},
    [COL_DP_COMM] = {"dp comm", ALIGN_RIGHT},
    [COL_TP_COMM] = {"tp comm", ALIGN_RIGHT},
    [COL_EP_COMM] = {"ep comm", ALIGN_RIGHT},
    [COL_BUBBLE] = {"bubble", ALIGN_RIGHT},
    [COL_INTERF] = {"interf", ALIGN_RIGHT},
    [COL_OPT] = {"optim", ALIGN_RIGHT},
    [COL_GPU] = {"GPU%", ALIGN_RIGHT},
    [COL_CPU] = {"CPU%", ALIGN_RIGHT},
    [COL_NIC] = {"NIC%", ALIGN_RIGHT},
    [COL_SPS] = {"samples/s", ALIGN_RIGHT},
    [COL_USD_H] = {"$/h", ALIGN_RIGHT},
    [COL_USD_STEP] = {"$/step", ALIGN_RIGHT},
    [COL_EPOCH] = {"epoch", ALIGN_RIGHT},
    [COL_USD_EPOCH] = {"$/epoch", ALIGN_RIGHT},
    [COL_TRAIN] = {"to train", ALIGN_RIGHT},
    [COL_USD_TRAIN] = {"$ to train", ALIGN_RIGHT},
    [COL_BOTTLENECK] = {"bottleneck", ALIGN_LEFT},
};

static int report_has_epochs(const struct plan_report *rep)
{
    for (int i = 0; i < rep->nclusters; i++)
        if (isfinite(rep->clusters[i].epoch_s))
            return 1;
    return 0;
}

/* Fill row (NCOL cells) for cluster i. */
static void table_row(const struct plan_report *rep, int i, const struct report_colfmt *cf,
                      char **row)
{
    const struct plan_cluster *pc = &rep->clusters[i];
    const struct sim_result *r = &pc->res;
    double part[REPORT_NPARTS];

    report_parts_of(r, part);
    row[COL_MARK] = x_strdup(i == rep->best ? "*" : !pc->feasible ? "x" : "");
    row[COL_NAME] = x_strdup(report_cluster_name(pc));
    row[COL_GROUPS] = report_cell_groups(pc->cl);
    row[COL_MEAN] = cell_ms(r->step_mean_s);
    row[COL_BAND] = report_cell_band(pc);
    row[COL_P95] = cell_ms(r->step_p95_s);
    for (int p = 0; p < REPORT_NPARTS; p++)
        row[COL_COMPUTE + p] = cell_ms(part[p]);
    row[COL_GPU] = cell_pct(r->util_gpu);
    row[COL_CPU] = cell_pct(r->util_cpu);
    row[COL_NIC] = cell_pct(r->util_nic);
    row[COL_SPS] = report_cell_num("%.1f", r->samples_per_s);
    row[COL_USD_H] = report_cell_num("%.3f", pc->price_usd_h);
    row[COL_USD_STEP] = report_cell_usd(pc->cost_per_step_usd, cf->usd_step_decimals);
    row[COL_EPOCH] = report_cell_duration(pc->epoch_s, cf->epoch);
    row[COL_USD_EPOCH] = report_cell_num("%.2f", pc->cost_per_epoch_usd);
    row[COL_TRAIN] = report_cell_duration(pc->train_s, cf->train);
    row[COL_USD_TRAIN] = report_cell_num("%.2f", pc->cost_to_train_usd);
    row[COL_BOTTLENECK] = x_strdup(pc->bound_text);
}

void report_grid_print(FILE *f, char **cells, int nrows, int ncol, const int *right,
                       const int *show)
{
    size_t *width = x_calloc((size_t)ncol, sizeof *width);

    for (int i = 0; i < nrows; i++)
        for (int c = 0; c < ncol; c++) {
            size_t w = text_width(cells[(size_t)i * (size_t)ncol + (size_t)c]);
            if (w > width[c])
                width[c] = w;
        }
    for (int i = 0; i < nrows; i++) {
        char **row = &cells[(size_t)i * (size_t)ncol];
        struct rstr b = {0};
        int first = 1;

        for (int c = 0; c < ncol; c++) {
            if (show && !show[c])
                continue;
            size_t w = text_width(row[c]);
            size_t pad = width[c] > w ? width[c] - w : 0;
            if (!first)
                rstr_addf(&b, "  ");
            first = 0;
            if (right[c])
                rstr_addf(&b, "%*s%s", (int)pad, "", row[c]);
            else
                rstr_addf(&b, "%s%*s", row[c], (int)pad, "");
        }
        char *line = rstr_take(&b);
        size_t n = strlen(line);
        while (n > 0 && line[n - 1] == ' ')
            line[--n] = '\0';
        fprintf(f, "%s\n", line);
        x_free(line);
    }
    x_free(width);
}

static void table_objective(FILE *f, const struct scenario *sc, const struct plan_report *rep)
{
    fprintf(f, "Objective: %s", scenario_objective_name(sc->objective.minimize));
    if (rep && rep->ranked_by[0])
        fprintf(f, ", ranked by %s", rep->ranked_by);
    if (isfinite(sc->objective.deadline_h))
        fprintf(f, ", deadline %g h", sc->objective.deadline_h);
    if (isfinite(sc->objective.budget_usd_h))
        fprintf(f, ", budget $%.2f/h", sc->objective.budget_usd_h);
    fprintf(f, "\n");
}

const char *report_cluster_label(const char *name, char *buf, size_t len)
{
    for (int a = PLAN_KEEP; a < PLAN_NACTION; a++)
        if (strcmp(name, plan_action_name((enum plan_action)a)) == 0) {
            snprintf(buf, len, "cluster \"%s\"", name);
            return buf;
        }
    return name;
}

/* "Measured: CLUSTER: INSTANCE (PROFILE): what VALUE UNIT, ..." per cluster
 * with numbers from a calibration profile (plan_cluster.measured); nothing
 * without one. */
static void table_measured(FILE *f, const struct plan_report *rep)
{
    for (int i = 0; i < rep->nclusters; i++) {
        const struct plan_cluster *pc = &rep->clusters[i];
        const struct plan_measured *m = pc->measured;
        int n = pc->nmeasured;
        if (n == 0)
            continue;
        fprintf(f, "Measured: %s:", report_cluster_name(pc));
        for (int k = 0; k < n; k++) {
            int first = k == 0 || strcmp(m[k].instance, m[k - 1].instance);
            if (first)
                fprintf(f, "%s %s (%s):", k ? ";" : "", m[k].instance, m[k].profile);
            if (!strcmp(m[k].what, "not_used"))
                fprintf(f, "%s not used: %s", first ? "" : ",", m[k].detail);
            else
                fprintf(f, "%s %s %.4g %s%s", first ? "" : ",", m[k].what, m[k].value, m[k].unit,
                        m[k].poor_fit ? " (poor fit)" : "");
        }
        fprintf(f, "\n");
    }
}

int report_table(FILE *f, const struct plan_report *rep)
{
    char label[96];
    const struct scenario *sc = rep->sc;
    int n = rep->nclusters;
    char **cells = x_calloc((size_t)(n + 1) * NCOL, sizeof *cells);
    int show[NCOL], right[NCOL], parts[REPORT_NPARTS];
    struct report_colfmt cf;
    int any_infeasible = 0;
    const char *reco = "none";

    if (sc) {
        fprintf(f, "Scenario: %s\n", sc->name);
        fprintf(f, "Seed: %lu (%d measured steps after %d warm-up)\n", sc->simulation.seed, sc->simulation.steps,
                sc->simulation.warmup);
    }
    if (isfinite(rep->solved_value) && isnan(rep->solved_hi))
        fprintf(f, "Solved from measured step: %s = %.6g\n", rep->solved_what, rep->solved_value);
    else if (isfinite(rep->solved_value))
        fprintf(f, "Solved from measured step: %s between %.6g and %.6g, not determined: the "
                "measured step is explained without it (it hides behind the rest).  Predicted "
                "with the middle, %.6g; each band covers both ends.\n", rep->solved_what,
                rep->solved_lo, rep->solved_hi, rep->solved_value);
    fprintf(f, "\n");

    for (int c = 0; c < NCOL; c++) {
        show[c] = 1;
        cells[c] = x_strdup(columns[c].head);
    }
    if (!report_has_epochs(rep))
        show[COL_EPOCH] = show[COL_USD_EPOCH] = show[COL_TRAIN] = show[COL_USD_TRAIN] = 0;
    report_parts_shown(rep->clusters, n, sizeof *rep->clusters, parts);
    for (int p = 0; p < REPORT_NPARTS; p++)
        show[COL_COMPUTE + p] = parts[p];
    report_colfmt_of(rep->clusters, n, sizeof *rep->clusters, &cf);
    for (int i = 0; i < n; i++) {
        table_row(rep, i, &cf, &cells[(size_t)(i + 1) * NCOL]);
        if (!rep->clusters[i].feasible)
            any_infeasible = 1;
    }
    for (int c = 0; c < NCOL; c++)
        right[c] = columns[c].align == ALIGN_RIGHT;
    report_grid_print(f, cells, n + 1, NCOL, right, show);
    if (n == 0)
        fprintf(f, "(no clusters)\n");

    fprintf(f, "\nTimes in ms per step (step: mean, p95: 95th percentile; ");
    report_parts_sum(f, parts);
    fprintf(f, ").\nParts: ");
    report_parts_legend(f, parts);
    fprintf(f, ".\n");
    fprintf(f, "* recommended");
    if (any_infeasible)
        fprintf(f, ", x infeasible");
    fprintf(f, "\n");
    for (int i = 0; i < n; i++)
        if (!rep->clusters[i].feasible)
            fprintf(f, "Infeasible: %s: %s\n", report_cluster_name(&rep->clusters[i]),
                    rep->clusters[i].infeasible_why);
    for (int i = 0; i < rep->nfailed; i++)
        fprintf(f, "Not comparable: %s: %s\n", rep->failed[i].name, rep->failed[i].why);
    for (int i = 0; i < n; i++)
        for (int k = 0; k < rep->clusters[i].nassumed; k++)
            fprintf(f, "Assumed: %s: %s\n", report_cluster_name(&rep->clusters[i]),
                    rep->clusters[i].assumed[k]);
    report_precision_notes(f, rep->clusters, n, sizeof *rep->clusters);
    report_batch_notes(f, rep->clusters, n, sizeof *rep->clusters);
    report_collective_notes(f, rep->clusters, n, sizeof *rep->clusters);
    report_layout_notes(f, rep->clusters, n, sizeof *rep->clusters);
    table_measured(f, rep);
    report_goodput_lines(f, rep);
    report_prices_line(f, rep);

    if (rep->best >= 0 && rep->best < n)
        reco = report_cluster_name(&rep->clusters[rep->best]);
    if (rep->best >= 0 && rep->best < n)
        fprintf(f, "\nRecommendation: %s: %s \xe2\x80\x94 %s\n", plan_action_name(rep->action),
                report_cluster_label(reco, label, sizeof label), rep->reason);
    else
        fprintf(f, "\nRecommendation: none \xe2\x80\x94 %s\n", rep->reason);
    if (sc)
        table_objective(f, sc, rep);

    for (size_t i = 0; i < (size_t)(n + 1) * NCOL; i++)
        x_free(cells[i]);
    x_free(cells);
    return ferror(f) ? -1 : 0;
}

/* ---- JSON ---------------------------------------------------------------- */

cJSON *report_json_goodput(const struct plan_cluster *pc)
{
    const struct plan_goodput *g = &pc->goodput;
    cJSON *o;

    if (!g->on)
        return cJSON_CreateNull();
    o = cJSON_CreateObject();
    report_json_num(o, "ettr", g->ettr);
    report_json_num(o, "interruptions_per_day", g->interruptions_per_day);
    report_json_num(o, "p_interrupt_30d", g->p_interrupt_30d);
    report_json_num(o, "spot_preemptions_per_day", g->spot_per_day);
    report_json_num(o, "spot_saved_per_day", g->spot_saved_per_day);
    if (isfinite(g->spot_per_day))
        cJSON_AddStringToObject(o, "spot_rate_from", goodput_spot_from_name(g->spot_from));
    else
        cJSON_AddNullToObject(o, "spot_rate_from");
    report_json_num(o, "checkpoint_bytes", g->checkpoint_bytes);
    report_json_num(o, "checkpoint_interval_s", g->checkpoint_interval_s);
    report_json_num(o, "checkpoint_write_s", g->checkpoint_write_s);
    report_json_num(o, "checkpoint_block_s", g->checkpoint_block_s);
    report_json_num(o, "restart_s", g->restart_s);
    report_json_num(o, "time_to_train_s", pc->train_s);
    report_json_num(o, "cost_to_train_usd", pc->cost_to_train_usd);
    report_json_num(o, "time_to_train_without_failures_s", g->train_nofail_s);
    report_json_num(o, "cost_to_train_without_failures_usd", g->cost_nofail_usd);
    report_json_num(o, "time_to_train_p10_s", g->train_p10_s);
    report_json_num(o, "time_to_train_p90_s", g->train_p90_s);
    return o;
}

void report_json_num(cJSON *o, const char *key, double v)
{
    if (isfinite(v))
        cJSON_AddNumberToObject(o, key, report_round6(v));
    else
        cJSON_AddNullToObject(o, key);
}

void report_json_tie(cJSON *o, const struct plan_tie_report *t, const char *first,
                     const char *other)
{
    cJSON *j;

    if (t->n <= 0) {
        cJSON_AddNullToObject(o, "tie");
        return;
    }
    j = cJSON_AddObjectToObject(o, "tie");
    cJSON_AddNumberToObject(j, "clusters", t->n);
    cJSON_AddStringToObject(j, "objective_best", first);
    cJSON_AddStringToObject(j, "compared_with", other);
    cJSON_AddStringToObject(j, "broken_by", t->by);
    report_json_num(j, "gap", t->gap);
    report_json_num(j, "uncorrelated_error", t->error);
    report_json_num(j, "limit", t->limit);
}

cJSON *report_json_groups(const struct sc_cluster *cl, const struct sim_config *cfg)
{
    cJSON *arr = cJSON_CreateArray();

    for (int i = 0; cl && i < cl->ngroups; i++) {
        const struct sc_group *g = &cl->groups[i];
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "role", sim_role_name(g->role));
        cJSON_AddStringToObject(o, "instance", g->inst ? g->inst->name : "");
        cJSON_AddNumberToObject(o, "count", g->count);
        cJSON_AddBoolToObject(o, "spot", g->spot);
        report_json_num(o, "vcpu_speed", i < cfg->ngroups ? cfg->groups[i].core_speed : NAN);
        cJSON_AddItemToArray(arr, o);
    }
    return arr;
}

static cJSON *json_measured(const struct plan_cluster *pc)
{
    const struct plan_measured *m = pc->measured;
    int n = pc->nmeasured;
    cJSON *arr = cJSON_CreateArray();

    for (int k = 0; k < n; k++) {
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "instance", m[k].instance);
        cJSON_AddStringToObject(o, "what", m[k].what);
        report_json_num(o, "value", m[k].value);
        cJSON_AddStringToObject(o, "unit", m[k].unit);
        cJSON_AddStringToObject(o, "profile", m[k].profile);
        cJSON_AddStringToObject(o, "detail", m[k].detail);
        cJSON_AddBoolToObject(o, "poor_fit", m[k].poor_fit != 0);
        cJSON_AddItemToArray(arr, o);
    }
    return arr;
}

static cJSON *json_cluster(const struct plan_cluster *pc)
{
    const struct sim_result *r = &pc->res;
    cJSON *o = cJSON_CreateObject();
    cJSON *t;

    cJSON_AddStringToObject(o, "name", report_cluster_name(pc));
    cJSON_AddItemToObject(o, "groups", report_json_groups(pc->cl, &pc->cfg));
    t = cJSON_AddArrayToObject(o, "assumptions");
    for (int i = 0; i < pc->nassumed; i++)
        cJSON_AddItemToArray(t, cJSON_CreateString(pc->assumed[i]));

    t = cJSON_AddObjectToObject(o, "step_time_s");
    report_json_num(t, "mean", r->step_mean_s);
    report_json_num(t, "p50", r->step_p50_s);
    report_json_num(t, "p95", r->step_p95_s);
    report_json_band(t, "band", pc->band_lo_s, pc->band_hi_s);

    t = cJSON_AddObjectToObject(o, "breakdown_s");
    report_json_num(t, "compute", r->compute_s);
    report_json_num(t, "data_stall", r->data_stall_s);
    report_json_num(t, "exposed_comm", r->exposed_comm_s);
    report_json_num(t, "dp_comm", report_parts_dp_comm_s(r));
    report_json_num(t, "comm_interference", r->comm_interference_s);
    report_json_num(t, "tp_comm", r->tp_comm_s);
    report_json_num(t, "ep_comm", r->ep_comm_s);
    report_json_num(t, "pipeline_bubble", r->pp_bubble_s);
    report_json_num(t, "optimizer", r->optimizer_s);

    t = cJSON_AddObjectToObject(o, "utilization");
    report_json_num(t, "gpu", r->util_gpu);
    report_json_num(t, "cpu", r->util_cpu);
    report_json_num(t, "nic", r->util_nic);

    report_json_num(o, "samples_per_s", r->samples_per_s);
    report_json_num(o, "workers", r->workers);
    report_json_num(o, "scaling_efficiency", pc->scaling_eff);
    report_json_num(o, "price_usd_per_h", pc->price_usd_h);
    report_json_num(o, "cost_per_step_usd", pc->cost_per_step_usd);
    report_json_num(o, "steps_per_epoch", pc->steps_per_epoch);
    report_json_num(o, "epoch_s", pc->epoch_s);
    report_json_num(o, "cost_per_epoch_usd", pc->cost_per_epoch_usd);
    report_json_num(o, "time_to_train_s", pc->train_s);
    report_json_num(o, "cost_to_train_usd", pc->cost_to_train_usd);
    cJSON_AddNumberToObject(o, "evaluations", pc->evals);
    report_json_num(o, "evaluation_s", pc->eval_s);
    report_json_train_band(o, "time_to_train_band_s", pc);
    cJSON_AddItemToObject(o, "goodput", report_json_goodput(pc));
    cJSON_AddBoolToObject(o, "feasible", pc->feasible != 0);
    if (pc->feasible)
        cJSON_AddNullToObject(o, "infeasible_why");
    else
        cJSON_AddStringToObject(o, "infeasible_why", pc->infeasible_why);
    cJSON_AddStringToObject(o, "bottleneck", plan_bound_name(pc->bound));
    cJSON_AddStringToObject(o, "bottleneck_detail", pc->bound_text);
    report_json_cluster_model(o, pc);
    return o;
}

static cJSON *json_report(const struct plan_report *rep)
{
    const struct scenario *sc = rep->sc;
    cJSON *root = cJSON_CreateObject();
    cJSON *t;
    char seed[32];

    cJSON_AddStringToObject(root, "scenario", sc ? sc->name : "");
    /* Raw digits: a 64-bit seed does not survive a trip through a double. */
    snprintf(seed, sizeof seed, "%lu", sc ? sc->simulation.seed : 0UL);
    cJSON_AddRawToObject(root, "seed", seed);
    cJSON_AddNumberToObject(root, "steps", sc ? sc->simulation.steps : 0);
    cJSON_AddNumberToObject(root, "warmup", sc ? sc->simulation.warmup : 0);
    if (sc) {
        cJSON_AddStringToObject(root, "objective", scenario_objective_name(sc->objective.minimize));
        report_json_num(root, "deadline_h", sc->objective.deadline_h);
        report_json_num(root, "budget_usd_per_h", sc->objective.budget_usd_h);
    } else {
        cJSON_AddNullToObject(root, "objective");
        cJSON_AddNullToObject(root, "deadline_h");
        cJSON_AddNullToObject(root, "budget_usd_per_h");
    }

    if (isfinite(rep->solved_value)) {
        t = cJSON_AddObjectToObject(root, "solved");
        cJSON_AddStringToObject(t, "what", rep->solved_what);
        report_json_num(t, "value", rep->solved_value);
        if (isnan(rep->solved_hi)) {
            cJSON_AddNullToObject(t, "range");
        } else {
            cJSON *r = cJSON_AddArrayToObject(t, "range");
            cJSON_AddItemToArray(r, cJSON_CreateNumber(rep->solved_lo));
            cJSON_AddItemToArray(r, cJSON_CreateNumber(rep->solved_hi));
        }
    } else {
        cJSON_AddNullToObject(root, "solved");
    }

    t = cJSON_AddArrayToObject(root, "clusters");
    for (int i = 0; i < rep->nclusters; i++) {
        cJSON *co = json_cluster(&rep->clusters[i]);
        if (sc && sc->nprofiles > 0)
            cJSON_AddItemToObject(co, "measured", json_measured(&rep->clusters[i]));
        cJSON_AddItemToArray(t, co);
    }
    cJSON_AddItemToObject(root, "prices", report_prices_json(rep));
    t = cJSON_AddArrayToObject(root, "not_comparable");
    for (int i = 0; i < rep->nfailed; i++) {
        cJSON *fo = cJSON_CreateObject();
        cJSON_AddStringToObject(fo, "cluster", rep->failed[i].name);
        cJSON_AddStringToObject(fo, "reason", rep->failed[i].why);
        cJSON_AddItemToArray(t, fo);
    }

    t = cJSON_AddObjectToObject(root, "recommendation");
    if (rep->best >= 0 && rep->best < rep->nclusters)
        cJSON_AddStringToObject(t, "cluster", report_cluster_name(&rep->clusters[rep->best]));
    else
        cJSON_AddNullToObject(t, "cluster");
    cJSON_AddStringToObject(t, "action", plan_action_name(rep->action));
    cJSON_AddStringToObject(t, "reason", rep->reason);
    cJSON_AddStringToObject(t, "ranked_by", rep->ranked_by);
    if (rep->tie.n > 0)
        report_json_tie(t, &rep->tie, report_cluster_name(&rep->clusters[rep->tie.first]),
                        report_cluster_name(&rep->clusters[rep->tie.other]));
    else
        report_json_tie(t, &rep->tie, NULL, NULL);
    return root;
}

int report_json(FILE *f, const struct plan_report *rep)
{
    cJSON *root = json_report(rep);
    char *text = root ? cJSON_Print(root) : NULL;
    int rc = -1;

    if (text) {
        fprintf(f, "%s\n", text);
        rc = ferror(f) ? -1 : 0;
    }
    cJSON_free(text);
    cJSON_Delete(root);
    return rc;
}
