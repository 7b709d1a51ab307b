/*
 * layout_dims.h - internal to the planner: the parallel dimensions the
 * layout search walks (layout.c), as a table with one row each.  A row says
 * which values to try given the values chosen for the rows above it, whether
 * a candidate fits it, how to set a value on a layout (the parallel section), how to read it back
 * from a simulated cluster, and how to name it in the Layout: line.  The
 * search walks the rows' combinations in the table's order, first row
 * outermost (layout_dims_walk), and never names a dimension itself, so a new
 * parallel dimension is a new row here and an index below.
 */
#ifndef DT_LAYOUT_DIMS_H
#define DT_LAYOUT_DIMS_H

#include <stddef.h>

#include "planner.h"

/* The rows in walk order; each index is a row of layout_dims[] and a slot of
 * a combination (int val[LAYOUT_NDIMS]).  A row's values may depend on the
 * rows before it only. */
enum layout_dim_id {
    LAYOUT_DIM_TP = 0,      /* tensor-parallel size */
    LAYOUT_DIM_PP,          /* pipeline depth */
    LAYOUT_DIM_CP,          /* context-parallel ranks */
    LAYOUT_DIM_INTERLEAVE,  /* model chunks a pipeline stage */
    LAYOUT_DIM_EP,          /* expert-parallel ranks */
    LAYOUT_DIM_ETP,         /* expert tensor parallelism (0: tp's) */
    LAYOUT_DIM_EP_OVERLAP,  /* 1: the all-to-alls beside another micro-batch's compute */
    LAYOUT_DIM_RECOMPUTE,   /* enum sc_recompute */
    LAYOUT_DIM_SHARDING,    /* enum sc_sharding */
    LAYOUT_NDIMS
};

#define LAYOUT_DIM_MAX_VALUES 9   /* the most values a row yields, over every row's max */

/* Where a row's words go in a combination's name: "tp 8 x pp 4
 * (interleave 2) + zero1, recompute full" is the shape rows, the stage, then
 * the options. */
enum layout_text { LAYOUT_TEXT_SHAPE = 0, LAYOUT_TEXT_STAGE, LAYOUT_TEXT_OPTION, LAYOUT_NTEXT };

/* One cluster as the rows see it, filled by layout_dims_space(). */
struct layout_space {
    const struct scenario *sc;    /* the scenario, its auto flags as written */
    const struct sc_cluster *cl;
    int ranks;                    /* train workers: GPUs, or nodes without one */
    int nodes;                    /* train nodes */
    int wpn;                      /* the most workers on one train node, >= 1 */
    int is_ps;                    /* parameter servers: the ranks shard nothing */
};

struct layout_dim {
    const char *name;             /* the scenario's key: "tp", "sharding" */
    int max;                      /* the most values values() yields, <= LAYOUT_DIM_MAX_VALUES */
    int splits_ranks;             /* 1: its value divides the ranks, so a replica has the product
                                     of these rows' values (tp x pp) */
    enum layout_text text_part;   /* where its words go in a name */
    /* The values to try, simplest first, into out; chosen holds the values of
     * the rows before this one.  Returns how many (0: none fits, the rows
     * below are not walked). */
    int (*values)(const struct layout_space *s, const int *chosen, int *out);
    /* Whether a candidate t (every row applied, its micro-batch set) fits
     * cluster cl; NULL: always. */
    int (*fits)(const struct scenario *t, const struct sc_cluster *cl);
    /* Set its value on a layout: the parallel section, and nothing else. */
    void (*apply)(struct sc_parallel *p, int value);
    /* The value a simulated cluster ran with, as values() would give it. */
    int (*of_result)(const struct plan_cluster *pc);
    /* Its words in a name, appended at buf (len bytes left, first: nothing
     * written before); returns what snprintf returns, 0 when it says nothing. */
    int (*text)(const struct scenario *sc, const int *val, int first, char *buf, size_t len);
};

extern const struct layout_dim layout_dims[LAYOUT_NDIMS];

void layout_dims_space(const struct scenario *sc, const struct sc_cluster *cl,
                       struct layout_space *s);
/* The most combinations the walk can visit: the product of the rows' max. */
int layout_dims_most(void);
/* Every combination of s, first row outermost, each row's values in its
 * order: visit(val, arg) for each, until one returns nonzero, which is
 * returned.  O(combinations x rows) calls of values(). */
int layout_dims_walk(const struct layout_space *s, int (*visit)(const int *val, void *arg),
                     void *arg);
/* Ranks a replica takes under the first n values of val (rows that split
 * ranks): tp x pp. */
int layout_dims_ranks(const int *val, int n);
/* Whether candidate t fits every row's check. */
int layout_dims_fit(const struct scenario *t, const struct sc_cluster *cl);
void layout_dims_apply(struct sc_parallel *p, const int *val);
/* The values cluster pc ran with, into val. */
void layout_dims_of_result(const struct plan_cluster *pc, int *val);
/* Combination val's name for the Layout: line, into buf. */
const char *layout_dims_name(const struct scenario *sc, const int *val, char *buf, size_t len);

#endif
