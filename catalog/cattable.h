/*
 * cattable.h - a catalog CSV file read as a table (catalog.c's loader and
 * its parts): the expected columns found by name in the header, each cell
 * checked for its kind and its range (fields.h), and an error line that
 * names the file, line, column and field.  Internal to catalog/.
 */
#ifndef DT_CATTABLE_H
#define DT_CATTABLE_H

#include <stddef.h>

#include "csv.h"
#include "fields.h"
#include "../base/xmem.h"

#define MAX_COLS 16

/* A table being loaded: the parsed file plus where each expected column is. */
struct cat_table {
    struct csv_file csv;
    const char *const *cols;    /* expected column names */
    int ncols;
    int idx[MAX_COLS];          /* field index of cols[c] in every row */
    const struct cat_field *range[MAX_COLS]; /* fields.h's entry of cols[c], or NULL */
};

/* dir/file, a new string. */
char *tbl_join_path(const char *dir, const char *file);

/* Read dir/file and map its header onto cols.  On error the table is empty. */
int tbl_open(struct cat_table *t, const char *dir, const char *file,
             const char *const *cols, int ncols, struct dt_err *e);
void tbl_close(struct cat_table *t);

/* Row r's cell of expected column c. */
const struct csv_field *tbl_cell(const struct cat_table *t, const struct csv_row *r, int c);

/* -1 with e->msg = "FILE:LINE:COL: COLNAME: expected EXPECTED, found \"...\"". */
int tbl_err(struct dt_err *e, const struct cat_table *t, const struct csv_field *fld,
            const char *colname, const char *expected);
/* A parsed value v against f, the range of its column (fields.h), if any. */
int tbl_check_range(struct dt_err *e, const struct cat_table *t, const struct csv_field *fld,
                    const char *colname, const struct cat_field *f, double v);

/* Expected column c of row r: text into a buffer (required: not empty); a
 * non-negative finite number ("" -> NAN); a non-negative int ("" -> -1);
 * the source (required, a heap copy).  Each 0, or -1 and e set. */
int tbl_text(char *dst, size_t cap, int required, const struct cat_table *t,
             const struct csv_row *r, int c, struct dt_err *e);
int tbl_num(double *out, const struct cat_table *t, const struct csv_row *r, int c,
            struct dt_err *e);
int tbl_int(int *out, const struct cat_table *t, const struct csv_row *r, int c,
            struct dt_err *e);
int tbl_source(char **out, const struct cat_table *t, const struct csv_row *r, int c,
               struct dt_err *e);
/* Error unless row r's name (column c) is new among the first n names of
 * base, stride bytes apart, found on lines[0..n). */
int tbl_unique(const void *base, int n, size_t stride, const int *lines,
               const struct cat_table *t, const struct csv_row *r, int c, struct dt_err *e);

/* Optional columns, by field index k (-1: the header lacks it): the index
 * of the column named name; its text, a heap copy (NULL absent or empty);
 * its number ("" -> NAN; tbl_opt_col: also NAN when k is -1). */
int tbl_optional_col(const struct cat_table *t, const char *name);
char *tbl_opt_text(const struct csv_row *r, int k);
int tbl_opt_num(double *out, const struct cat_table *t, const struct csv_row *r, int k,
                struct dt_err *e);
int tbl_opt_col(double *out, const struct cat_table *t, const struct csv_row *r, int k,
                struct dt_err *e);

#endif
