/*
 * fields.h - the numeric fields of catalog entries, each with its range and
 * the words that describe it, defined once for both ways an entry arrives:
 * a row of the CSV files (catalog.c) and an inline entry of a scenario
 * (cli/ld_catalog.c).  Redis's config.c table is the model: a new field is
 * one line here, and both loaders check it the same way with the same
 * message ("expected a rate in Gbit/s in (0, 1e5]").
 *
 * A CSV cell that is empty means unknown and is not checked; a malformed
 * number is the CSV parser's error ("a non-negative number").
 */
#ifndef DT_FIELDS_H
#define DT_FIELDS_H

struct cat_field {
    const char *csv;        /* column of the CSV file, NULL when the CSV has none */
    const char *yaml;       /* key of an inline scenario entry, NULL when it has none */
    int integer;            /* 1: a whole number */
    double lo, hi;          /* the range [lo, hi], or (lo, hi] when lo_open */
    int lo_open;
    const char *desc;       /* what is expected, range included */
};

/* The field of a CSV column or of an inline key; NULL when it has no range. */
const struct cat_field *fields_csv(const char *column);
const struct cat_field *fields_yaml(const char *key);

/* 1 when v lies in f's range (and is whole for an integer field). */
int fields_ok(const struct cat_field *f, double v);

#endif
