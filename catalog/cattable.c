/*
 * cattable.c - a catalog CSV file read as a table (cattable.h).
 */
#include "cattable.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../base/xmem.h"

char *tbl_join_path(const char *dir, const char *file)
{
    size_t nd = strlen(dir), nf = strlen(file);
    int slash = nd > 0 && dir[nd - 1] != '/';
    char *p = x_malloc(nd + (size_t)slash + nf + 1);

    memcpy(p, dir, nd);
    if (slash)
        p[nd] = '/';
    memcpy(p + nd + (size_t)slash, file, nf + 1);
    return p;
}

const struct csv_field *tbl_cell(const struct cat_table *t, const struct csv_row *r, int c)
{
    return &r->fields[t->idx[c]];
}

int tbl_err(struct dt_err *e, const struct cat_table *t, const struct csv_field *fld,
            const char *colname, const char *expected)
{
    char found[96];

    return dt_errf(e, "%s:%d:%d: %s: expected %s, found \"%s\"", t->csv.path, fld->line,
                   fld->col, colname, expected,
                   csv_quote_for_msg(found, sizeof found, fld->text));
}

/* A parsed value against f, the range of its column (fields.h), if any. */
int tbl_check_range(struct dt_err *e, const struct cat_table *t, const struct csv_field *fld,
                    const char *colname, const struct cat_field *f, double v)
{
    return f && !fields_ok(f, v) ? tbl_err(e, t, fld, colname, f->desc) : 0;
}

/* Read dir/file and map its header.  On error the table is empty. */
int tbl_open(struct cat_table *t, const char *dir, const char *file,
             const char *const *cols, int ncols, struct dt_err *e)
{
    char *path = tbl_join_path(dir, file);
    const struct csv_row *hdr;
    int c, r, rc = -1;

    memset(t, 0, sizeof *t);
    t->cols = cols;
    t->ncols = ncols;
    for (c = 0; c < ncols; c++)
        t->range[c] = fields_csv(cols[c]);
    if (csv_read(&t->csv, path, e) != 0)
        goto free_path;
    if (t->csv.nrows == 0) {
        dt_errf(e, "%s:1:1: expected a header row naming the columns, found an empty file",
                path);
        goto free_csv;
    }
    if (csv_check_text(&t->csv, e))
        goto free_csv;
    hdr = &t->csv.rows[0];
    for (c = 0; c < ncols; c++) {
        int k, seen = -1;
        for (k = 0; k < hdr->nfields; k++) {
            if (strcmp(hdr->fields[k].text, cols[c]) != 0)
                continue;
            if (seen >= 0) {
                dt_errf(e, "%s:%d:%d: header: expected each column once, found \"%s\" again "
                        "(first at column %d)", path, hdr->fields[k].line,
                        hdr->fields[k].col, cols[c], hdr->fields[seen].col);
                goto free_csv;
            }
            seen = k;
        }
        if (seen < 0) {
            dt_errf(e, "%s:%d:1: header: expected a column named \"%s\", found none", path,
                    hdr->line, cols[c]);
            goto free_csv;
        }
        t->idx[c] = seen;
    }
    for (r = 1; r < t->csv.nrows; r++) {
        const struct csv_row *row = &t->csv.rows[r];
        const struct csv_field *at;
        if (row->nfields == hdr->nfields)
            continue;
        at = row->nfields > hdr->nfields ? &row->fields[hdr->nfields]
                                         : &row->fields[row->nfields - 1];
        dt_errf(e, "%s:%d:%d: expected %d fields as in the header, found %d", path, at->line,
                at->col, hdr->nfields, row->nfields);
        goto free_csv;
    }
    rc = 0;
    goto free_path;

free_csv:
    csv_free(&t->csv);
free_path:
    x_free(path);
    return rc;
}

void tbl_close(struct cat_table *t)
{
    csv_free(&t->csv);
}

/* Text column into a fixed buffer; required: must not be empty. */
int tbl_text(char *dst, size_t cap, int required, const struct cat_table *t,
             const struct csv_row *r, int c, struct dt_err *e)
{
    const struct csv_field *fld = tbl_cell(t, r, c);
    size_t n = strlen(fld->text);
    char what[64];

    if (required && n == 0)
        return tbl_err(e, t, fld, t->cols[c], "a non-empty value");
    if (n >= cap) {
        snprintf(what, sizeof what, "at most %zu characters", cap - 1);
        return tbl_err(e, t, fld, t->cols[c], what);
    }
    memcpy(dst, fld->text, n + 1);
    return 0;
}

/* A non-empty s as a non-negative finite decimal number into *v: 0, or -1
 * for signs, spaces, "nan", "inf", hex floats and trailing junk. */
static int nonneg(const char *s, double *v)
{
    char *end;

    if (strspn(s, "0123456789.eE+-") != strlen(s) || !(s[0] == '.' || (s[0] >= '0' && s[0] <= '9')))
        return -1;
    errno = 0;
    *v = strtod(s, &end);
    return end == s || *end != '\0' || errno == ERANGE || !isfinite(*v) || *v < 0 ? -1 : 0;
}

/* Non-negative finite decimal number; "" -> NAN. */
int tbl_num(double *out, const struct cat_table *t, const struct csv_row *r, int c,
            struct dt_err *e)
{
    const struct csv_field *fld = tbl_cell(t, r, c);
    double v;

    *out = NAN;
    if (fld->text[0] == '\0')
        return 0;
    if (nonneg(fld->text, &v))
        return tbl_err(e, t, fld, t->cols[c], "a non-negative number");
    *out = v;
    return tbl_check_range(e, t, fld, t->cols[c], t->range[c], v);
}

/* Non-negative decimal integer that fits an int; "" -> -1. */
int tbl_int(int *out, const struct cat_table *t, const struct csv_row *r, int c,
            struct dt_err *e)
{
    const struct csv_field *fld = tbl_cell(t, r, c);
    const char *s = fld->text;
    char *end;
    long v;

    if (*s == '\0') {
        *out = -1;
        return 0;
    }
    if (strspn(s, "0123456789") != strlen(s))
        goto bad;
    errno = 0;
    v = strtol(s, &end, 10);
    if (*end != '\0' || errno == ERANGE || v > INT_MAX)
        goto bad;
    *out = (int)v;
    return tbl_check_range(e, t, fld, t->cols[c], t->range[c], (double)v);

bad:
    return tbl_err(e, t, fld, t->cols[c], "a non-negative integer");
}

/* The source column: required, heap copy. */
int tbl_source(char **out, const struct cat_table *t, const struct csv_row *r, int c,
               struct dt_err *e)
{
    const struct csv_field *fld = tbl_cell(t, r, c);

    if (fld->text[0] == '\0')
        return tbl_err(e, t, fld, t->cols[c], "where the numbers come from");
    *out = x_strdup(fld->text);
    return 0;
}

/* Error unless name is new among the first n names (stride bytes apart). */
int tbl_unique(const void *base, int n, size_t stride, const int *lines,
               const struct cat_table *t, const struct csv_row *r, int c,
               struct dt_err *e)
{
    const struct csv_field *fld = tbl_cell(t, r, c);
    int k;

    for (k = 0; k < n; k++) {
        const char *name = (const char *)base + (size_t)k * stride;
        if (strcmp(name, fld->text) == 0) {
            char what[64];
            snprintf(what, sizeof what, "a unique name (this one is already on line %d)",
                     lines[k]);
            return tbl_err(e, t, fld, t->cols[c], what);
        }
    }
    return 0;
}

/* An optional text column's cell, a heap copy; NULL when absent or empty. */
char *tbl_opt_text(const struct csv_row *r, int k)
{
    return k >= 0 && k < r->nfields && r->fields[k].text[0] ? x_strdup(r->fields[k].text) : NULL;
}

/* An optional numeric column (field k, -1 when the header lacks it):
 * cpu_ghz, nics (their ranges: fields.c), or empty for unknown (NAN). */
int tbl_opt_col(double *out, const struct cat_table *t, const struct csv_row *r, int k,
                struct dt_err *e)
{
    *out = NAN;
    if (k < 0 || k >= r->nfields)
        return 0;
    return tbl_opt_num(out, t, r, k, e);
}

/* Field index of an optional column, -1 when the header lacks it. */
int tbl_optional_col(const struct cat_table *t, const char *name)
{
    const struct csv_row *hdr = &t->csv.rows[0];
    for (int k = 0; k < hdr->nfields; k++)
        if (strcmp(hdr->fields[k].text, name) == 0)
            return k;
    return -1;
}

/* An optional column's number (field index k, not a table column): "" -> NAN. */
int tbl_opt_num(double *out, const struct cat_table *t, const struct csv_row *r, int k,
                struct dt_err *e)
{
    const struct csv_field *fld = &r->fields[k];
    const char *name = t->csv.rows[0].fields[k].text;
    double v;

    *out = NAN;
    if (fld->text[0] == '\0')
        return 0;
    if (nonneg(fld->text, &v))
        return tbl_err(e, t, fld, name, "a non-negative number");
    *out = v;
    return tbl_check_range(e, t, fld, name, fields_csv(name), v);
}
