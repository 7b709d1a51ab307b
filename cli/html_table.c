/*
 * html_table.c - the HTML report's cluster table (html_table.h), below
 * html.c, which writes the page around it.
 *
 * The table has to read at 1,400 px wide with the long explanations of the
 * LLM scenarios, so every cell of a row holds one short value: times in
 * milliseconds, or in seconds when the longest step reaches 10 s (a 70B
 * model's step is minutes), dollar amounts with thousands separators, and
 * in the bottleneck column only the kind ("compute-bound").  The whole
 * sentence, why a cluster is infeasible and the layout the planner chose go
 * in a row under it that spans the table, the layout folded in a
 * <details> whose summary is its first clause.  The table sits in a box
 * that scrolls sideways by itself if a window is narrower still.
 * Cost: O(clusters).
 */
#include "html_table.h"

#include <math.h>
#include <string.h>

#include "html_svg.h"
#include "../base/numfmt.h"
#include "../base/text.h"

static const char *cname(const struct plan_cluster *pc)
{
    return pc->cl ? pc->cl->name : "";
}

static void cell_group_list(FILE *f, const struct sc_cluster *cl)
{
    for (int g = 0; cl && g < cl->ngroups; g++) {
        const struct sc_group *sg = &cl->groups[g];
        fprintf(f, "%s%dx ", g ? " + " : "", sg->count);
        html_escape(f, sg->inst ? sg->inst->name : "?");
        if (sg->role != SIM_TRAIN || sg->spot) {
            fprintf(f, " (");
            if (sg->role != SIM_TRAIN)
                html_escape(f, sim_role_name(sg->role));
            fprintf(f, "%s%s)", sg->role != SIM_TRAIN && sg->spot ? ", " : "", sg->spot ? "spot" : "");
        }
    }
}

/* A dollar amount in a column of dec decimals (numfmt_usd_decimals), with
 * thousands separators; amounts of $10,000 and more without cents. */
static void td_usd(FILE *f, double usd, int dec)
{
    char raw[64], out[96];

    if (!isfinite(usd)) {
        fprintf(f, "<td class=\"num\">&ndash;</td>");
        return;
    }
    numfmt_usd(raw, sizeof raw, usd, fabs(usd) >= 1e4 && dec >= 0 ? 0 : dec);
    html_group_digits(out, sizeof out, raw);
    fprintf(f, "<td class=\"num\">%s</td>", out);
}

static void td_num(FILE *f, const char *fmt, double v)
{
    fprintf(f, "<td class=\"num\">");
    if (isfinite(v))
        fprintf(f, fmt, v);
    else
        fprintf(f, "&ndash;");
    fprintf(f, "</td>");
}

/* The bottleneck's kind: its text up to the first ':' ("compute-bound"),
 * or its first 24 characters and an ellipsis. */
static void bound_kind(FILE *f, const char *text)
{
    const char *colon = strchr(text, ':');
    char kind[96];
    size_t n = colon ? (size_t)(colon - text) : strlen(text);

    if (n > 24) {
        size_t cut = text_char_start(text, 24);
        snprintf(kind, sizeof kind, "%.*s\xe2\x80\xa6", (int)cut, text);
    } else {
        snprintf(kind, sizeof kind, "%.*s", (int)n, text);
    }
    html_escape(f, kind);
}

/* The row under a cluster's: the bottleneck in full, why it is infeasible,
 * and the layout folded, its first clause (up to ';') as the summary. */
static void why_row(FILE *f, const struct plan_cluster *pc, int best, int ncol)
{
    fprintf(f, "<tr class=\"why%s\"><td></td><td colspan=\"%d\">", best ? " best" : "", ncol - 1);
    html_escape(f, pc->bound_text);
    if (!pc->feasible) {
        fprintf(f, "<br>infeasible: ");
        html_escape(f, pc->infeasible_why);
    }
    if (pc->layout_why[0]) {
        const char *semi = strchr(pc->layout_why, ';');
        char head[sizeof pc->layout_why];
        snprintf(head, sizeof head, "%.*s", semi ? (int)(semi - pc->layout_why) : (int)sizeof head,
                 pc->layout_why);
        fprintf(f, "<details><summary>layout: ");
        html_escape(f, head);
        fprintf(f, "</summary>");
        html_escape(f, pc->layout_why);
        fprintf(f, "</details>");
    }
    fprintf(f, "</td></tr>\n");
}

void html_table_clusters(FILE *f, const struct plan_report *rep)
{
    int train = 0, layout = 0, ncol, dec_h, dec_step, dec_train;
    enum numfmt_dur train_style;
    double longest = 0, longest_step = 0, *v, t_scale;
    const char *t_unit, *t_fmt;
    char dur[32];
    int n = rep->nclusters;

    for (int i = 0; i < n; i++) {
        train |= isfinite(rep->clusters[i].train_s);
        if (isfinite(rep->clusters[i].res.step_mean_s) && rep->clusters[i].res.step_mean_s > longest_step)
            longest_step = rep->clusters[i].res.step_mean_s;
    }
    /* one unit for every time column: seconds once a step reaches 10 s */
    if (longest_step >= 10) {
        t_scale = 1, t_unit = "s", t_fmt = "%.2f";
    } else {
        t_scale = 1e3, t_unit = "ms", t_fmt = "%.1f";
    }
    /* one number of decimals a dollar column (numfmt_usd_decimals) */
    v = x_calloc((size_t)(n ? n : 1), sizeof *v);
    for (int i = 0; i < n; i++)
        v[i] = rep->clusters[i].price_usd_h;
    dec_h = numfmt_usd_decimals(v, n);
    for (int i = 0; i < n; i++)
        v[i] = rep->clusters[i].cost_per_step_usd;
    dec_step = numfmt_usd_decimals(v, n);
    for (int i = 0; i < n; i++)
        v[i] = rep->clusters[i].cost_to_train_usd;
    dec_train = numfmt_usd_decimals(v, n);
    x_free(v);

    ncol = 14 + 2 * train;
    fprintf(f, "<div class=\"table-box\">\n<table id=\"cluster-table\">\n<thead><tr><th></th><th>cluster</th>"
               "<th>groups</th><th>step (%s)</th><th>band (%s)</th><th>p95 (%s)</th><th>compute (%s)</th>"
               "<th>stall (%s)</th><th>comm (%s)</th><th>optimizer (%s)</th><th>samples/s</th><th>$/h</th>"
               "<th>$/step</th>%s<th>bottleneck</th></tr></thead>\n<tbody>\n",
            t_unit, t_unit, t_unit, t_unit, t_unit, t_unit, t_unit,
            train ? "<th>to train</th><th>$ to train</th>" : "");
    /* one style for the column, its longest value's ("5h07m", "2.3 d") */
    for (int i = 0; i < n; i++)
        if (isfinite(rep->clusters[i].train_s) && rep->clusters[i].train_s > longest)
            longest = rep->clusters[i].train_s;
    train_style = numfmt_dur_style(longest);
    for (int i = 0; i < n; i++) {
        const struct plan_cluster *pc = &rep->clusters[i];
        const struct sim_result *r = &pc->res;
        fprintf(f, "<tr class=\"cluster%s\"><td>%s</td><td>", i == rep->best ? " best" : "",
                i == rep->best ? "&#9733;" : !pc->feasible ? "&#10007;" : "");
        html_escape(f, cname(pc));
        fprintf(f, "</td><td>");
        cell_group_list(f, pc->cl);
        fprintf(f, "</td>");
        td_num(f, t_fmt, r->step_mean_s * t_scale);
        if (isfinite(pc->band_lo_s) && isfinite(pc->band_hi_s) && pc->band_hi_s > 0) {
            fprintf(f, "<td class=\"num\">");
            fprintf(f, t_fmt, pc->band_lo_s * t_scale);
            fprintf(f, "&ndash;");
            fprintf(f, t_fmt, pc->band_hi_s * t_scale);
            fprintf(f, "</td>");
        } else {
            fprintf(f, "<td class=\"num\">&ndash;</td>");
        }
        td_num(f, t_fmt, r->step_p95_s * t_scale);
        td_num(f, t_fmt, r->compute_s * t_scale);
        td_num(f, t_fmt, r->data_stall_s * t_scale);
        td_num(f, t_fmt, r->exposed_comm_s * t_scale);
        td_num(f, t_fmt, r->optimizer_s * t_scale);
        td_num(f, "%.1f", r->samples_per_s);
        td_usd(f, pc->price_usd_h, dec_h);
        td_usd(f, pc->cost_per_step_usd, dec_step);
        if (train) {
            numfmt_duration(dur, sizeof dur, pc->train_s, train_style);
            fprintf(f, "<td class=\"num\">%s</td>", strcmp(dur, "-") ? dur : "&ndash;");
            td_usd(f, pc->cost_to_train_usd, dec_train);
        }
        fprintf(f, "<td class=\"kind\" title=\"");
        html_escape(f, pc->bound_text);
        fprintf(f, "\">");
        bound_kind(f, pc->bound_text);
        fprintf(f, "</td></tr>\n");
        why_row(f, pc, i == rep->best, ncol);
    }
    for (int i = 0; i < n; i++)
        layout |= rep->clusters[i].layout_why[0] != '\0';
    fprintf(f, "</tbody>\n</table>\n</div>\n<p class=\"note\">&#9733; recommended, &#10007; infeasible "
               "(misses the deadline or budget). Times are means over the measured steps; the band is where the "
               "real step time is expected to lie, from the validated error of its parts. Under each cluster: "
               "its bottleneck in full%s.</p>\n",
            layout ? ", and the layout the planner chose (click to unfold)" : "");
}
