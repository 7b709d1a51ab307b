/*
 * html.c - the self-contained HTML report with SVG charts (html.h).
 *
 * Charts are drawn by hand as inline SVG, on the axes of html_svg.c: a
 * linear axis with "nice" ticks, or a base-2 logarithmic axis for GPU
 * counts spanning 8x or more.  Every chart has axis titles with
 * units, a legend, and a <title> tooltip on each mark.  Text sizes are
 * 12 px and up.  Layout is computed from the data only; coordinates are
 * written with two decimals, so the output is deterministic.  The page
 * reads at 1,400 px: times in seconds once a step reaches 10 s, dollars on
 * cost axes, point names placed clear of each other and of the points, and
 * the cluster table (html_table.c) one short line a cluster.
 * Cost: O(clusters^2) for the Pareto front and for placing its names,
 * O(clusters) otherwise.
 */
#include "html.h"

#include <math.h>
#include <stdlib.h>

#include "html_svg.h"
#include "html_table.h"
#include "report.h"

static const char *cname(const struct plan_cluster *pc)
{
    return pc->cl ? pc->cl->name : "";
}

static void legend_text(FILE *f, double x, double y, const char *text)
{
    fprintf(f, "<text x=\"%.2f\" y=\"%.2f\">", x, y + 4);
    html_escape(f, text);
    fprintf(f, "</text>\n");
}

static void legend_box(FILE *f, double x, double y, const char *color, const char *text)
{
    fprintf(f, "<rect x=\"%.2f\" y=\"%.2f\" width=\"14\" height=\"14\" fill=\"%s\"/>\n", x, y - 7, color);
    legend_text(f, x + 20, y, text);
}

/* Display width of a label in pixels at 12 px (about 7 px a character). */
static double text_px(const char *s)
{
    double n = 0;
    for (; *s; s++)
        if (((unsigned char)*s & 0xC0) != 0x80)
            n++;
    return 7 * n;
}

/* ---- chart 1: step-time breakdown ----------------------------------------- */

enum { SEG_COMPUTE, SEG_STALL, SEG_COMM, SEG_OPT, SEG_OTHER, NSEG };
static const char *seg_name[NSEG] = {"compute (forward and backward)", "data stall (waiting for input)",
                                     "exposed communication (data- and tensor-parallel)", "optimizer",
                                     "rest of the step (pipeline bubble, interference)"};
static const char *seg_class[NSEG] = {"compute", "stall", "comm", "opt", "other"};
static const char *seg_color[NSEG] = {"#4e79a7", "#f28e2b", "#e15759", "#59a14f", "#bab0ac"};

static void seg_values(const struct sim_result *r, double *v)
{
    double sum;

    v[SEG_COMPUTE] = r->compute_s;
    v[SEG_STALL] = r->data_stall_s;
    v[SEG_COMM] = r->exposed_comm_s;
    v[SEG_OPT] = r->optimizer_s;
    sum = v[0] + v[1] + v[2] + v[3];
    /* The pipeline bubble and the compute lost to collectives in flight
     * (cli/report_parts.h: the parts add up to the step), shown only when
     * more than 1% of the step. */
    v[SEG_OTHER] = r->step_mean_s - sum > 0.01 * r->step_mean_s ? r->step_mean_s - sum : 0;
    for (int s = 0; s < NSEG; s++)
        if (!isfinite(v[s]) || v[s] < 0)
            v[s] = 0;
}

static void chart_breakdown(FILE *f, const struct plan_report *rep)
{
    int n = rep->nclusters, show[NSEG] = {1, 1, 1, 1, 0};
    double label_w = 80, max_ms = 0, W = 960, L, R = 110, T = 16, bar = 24, gap = 12, H, plot_h;
    double to_unit = 1;     /* from ms to the axis's unit */
    const char *unit = "ms";
    char title[48];
    struct axis ax;

    for (int i = 0; i < n; i++) {
        const struct plan_cluster *pc = &rep->clusters[i];
        double v[NSEG], tot = 0, w = text_px(cname(pc)) + (i == rep->best ? 18 : 0);
        seg_values(&pc->res, v);
        for (int s = 0; s < NSEG; s++)
            tot += v[s];
        if (v[SEG_OTHER] > 0)
            show[SEG_OTHER] = 1;
        if (tot * 1e3 > max_ms)
            max_ms = tot * 1e3;
        if (isfinite(pc->res.step_mean_s) && pc->res.step_mean_s * 1e3 > max_ms)
            max_ms = pc->res.step_mean_s * 1e3;
        if (w > label_w)
            label_w = w;
    }
    if (label_w > 330)
        label_w = 330;
    /* seconds once a step reaches 10 s: "122.7 s", not "122727.9 ms" */
    if (max_ms >= 1e4) {
        to_unit = 1e-3;
        unit = "s";
    }
    L = label_w + 20;
    plot_h = n * (bar + gap) + gap;
    H = T + plot_h + 50 + 24 * 3;
    axis_linear(&ax, max_ms * to_unit, L, W - R);

    fprintf(f, "<svg id=\"chart-breakdown\" class=\"chart\" width=\"%.0f\" height=\"%.0f\" "
               "viewBox=\"0 0 %.0f %.0f\" role=\"img\" aria-label=\"Step time breakdown per cluster\">\n",
            W, H, W, H);
    snprintf(title, sizeof title, "time per training step (%s)", unit);
    axis_x(f, &ax, T + plot_h, T, title);
    for (int i = 0; i < n; i++) {
        const struct plan_cluster *pc = &rep->clusters[i];
        double v[NSEG], x = ax.p0, y = T + gap + i * (bar + gap);
        char nm[80];
        const char *name = cname(pc);
        seg_values(&pc->res, v);
        /* Names that do not fit are cut; the tooltip has them whole. */
        if (text_px(name) > label_w - (i == rep->best ? 18 : 0)) {
            int keep = (int)((label_w - 18) / 7) - 1;
            snprintf(nm, sizeof nm, "%.*s\xe2\x80\xa6", keep > 1 ? keep : 1, name);
        } else {
            snprintf(nm, sizeof nm, "%s", name);
        }
        fprintf(f, "<g class=\"bar-row\">\n<text class=\"cluster-label%s\" x=\"%.2f\" y=\"%.2f\" "
                   "text-anchor=\"end\"><title>", i == rep->best ? " best" : "", L - 10, y + bar / 2 + 4);
        html_escape(f, name);
        fprintf(f, "</title>%s", i == rep->best ? "\xe2\x98\x85 " : "");
        html_escape(f, nm);
        fprintf(f, "</text>\n");
        for (int s = 0; s < NSEG; s++) {
            double w;
            if (!show[s] || v[s] <= 0)
                continue;
            w = (v[s] * 1e3 * to_unit) / (ax.hi - ax.lo) * (ax.p1 - ax.p0);
            fprintf(f, "<rect class=\"bar seg-%s\" x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" height=\"%.0f\" "
                       "fill=\"%s\"><title>", seg_class[s], x, y, w, bar, seg_color[s]);
            html_escape(f, name);
            fprintf(f, ": %s %.1f %s</title></rect>\n", seg_name[s], v[s] * 1e3 * to_unit, unit);
            x += w;
        }
        if (isfinite(pc->res.step_mean_s)) {
            double xs = axis_px(&ax, pc->res.step_mean_s * 1e3 * to_unit);
            fprintf(f, "<text class=\"bar-total\" x=\"%.2f\" y=\"%.2f\">%.1f %s</text>\n",
                    (xs > x ? xs : x) + 6, y + bar / 2 + 4, pc->res.step_mean_s * 1e3 * to_unit, unit);
        }
        fprintf(f, "</g>\n");
    }
    /* Legend, under the axis title. */
    {
        double lx = L, ly = T + plot_h + 62;
        fprintf(f, "<g class=\"legend\">\n");
        for (int s = 0, k = 0; s < NSEG; s++) {
            if (!show[s])
                continue;
            legend_box(f, lx + (k % 2) * 360, ly + (k / 2) * 24, seg_color[s], seg_name[s]);
            k++;
        }
        fprintf(f, "</g>\n");
    }
    fprintf(f, "</svg>\n");
}

/* ---- chart 2: cost against step time, Pareto front ------------------------ */

/* The chart's axes: time and cost to train when the objective is
 * cost_to_train and every feasible cluster has them (the text report's
 * front), else step time and cost per step. */
static int train_axes(const struct plan_report *rep)
{
    int any = 0;

    if (!rep->sc || rep->sc->objective.minimize != SC_OBJ_COST_TRAIN)
        return 0;
    for (int i = 0; i < rep->nclusters; i++) {
        const struct plan_cluster *pc = &rep->clusters[i];
        if (!pc->feasible)
            continue;
        if (!isfinite(pc->train_s) || !isfinite(pc->cost_to_train_usd))
            return 0;
        any = 1;
    }
    return any;
}

/* A point's x (ms a step, or hours to train) and y (USD a step, or to train). */
static double pt_x(const struct plan_cluster *pc, int train)
{
    return train ? pc->train_s / 3600 : pc->res.step_mean_s * 1e3;
}

static double pt_y(const struct plan_cluster *pc, int train)
{
    return train ? pc->cost_to_train_usd : pc->cost_per_step_usd;
}

static int point_ok(const struct plan_cluster *pc, int train)
{
    return isfinite(pt_x(pc, train)) && isfinite(pt_y(pc, train));
}

int html_pareto(const struct plan_report *rep, int *on_front)
{
    int n = 0, t = train_axes(rep);

    for (int i = 0; i < rep->nclusters; i++) {
        const struct plan_cluster *a = &rep->clusters[i];
        on_front[i] = 0;
        if (!a->feasible || !point_ok(a, t))
            continue;
        on_front[i] = 1;
        for (int j = 0; j < rep->nclusters && on_front[i]; j++) {
            const struct plan_cluster *b = &rep->clusters[j];
            if (j == i || !b->feasible || !point_ok(b, t))
                continue;
            if (pt_x(b, t) <= pt_x(a, t) && pt_y(b, t) <= pt_y(a, t) &&
                (pt_x(b, t) < pt_x(a, t) || pt_y(b, t) < pt_y(a, t)))
                on_front[i] = 0;
        }
        n += on_front[i];
    }
    return n;
}

/* A box a point's name or marker takes on the chart: pixels, y down. */
struct box {
    double x0, y0, x1, y1;
};

/* Where names may go: inside the plot (so a name is never cut at the edge
 * of the chart nor written over tick labels or axis titles), clear of every
 * marker and of every name already placed. */
struct placer {
    struct box plot;        /* names stay inside */
    struct box *mark;       /* the point markers (circle, ring or cross) */
    int nmark;
    struct box *lab;        /* names placed so far */
    int nlab;
};

static int box_meets(const struct box *a, const struct box *b)
{
    return a->x0 < b->x1 && b->x0 < a->x1 && a->y0 < b->y1 && b->y0 < a->y1;
}

/* The places around a point a text may take, in order of preference:
 * right above, right below, left above, left below, right, left, above,
 * below, then the four corners a line further out; offsets of the text's
 * anchor from the point.  A point's number (a name that found no place)
 * may also go up to four lines out, above, below and to either side
 * (NPLACE_NUM). */
#define NPLACE 12
#define NPLACE_NUM 34
static const double place_dx[NPLACE_NUM] = {13, 13, -13, -13, 15, -15, 0, 0, 13, 13, -13, -13,
                                            0, 0, 30, -30, 13, 13, -13, -13,
                                            0, 0, 30, 30, -30, -30, 45, -45,
                                            0, 0, 30, 30, -30, -30};
static const double place_dy[NPLACE_NUM] = {-9, 19, -9, 19, 5, 5, -15, 25, -24, 34, -24, 34,
                                            -30, 40, 5, 5, -39, 49, -39, 49,
                                            -45, 55, -20, 30, -20, 30, 5, 5,
                                            -60, 70, -45, 55, -45, 55};

/* The first of the nplace places for a text w px wide around the point (x, y) (12 px
 * text: 13 px above its baseline, 4 below) that stays inside the plot and
 * meets no marker and no text placed; its box is added.  -1 when every
 * place is taken.  O(places x (markers + texts)). */
static int place_text(struct placer *p, double x, double y, double w, int nplace)
{
    const double *dx = place_dx, *dy = place_dy;

    for (int k = 0; k < nplace; k++) {
        double bx = dx[k] > 0 ? x + dx[k] : dx[k] < 0 ? x + dx[k] - w : x - w / 2;
        struct box b = {bx - 1, y + dy[k] - 13, bx + w + 1, y + dy[k] + 4};
        int clash = b.x0 < p->plot.x0 || b.x1 > p->plot.x1 || b.y0 < p->plot.y0 || b.y1 > p->plot.y1;
        for (int q = 0; q < p->nmark && !clash; q++)
            clash = box_meets(&b, &p->mark[q]);
        for (int q = 0; q < p->nlab && !clash; q++)
            clash = box_meets(&b, &p->lab[q]);
        if (clash)
            continue;
        p->lab[p->nlab++] = b;
        return k;
    }
    return -1;
}

/* The opening tag of a text at place k around the point (x, y). */
static void text_at(FILE *f, double x, double y, int k, const char *cls)
{
    fprintf(f, "<text%s x=\"%.2f\" y=\"%.2f\" text-anchor=\"%s\">", cls, x + place_dx[k],
            y + place_dy[k], place_dx[k] > 0 ? "start" : place_dx[k] < 0 ? "end" : "middle");
}

static void chart_pareto(FILE *f, const struct plan_report *rep)
{
    int n = rep->nclusters, *front = x_calloc((size_t)(n ? n : 1), sizeof *front), *order;
    double W = 960, H = 520, L = 100, R = 40, T = 20, B = 150, max_x = 0, max_y = 0;
    int nf, skipped = 0, any_infeasible = 0;
    struct axis ax, ay;

    double xs = 1;          /* from pt_x's unit (ms, h) to the axis's */
    const char *x_title;
    struct placer pl = {{0, 0, 0, 0}, NULL, 0, NULL, 0};
    int nnum = 0, *numbered = x_calloc((size_t)(n ? n : 1), sizeof *numbered), *place;

    int t = train_axes(rep);

    nf = html_pareto(rep, front);
    for (int i = 0; i < n; i++) {
        const struct plan_cluster *pc = &rep->clusters[i];
        if (!point_ok(pc, t)) {
            skipped++;
            continue;
        }
        if (!pc->feasible)
            any_infeasible = 1;
        if (pt_x(pc, t) > max_x)
            max_x = pt_x(pc, t);
        if (pt_y(pc, t) > max_y)
            max_y = pt_y(pc, t);
    }
    /* seconds once a step reaches 10 s, days once training takes 1,000 h */
    if (t)
        xs = max_x >= 1000 ? 1 / 24.0 : 1;
    else
        xs = max_x >= 1e4 ? 1e-3 : 1;
    x_title = t ? (xs < 1 ? "time to train (days)" : "time to train (h)")
                : (xs < 1 ? "step time (s)" : "step time (ms)");
    axis_linear(&ax, max_x * xs * 1.08, L, W - R);
    axis_linear(&ay, max_y * 1.08, H - B, T);
    ay.money = 1;

    /* every marker first, so that no name is written over a later one */
    pl.plot = (struct box){L + 2, 0, W - 2, H - B - 2};
    pl.mark = x_calloc((size_t)(n ? n : 1), sizeof *pl.mark);
    pl.lab = x_calloc((size_t)(2 * n + 1), sizeof *pl.lab);
    for (int i = 0; i < n; i++) {
        const struct plan_cluster *pc = &rep->clusters[i];
        double x, y, r = i == rep->best ? 12 : 7;
        if (!point_ok(pc, t))
            continue;
        x = axis_px(&ax, pt_x(pc, t) * xs);
        y = axis_px(&ay, pt_y(pc, t));
        pl.mark[pl.nmark++] = (struct box){x - r, y - r, x + r, y + r};
    }
    /* names: the recommended cluster's first, then the front's, then the
     * rest; a point with no free place gets a number, placed the same way
     * once every name is (its name goes in the list under the chart) */
    place = x_calloc((size_t)(n ? n : 1), sizeof *place);
    for (int i = 0; i < n; i++)
        place[i] = -2;
    for (int pass = 0; pass < 3; pass++)
        for (int i = 0; i < n; i++) {
            const struct plan_cluster *pc = &rep->clusters[i];
            if (!point_ok(pc, t) || (pass == 0) != (i == rep->best) ||
                (pass == 1 && !front[i]) || (pass == 2 && front[i]))
                continue;
            place[i] = place_text(&pl, axis_px(&ax, pt_x(pc, t) * xs), axis_px(&ay, pt_y(pc, t)),
                                  text_px(cname(pc)), NPLACE);
        }
    for (int i = 0; i < n; i++)
        if (place[i] == -1) {
            const struct plan_cluster *pc = &rep->clusters[i];
            char num[16];
            numbered[nnum++] = i;
            snprintf(num, sizeof num, "%d", nnum);
            place[i] = place_text(&pl, axis_px(&ax, pt_x(pc, t) * xs), axis_px(&ay, pt_y(pc, t)),
                                  text_px(num), NPLACE_NUM);
            place[i] = -3 - (place[i] < 0 ? 0 : place[i]);  /* numbered, at place -3 - k */
        }

    fprintf(f, "<svg id=\"chart-pareto\" class=\"chart\" width=\"%.0f\" height=\"%.0f\" "
               "viewBox=\"0 0 %.0f %.0f\" role=\"img\" aria-label=\"%s\">\n",
            W, H, W, H, t ? "Cost to train against time to train" : "Cost per step against step time");
    axis_x(f, &ax, H - B, T, x_title);
    axis_y(f, &ay, L, W - R, t ? "cost to train (USD)" : "cost per step (USD)");

    /* The front, joined in order of step time. */
    order = x_calloc((size_t)(nf ? nf : 1), sizeof *order);
    for (int i = 0, k = 0; i < n; i++)
        if (front[i])
            order[k++] = i;
    for (int a = 1; a < nf; a++)
        for (int b = a; b > 0 && pt_x(&rep->clusters[order[b]], t) <
                                     pt_x(&rep->clusters[order[b - 1]], t); b--) {
            int tmp = order[b];
            order[b] = order[b - 1];
            order[b - 1] = tmp;
        }
    if (nf >= 2) {
        fprintf(f, "<polyline class=\"pareto-front\" fill=\"none\" stroke=\"#e15759\" stroke-width=\"2\" "
                   "stroke-dasharray=\"6 4\" points=\"");
        for (int k = 0; k < nf; k++) {
            const struct plan_cluster *pc = &rep->clusters[order[k]];
            fprintf(f, "%s%.2f,%.2f", k ? " " : "", axis_px(&ax, pt_x(pc, t) * xs),
                    axis_px(&ay, pt_y(pc, t)));
        }
        fprintf(f, "\"/>\n");
    }
    for (int i = 0; i < n; i++) {
        const struct plan_cluster *pc = &rep->clusters[i];
        double x, y;
        if (!point_ok(pc, t))
            continue;
        x = axis_px(&ax, pt_x(pc, t) * xs);
        y = axis_px(&ay, pt_y(pc, t));
        fprintf(f, "<g class=\"point%s%s%s\"><title>", front[i] ? " front" : "",
                !pc->feasible ? " infeasible" : "", i == rep->best ? " best" : "");
        html_escape(f, cname(pc));
        if (t)
            fprintf(f, ": %.2f h and $%.2f to train%s%s</title>\n", pt_x(pc, t), pt_y(pc, t),
                    front[i] ? ", on the Pareto front" : "", !pc->feasible ? ", infeasible" : "");
        else
            fprintf(f, ": %.1f ms per step, $%.4g per step%s%s</title>\n", pt_x(pc, t),
                    pt_y(pc, t), front[i] ? ", on the Pareto front" : "",
                    !pc->feasible ? ", infeasible" : "");
        if (!pc->feasible)
            fprintf(f, "<path d=\"M%.2f %.2fl10 10m0 -10l-10 10\" stroke=\"#888\" stroke-width=\"2\"/>\n",
                    x - 5, y - 5);
        else
            fprintf(f, "<circle cx=\"%.2f\" cy=\"%.2f\" r=\"6\" fill=\"%s\" stroke=\"#333\"/>\n", x, y,
                    front[i] ? "#e15759" : "#fff");
        if (i == rep->best)
            fprintf(f, "<circle cx=\"%.2f\" cy=\"%.2f\" r=\"11\" fill=\"none\" stroke=\"#333\" "
                       "stroke-width=\"2\"/>\n", x, y);
        if (place[i] >= 0) {
            text_at(f, x, y, place[i], "");
            html_escape(f, cname(pc));
            fprintf(f, "</text></g>\n");
        } else {
            int k = 0;
            while (numbered[k] != i)
                k++;
            text_at(f, x, y, -3 - place[i], " class=\"point-number\"");
            fprintf(f, "%d</text></g>\n", k + 1);
        }
    }
    {
        double lx = L, ly = H - B + 62;
        fprintf(f, "<g class=\"legend\">\n");
        fprintf(f, "<circle cx=\"%.2f\" cy=\"%.2f\" r=\"6\" fill=\"#e15759\" stroke=\"#333\"/>\n", lx + 7, ly);
        legend_text(f, lx + 20, ly, "on the Pareto front: no other cluster is both faster and cheaper");
        fprintf(f, "<circle cx=\"%.2f\" cy=\"%.2f\" r=\"6\" fill=\"#fff\" stroke=\"#333\"/>\n", lx + 7, ly + 24);
        legend_text(f, lx + 20, ly + 24, "dominated: another cluster is faster and cheaper");
        fprintf(f, "<circle cx=\"%.2f\" cy=\"%.2f\" r=\"9\" fill=\"none\" stroke=\"#333\" stroke-width=\"2\"/>\n",
                lx + 487, ly);
        legend_text(f, lx + 500, ly, "recommended");
        if (any_infeasible) {
            fprintf(f, "<path d=\"M%.2f %.2fl10 10m0 -10l-10 10\" stroke=\"#888\" stroke-width=\"2\"/>\n",
                    lx + 482, ly + 19);
            legend_text(f, lx + 500, ly + 24, "infeasible (deadline or budget)");
        }
        fprintf(f, "<line x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" y2=\"%.2f\" stroke=\"#e15759\" "
                   "stroke-width=\"2\" stroke-dasharray=\"6 4\"/>\n", lx, ly + 48, lx + 14, ly + 48);
        legend_text(f, lx + 20, ly + 48, "Pareto front");
        fprintf(f, "</g>\n");
    }
    fprintf(f, "</svg>\n");
    if (nnum) {
        fprintf(f, "<p class=\"note point-names\">Numbered where a name would overlap another: ");
        for (int k = 0; k < nnum; k++) {
            fprintf(f, "%s%d ", k ? "; " : "", k + 1);
            html_escape(f, cname(&rep->clusters[numbered[k]]));
        }
        fprintf(f, ".</p>\n");
    }
    if (skipped)
        fprintf(f, "<p class=\"note\">%d cluster%s not shown: step time or price unknown.</p>\n", skipped,
                skipped > 1 ? "s" : "");
    x_free(order);
    x_free(front);
    x_free(pl.mark);
    x_free(pl.lab);
    x_free(place);
    x_free(numbered);
}

/* ---- chart 3: scaling ----------------------------------------------------- */

/* The instance type of a cluster made of train groups of one type only
 * (no data or PS nodes), or NULL. */
static const struct cat_instance *scaling_type(const struct plan_cluster *pc)
{
    const struct cat_instance *t = NULL;

    if (!pc->cl || pc->cl->ngroups < 1 || !point_ok(pc, 0) || !isfinite(pc->res.samples_per_s))
        return NULL;
    for (int g = 0; g < pc->cl->ngroups; g++) {
        const struct sc_group *sg = &pc->cl->groups[g];
        if (sg->role != SIM_TRAIN || !sg->inst || (t && t != sg->inst))
            return NULL;
        t = sg->inst;
    }
    return t;
}

struct series {
    const struct cat_instance *inst;
    int n;
    int *idx;               /* clusters, by workers */
};

static const char *series_color[] = {"#4e79a7", "#f28e2b", "#59a14f", "#b07aa1", "#e15759",
                                     "#76b7b2", "#edc948", "#9c755f"};

/* Series of 2+ distinct sizes, in order of first appearance. */
static int scaling_series(const struct plan_report *rep, struct series *s, int max)
{
    int ns = 0;

    for (int i = 0; i < rep->nclusters && ns < max; i++) {
        const struct cat_instance *t = scaling_type(&rep->clusters[i]);
        int seen = 0, sizes = 0;
        if (!t)
            continue;
        for (int k = 0; k < ns; k++)
            seen |= s[k].inst == t;
        if (seen)
            continue;
        s[ns].inst = t;
        s[ns].n = 0;
        s[ns].idx = x_calloc((size_t)rep->nclusters, sizeof *s[ns].idx);
        for (int j = i; j < rep->nclusters; j++)
            if (scaling_type(&rep->clusters[j]) == t)
                s[ns].idx[s[ns].n++] = j;
        /* Sort by workers (insertion sort, stable). */
        for (int a = 1; a < s[ns].n; a++)
            for (int b = a; b > 0 && rep->clusters[s[ns].idx[b]].res.workers <
                                         rep->clusters[s[ns].idx[b - 1]].res.workers; b--) {
                int x = s[ns].idx[b];
                s[ns].idx[b] = s[ns].idx[b - 1];
                s[ns].idx[b - 1] = x;
            }
        /* One point a size: where two clusters of one size differ (their
         * strategies, say), the faster; a line joins sizes, never a
         * vertical segment between strategies. */
        for (int a = 0; a < s[ns].n; a++) {
            const struct plan_cluster *pa = &rep->clusters[s[ns].idx[a]];
            if (sizes > 0 && pa->res.workers == rep->clusters[s[ns].idx[sizes - 1]].res.workers) {
                if (pa->res.samples_per_s > rep->clusters[s[ns].idx[sizes - 1]].res.samples_per_s)
                    s[ns].idx[sizes - 1] = s[ns].idx[a];
                continue;
            }
            s[ns].idx[sizes++] = s[ns].idx[a];
        }
        s[ns].n = sizes;
        if (sizes >= 2)
            ns++;
        else
            x_free(s[ns].idx);
    }
    return ns;
}

/* A series' line through its points.  Between two sizes the value is
 * taken linear in the number of workers, as the ideal line is; on a log
 * axis that is a curve, drawn through 16 samples a segment spaced evenly on
 * the axis, so that the line and the ideal read alike between the points
 * (a straight segment would be a different, geometric interpolation). */
static void series_line(FILE *f, const struct plan_report *rep, const struct series *s,
                        const struct axis *ax, const struct axis *ay, int eff, const char *col)
{
    int parts = ax->log2 ? 16 : 1;

    fprintf(f, "<polyline class=\"measured\" fill=\"none\" stroke=\"%s\" stroke-width=\"2.5\" "
               "points=\"", col);
    for (int a = 0; a < s->n; a++) {
        const struct plan_cluster *pc = &rep->clusters[s->idx[a]];
        double w1 = pc->res.workers, v1 = eff ? 100 * pc->scaling_eff : pc->res.samples_per_s;
        if (a > 0) {
            const struct plan_cluster *p0 = &rep->clusters[s->idx[a - 1]];
            double w0 = p0->res.workers, v0 = eff ? 100 * p0->scaling_eff : p0->res.samples_per_s;
            for (int q = 1; q < parts; q++) {
                double w = w0 * pow(w1 / w0, (double)q / parts);
                fprintf(f, " %.2f,%.2f", axis_px(ax, w), axis_px(ay, v0 + (v1 - v0) * (w - w0) / (w1 - w0)));
            }
        }
        fprintf(f, "%s%.2f,%.2f", a ? " " : "", axis_px(ax, w1), axis_px(ay, v1));
    }
    fprintf(f, "\"/>\n");
}

static void chart_scaling_one(FILE *f, const struct plan_report *rep, const struct series *s, int ns,
                              int eff, int gpus)
{
    /* The legend under the plot: a row of three series a line, and the
     * ideal line's own; the chart grows down by a line for each row past
     * the two its margin holds, so that no legend text is cut. */
    const double top = 62, line = 22;   /* the legend's first row under the axis, its pitch */
    int series_rows = (ns + 2) / 3, rows = series_rows + !eff;
    double W = 960, L = 100, R = 40, T = 20, B = fmax(110, top + 4 + line * rows), H = 310 + B;
    double wmin = INFINITY, wmax = 0, ymax = 0;
    struct axis ax, ay;

    for (int k = 0; k < ns; k++)
        for (int a = 0; a < s[k].n; a++) {
            const struct plan_cluster *pc = &rep->clusters[s[k].idx[a]];
            double y = eff ? 100 * pc->scaling_eff : pc->res.samples_per_s;
            if (pc->res.workers < wmin)
                wmin = pc->res.workers;
            if (pc->res.workers > wmax)
                wmax = pc->res.workers;
            if (!eff) {
                /* The ideal line from the smallest size reaches this high. */
                const struct plan_cluster *p0 = &rep->clusters[s[k].idx[0]];
                double ideal = p0->res.samples_per_s * wmax / p0->res.workers;
                if (ideal > y)
                    y = ideal;
            }
            if (isfinite(y) && y > ymax)
                ymax = y;
        }
    if (eff && ymax < 100)
        ymax = 100;
    if (wmin > 0 && wmax / wmin >= 8) {
        axis_log2(&ax, wmin, wmax, L, W - R);
    } else {
        axis_linear(&ax, wmax * 1.05, L, W - R);
    }
    axis_linear(&ay, ymax * 1.05, H - B, T);

    fprintf(f, "<svg id=\"chart-scaling-%s\" class=\"chart\" width=\"%.0f\" height=\"%.0f\" "
               "viewBox=\"0 0 %.0f %.0f\" role=\"img\" aria-label=\"%s against %s\">\n",
            eff ? "efficiency" : "throughput", W, H, W, H,
            eff ? "Scaling efficiency" : "Throughput", gpus ? "GPUs" : "workers");
    axis_x(f, &ax, H - B, T, gpus ? (ax.log2 ? "GPUs (data-parallel workers, log scale)"
                                             : "GPUs (data-parallel workers)")
                                  : (ax.log2 ? "data-parallel workers (log scale)" : "data-parallel workers"));
    axis_y(f, &ay, L, W - R, eff ? "scaling efficiency (%)" : "throughput (samples/s)");
    for (int k = 0; k < ns; k++) {
        const char *col = series_color[k % 8];
        fprintf(f, "<g class=\"series\">\n");
        if (!eff) {
            const struct plan_cluster *p0 = &rep->clusters[s[k].idx[0]];
            const struct plan_cluster *pn = &rep->clusters[s[k].idx[s[k].n - 1]];
            /* Sampled along x so that it is right on a log axis too. */
            fprintf(f, "<polyline class=\"ideal\" fill=\"none\" stroke=\"%s\" stroke-dasharray=\"3 4\" "
                       "stroke-width=\"1.5\" points=\"", col);
            for (int q = 0; q <= 32; q++) {
                double wk = ax.log2 ? p0->res.workers * pow(pn->res.workers / p0->res.workers, q / 32.0)
                                    : p0->res.workers + (pn->res.workers - p0->res.workers) * q / 32.0;
                fprintf(f, "%s%.2f,%.2f", q ? " " : "", axis_px(&ax, wk),
                        axis_px(&ay, p0->res.samples_per_s * wk / p0->res.workers));
            }
            fprintf(f, "\"/>\n");
        }
        series_line(f, rep, &s[k], &ax, &ay, eff, col);
        for (int a = 0; a < s[k].n; a++) {
            const struct plan_cluster *pc = &rep->clusters[s[k].idx[a]];
            fprintf(f, "<circle class=\"point\" cx=\"%.2f\" cy=\"%.2f\" r=\"5\" fill=\"%s\"><title>",
                    axis_px(&ax, pc->res.workers),
                    axis_px(&ay, eff ? 100 * pc->scaling_eff : pc->res.samples_per_s), col);
            html_escape(f, cname(pc));
            fprintf(f, ": %.0f %s, %.1f samples/s, efficiency %.1f%%</title></circle>\n", pc->res.workers,
                    gpus ? "GPUs" : "workers", pc->res.samples_per_s, 100 * pc->scaling_eff);
        }
        fprintf(f, "</g>\n");
    }
    fprintf(f, "<g class=\"legend\">\n");
    for (int k = 0; k < ns; k++) {
        double lx = L + (k % 3) * 280, ly = H - B + top + (k / 3) * line;
        char txt[160];
        snprintf(txt, sizeof txt, "%s", s[k].inst->name);
        legend_box(f, lx, ly, series_color[k % 8], txt);
    }
    if (!eff) {
        double ly = H - B + top + series_rows * line;
        fprintf(f, "<line x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" y2=\"%.2f\" stroke=\"#333\" "
                   "stroke-dasharray=\"3 4\" stroke-width=\"1.5\"/>\n", L, ly, L + 14, ly);
        legend_text(f, L + 20, ly, "ideal: linear from the smallest size");
    }
    fprintf(f, "</g>\n</svg>\n");
}

static void chart_scaling(FILE *f, const struct plan_report *rep)
{
    struct series s[8];
    int ns = scaling_series(rep, s, 8), gpus = 1;

    if (ns == 0) {
        fprintf(f, "<p class=\"note\" id=\"no-scaling\">No scaling curve: it needs clusters of one "
                   "training instance type at two or more sizes, with no data or parameter-server "
                   "nodes (for example 1, 2 and 4 nodes of the same type). See docs/reports.md.</p>\n");
        return;
    }
    for (int k = 0; k < ns; k++)
        if (s[k].inst->gpu_count == 0)
            gpus = 0;
    chart_scaling_one(f, rep, s, ns, 0, gpus);
    chart_scaling_one(f, rep, s, ns, 1, gpus);
    fprintf(f, "<p class=\"note\">Efficiency: samples/s over (workers &times; samples/s of one worker "
               "computing alone). Clusters with data or parameter-server nodes are not on these "
               "curves.</p>\n");
    for (int k = 0; k < ns; k++)
        x_free(s[k].idx);
}

/* ---- goodput ------------------------------------------------------------- */

/* The effective training time of each cluster with a goodput: section
 * against its GPUs (planner/goodput.c): how failures grow with size.
 * Nothing without one. */
static void chart_goodput(FILE *f, const struct plan_report *rep)
{
    double W = 960, H = 360, L = 100, R = 40, T = 20, B = 70, wmin = INFINITY, wmax = 0;
    struct axis ax, ay;
    int n = 0;

    for (int i = 0; i < rep->nclusters; i++) {
        const struct plan_cluster *pc = &rep->clusters[i];
        if (!pc->goodput.on || !(pc->res.workers > 0))
            continue;
        n++;
        wmin = fmin(wmin, pc->res.workers);
        wmax = fmax(wmax, pc->res.workers);
    }
    if (n == 0)
        return;
    fprintf(f, "<section id=\"goodput\">\n<h2>Effective training time against cluster size</h2>\n");
    if (wmax / wmin >= 8)
        axis_log2(&ax, wmin, wmax, L, W - R);
    else
        axis_linear(&ax, wmax * 1.05, L, W - R);
    axis_linear(&ay, 100, H - B, T);
    fprintf(f, "<svg id=\"chart-goodput\" class=\"chart\" width=\"%.0f\" height=\"%.0f\" "
               "viewBox=\"0 0 %.0f %.0f\" role=\"img\" aria-label=\"Effective training time "
               "against GPUs\">\n", W, H, W, H);
    axis_x(f, &ax, H - B, T, ax.log2 ? "GPUs (log scale)" : "GPUs");
    axis_y(f, &ay, L, W - R, "effective training time (%)");
    for (int i = 0; i < rep->nclusters; i++) {
        const struct plan_cluster *pc = &rep->clusters[i];
        const struct plan_goodput *g = &pc->goodput;
        if (!g->on || !(pc->res.workers > 0))
            continue;
        fprintf(f, "<circle class=\"point\" cx=\"%.2f\" cy=\"%.2f\" r=\"5\" fill=\"%s\"><title>",
                axis_px(&ax, pc->res.workers), axis_px(&ay, 100 * g->ettr), series_color[0]);
        html_escape(f, cname(pc));
        fprintf(f, ": %.0f GPUs, %.1f%% effective training time, %.3g interruptions a day</title>"
                   "</circle>\n", pc->res.workers, 100 * g->ettr, g->interruptions_per_day);
    }
    fprintf(f, "</svg>\n<ul class=\"note\">\n");
    for (int i = 0; i < rep->nclusters; i++) {     /* the points, named (no labels to collide) */
        const struct plan_cluster *pc = &rep->clusters[i];
        if (!pc->goodput.on || !(pc->res.workers > 0))
            continue;
        fprintf(f, "<li>");
        html_escape(f, cname(pc));
        fprintf(f, ": %.0f GPUs, %.1f%%</li>\n", pc->res.workers, 100 * pc->goodput.ettr);
    }
    fprintf(f, "</ul>\n<p class=\"note\">Effective training time: the share of the wall time "
               "spent training, interruptions, checkpoints and restarts counted (docs/model.md "
               "\"Goodput\").</p>\n</section>\n");
}

/* ---- page ----------------------------------------------------------------- */

/* 1,320 px of content: the cluster table of an LLM search fits a 1,400 px
 * window; the box around it scrolls sideways in a narrower one. */
static const char style[] =
    "body{font-family:'DejaVu Sans',Arial,Helvetica,sans-serif;color:#222;background:#fff;"
    "margin:24px auto;max-width:1320px;padding:0 16px;line-height:1.4}\n"
    "h1{font-size:24px;margin:0 0 4px}h2{font-size:18px;margin:28px 0 8px;border-bottom:1px solid #ccc}\n"
    ".meta{color:#555;margin:0 0 8px}.note{color:#555;font-size:13px}\n"
    "#recommendation p{font-size:15px;background:#f4f7fb;border-left:4px solid #4e79a7;padding:8px 12px}\n"
    "svg.chart{display:block;max-width:100%;height:auto;margin:8px 0}\n"
    "svg.chart text{font-size:12px;fill:#222}svg.chart .axis-title{font-size:13px;font-weight:bold}\n"
    "svg.chart .cluster-label.best{font-weight:bold}\n"
    ".table-box{max-width:100%;overflow-x:auto}\n"
    "table{border-collapse:collapse;font-size:12px;width:100%}\n"
    "th,td{border-bottom:1px solid #ddd;padding:4px 6px;text-align:left;vertical-align:top}\n"
    "td{overflow-wrap:anywhere}td.num,td.kind{white-space:nowrap}td.num{text-align:right}\n"
    "tr.cluster td{border-bottom:none}tr.why td{color:#555;padding-top:0}tr.why summary{cursor:pointer}\n"
    "tr.best td{background:#fdf6e3}tr.cluster.best td{font-weight:bold}\n";

int html_write(FILE *f, const struct plan_report *rep)
{
    const struct scenario *sc = rep->sc;
    const char *name = sc ? sc->name : "";

    fprintf(f, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
               "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>dtplan: ");
    html_escape(f, name);
    fprintf(f, "</title>\n<style>\n%s</style>\n</head>\n<body>\n<h1>dtplan report: ", style);
    html_escape(f, name);
    fprintf(f, "</h1>\n<p class=\"meta\">");
    if (sc) {
        fprintf(f, "Seed %lu, %d measured steps after %d warm-up steps per cluster. Objective: ", sc->simulation.seed,
                sc->simulation.steps, sc->simulation.warmup);
        html_escape(f, scenario_objective_name(sc->objective.minimize));
        if (isfinite(sc->objective.deadline_h))
            fprintf(f, ", deadline %g h", sc->objective.deadline_h);
        if (isfinite(sc->objective.budget_usd_h))
            fprintf(f, ", budget $%.2f/h", sc->objective.budget_usd_h);
        fprintf(f, ".");
    }
    if (isfinite(rep->solved_value)) {
        fprintf(f, " Solved from the measured step: ");
        html_escape(f, rep->solved_what);
        if (isnan(rep->solved_hi))
            fprintf(f, " = %.6g.", rep->solved_value);
        else
            fprintf(f, " between %.6g and %.6g, not determined: the measured step is explained "
                    "without it.  Predicted with the middle, %.6g.", rep->solved_lo,
                    rep->solved_hi, rep->solved_value);
    }
    fprintf(f, "</p>\n");

    for (int i = 0; i < rep->nclusters; i++)
        for (int k = 0; k < rep->clusters[i].nassumed; k++) {
            fprintf(f, "<p class=\"note\">Assumed: ");
            html_escape(f, cname(&rep->clusters[i]));
            fprintf(f, ": ");
            html_escape(f, rep->clusters[i].assumed[k]);
            fprintf(f, "</p>\n");
        }
    for (int i = 0; i < rep->nfailed; i++) {
        fprintf(f, "<p class=\"note\">Not comparable: ");
        html_escape(f, rep->failed[i].name);
        fprintf(f, ": ");
        html_escape(f, rep->failed[i].why);
        fprintf(f, "</p>\n");
    }
    fprintf(f, "<section id=\"recommendation\">\n<h2>Recommendation</h2>\n<p><b>");
    html_escape(f, plan_action_name(rep->action));
    fprintf(f, ": ");
    {
        char label[96];
        html_escape(f, report_cluster_label(rep->best >= 0 && rep->best < rep->nclusters
                                                ? cname(&rep->clusters[rep->best]) : "none",
                                            label, sizeof label));
    }
    fprintf(f, "</b> &mdash; ");
    html_escape(f, rep->reason);
    fprintf(f, "</p>\n</section>\n");

    fprintf(f, "<section id=\"breakdown\">\n<h2>Step time breakdown per cluster</h2>\n");
    chart_breakdown(f, rep);
    fprintf(f, "<p class=\"note\">Each bar is one training step of the cluster's slowest group: what "
               "its workers spend computing, waiting for input, waiting for gradients to be shared "
               "after backward, and updating; the number is the mean step time.</p>\n</section>\n");

    fprintf(f, "<section id=\"pareto\">\n<h2>%s</h2>\n", train_axes(rep)
                   ? "Cost to train against time to train" : "Cost per step against step time");
    chart_pareto(f, rep);
    fprintf(f, "</section>\n");

    fprintf(f, "<section id=\"scaling\">\n<h2>Scaling</h2>\n");
    chart_scaling(f, rep);
    fprintf(f, "</section>\n");

    chart_goodput(f, rep);

    fprintf(f, "<section id=\"clusters\">\n<h2>Clusters</h2>\n");
    html_table_clusters(f, rep);
    fprintf(f, "</section>\n<p class=\"note\">Written by dtplan from a simulation; the same scenario, "
               "catalog and seed give the same file.</p>\n</body>\n</html>\n");
    return ferror(f) ? -1 : 0;
}
