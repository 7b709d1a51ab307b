/*
 * report.h - the reports dtplan prints: a fixed-width table for people and a
 * JSON object for programs.  See docs/output.md for every column and field.
 *
 * Both only format a struct plan_report filled by plan_run() (or by hand, in
 * tests); they compute nothing new.  Output is deterministic for a given
 * report: fixed number formats, doubles in JSON rounded to 6 significant
 * digits, unknown values (NAN, infinities) shown as "-" in the table and as
 * null in JSON; no clock, host or pointer ever appears (the one date, the
 * one the prices' ages are taken at, is the caller's: plan_report.today).
 *
 * Library code: they never exit and print only to the stream they are given.
 */
#ifndef DT_REPORT_H
#define DT_REPORT_H

#include "../base/numfmt.h"
#include <stdio.h>

#include "../planner/planner.h"

/* Write the table to f.  Returns 0, or -1 if the stream reports an error. */
int report_table(FILE *f, const struct plan_report *rep);

/* Write one JSON object (cJSON_Print layout, then a newline) to f.
 * Returns 0, or -1 if building the tree failed or the stream reports an
 * error. */
int report_json(FILE *f, const struct plan_report *rep);

/* Write the cluster table as CSV (RFC 4180 quoting, LF line ends): a header
 * line, then one line per cluster in the scenario's order.  Numbers in SI
 * units with 6 significant digits; unknown values are empty fields.
 * Columns: docs/output.md.  Returns 0, or -1 if the stream reports an
 * error. */
int report_csv(FILE *f, const struct plan_report *rep);

/* Table cells, strings the caller frees with x_free: a number with printf
 * format fmt; dollars with a column's decimals (base/numfmt.h; -1:
 * scientific); a duration in a column's style ("42.0 s", "12m05s",
 * "5h07m", "3.2 d").  Each is "-" when the value is unknown. */
char *report_cell_num(const char *fmt, double v);
char *report_cell_usd(double usd, int decimals);
char *report_cell_duration(double s, enum numfmt_dur style);

/* One format per column (docs/output.md): the dollars per step and the
 * durations of n clusters (stride bytes apart, the first at pc), each
 * column written as its widest value needs. */
struct report_colfmt {
    int usd_step_decimals;
    enum numfmt_dur epoch, train;
};
void report_colfmt_of(const struct plan_cluster *pc, int n, size_t stride,
                      struct report_colfmt *cf);

/* Print nrows rows of ncol cells (row-major; the first row is the header)
 * as aligned columns two blanks apart: right[c] aligns column c right,
 * show (NULL: all) leaves columns out; widths are the widest cell in
 * terminal columns; trailing blanks are cut. */
void report_grid_print(FILE *f, char **cells, int nrows, int ncol, const int *right,
                       const int *show);

/* For JSON writers (cJSON): add v to o under key, rounded to 6 significant
 * digits, or null when not finite; the groups of cl as a new array of
 * {role, instance, count, spot, vcpu_speed} (vcpu_speed from cfg, the
 * resolved cluster: one vCPU in reference cores). */
struct cJSON;
struct sim_config;
void report_json_num(struct cJSON *o, const char *key, double v);

/* The dates of the prices the report's clusters rent at (report_prices.c;
 * docs/output.md "Prices"): one "Prices:" line naming each instance type
 * with its price date or "undated", and those over a year older than
 * rep->today; the same as a JSON object {as_of, types: [{instance, date,
 * age_days, stale}]}.  report_today: today's date, YYYY-MM-DD, from
 * SOURCE_DATE_EPOCH when it is set (reproducible output), else the clock;
 * "" when neither gives one. */
void report_prices_line(FILE *f, const struct plan_report *rep);
/* What failures, checkpoints and restarts cost each cluster with a goodput:
 * section (report_goodput.c; docs/output.md "Goodput"): a "Goodput:" line a
 * cluster (its JSON object: report.c). */
void report_goodput_lines(FILE *f, const struct plan_report *rep);
struct cJSON *report_prices_json(const struct plan_report *rep);
void report_today(char *buf, size_t len);

/* A recommended cluster's name as the recommendation line shows it: as it
 * is, or `cluster "NAME"` when it reads as an action (keep, scale_up, ...). */
const char *report_cluster_label(const char *name, char *buf, size_t len);
/* "tie": null, or how the recommendation won a tie on the objective
 * (planner.h struct plan_tie_report); first names the objective's best,
 * other the cluster the gap is measured against. */
void report_json_tie(struct cJSON *o, const struct plan_tie_report *t, const char *first,
                     const char *other);
struct cJSON *report_json_groups(const struct sc_cluster *cl, const struct sim_config *cfg);

/* v rounded to 6 significant digits (what report_json writes); NAN and
 * infinities are returned unchanged. */
double report_round6(double v);

/* A cluster's groups as the table's cell ("2x p5.48xlarge + 1x c5.9xlarge
 * (data)"), newly allocated; its name, "" without one (report.c, for the
 * writers). */
char *report_cell_groups(const struct sc_cluster *cl);
const char *report_cluster_name(const struct plan_cluster *pc);

/* The cluster at index i of an array of n elements of `stride` bytes, the
 * first at pc (plan_report's clusters, or the search's picks; report_notes.c). */
const struct plan_cluster *report_nth(const struct plan_cluster *pc, size_t stride, int i);
/* One "Collectives:" line per cluster of n (at pc, `stride` bytes apart)
 * whose gradients go by strategy auto: NCCL's choice for each bucket size,
 * as the planner kept it (plan_cluster.collectives). */
void report_collective_notes(FILE *f, const struct plan_cluster *pc, int n, size_t stride);
/* "Layout: NAME: ..." for each cluster whose layout the planner chose
 * (gradients.sharding or batch_per_gpu auto; planner/layout.c). */
void report_layout_notes(FILE *f, const struct plan_cluster *pc, int n, size_t stride);
/* The cluster's "collectives" array (plan_cluster.collectives): NCCL's
 * choice per bucket size under strategy auto ({bytes, algorithm, protocol,
 * channels, time_s, busbw_GBps}); empty otherwise. */
void report_json_collectives(struct cJSON *o, const struct plan_cluster *pc);
/* What both JSON reports give each cluster beyond its step: "precision_note"
 * (null when the precision runs as asked), "collectives" (report_json_
 * collectives), the "memory_gib" object (weights, gradients, optimizer,
 * activations, buffers, total, capacity: per GPU or CPU worker, GiB;
 * activations null when unknown), "tokens_per_s" and "mfu" (null when
 * unknown), "grad_accum" and "global_batch" (samples per optimizer step),
 * "batch_note" (null unless global_batch differs from the scenario's). */
void report_json_cluster_model(struct cJSON *o, const struct plan_cluster *pc);
/* Each distinct precision note (plan_cluster.compute_note) of n clusters,
 * once, as "Precision: ..." lines; the clusters lie stride bytes apart from
 * pc (a report's clusters, or the pc members of the search's picks). */
void report_precision_notes(FILE *f, const struct plan_cluster *pc, int n, size_t stride);
/* "Batch: CLUSTER: ..." for each cluster whose samples a step differ from
 * the scenario's global batch (plan_cluster.batch_note); as above. */
void report_batch_notes(FILE *f, const struct plan_cluster *pc, int n, size_t stride);

/* "lo-hi" in ms of pc's step-time band (heap), and a band as a JSON pair
 * (null for an unknown end). */
char *report_cell_band(const struct plan_cluster *pc);
void report_json_band(struct cJSON *o, const char *key, double lo, double hi);

/* pc's time to train over its step band as time_key, and the cost to train
 * over it as "cost_to_train_band_usd". */
void report_json_train_band(struct cJSON *o, const char *time_key, const struct plan_cluster *pc);

/* A cluster's goodput object (planner/goodput.c; docs/output.md): null
 * without a goodput: section. */
struct cJSON *report_json_goodput(const struct plan_cluster *pc);

#endif
