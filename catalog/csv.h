/*
 * csv.h - a small RFC 4180 CSV reader that remembers where each field starts.
 *
 * The catalog loader (catalog.c) reads its tables through this file.  A whole
 * file is read into memory and split into rows of fields; quoted fields may
 * hold commas, line breaks and doubled quotes ("" stands for one ").  Lines may
 * end in LF or CRLF; a UTF-8 byte-order mark at the start is skipped; blank
 * lines between rows are skipped.  Every field keeps the 1-based line and
 * byte column where it starts (the opening quote for a quoted field), so the
 * caller can report FILE:LINE:COL for a bad value.
 *
 * Errors in the CSV syntax itself (an unterminated quote, a stray quote, text
 * after a closing quote) fill e->msg as "FILE:LINE:COL: expected ..., found ..."
 * and return -1.  Nothing here prints or exits.
 *
 * Ownership: struct csv_file owns its rows, fields and text; csv_free()
 * releases them.  Field text stays valid until csv_free().
 *
 * Bounds: a file read by csv_read holds at most FILE_MAX_BYTES (16 MiB,
 * base/files.h), "FILE: N bytes, expected at most 16777216"; a file at
 * most CSV_MAX_ROWS rows after its header, "FILE:LINE: more than 200000
 * rows", and a row at most CSV_MAX_FIELDS fields, "FILE:LINE:COL: more
 * than 1000 fields in a row".  SkyPilot's largest vms.csv has tens of
 * thousands of rows and a dozen columns; the row bound keeps a file of
 * many short rows (each row costs a few hundred bytes of bookkeeping) to
 * about 100 MB.
 *
 * Cost: O(bytes) time; memory about twice the file size plus about 400
 * bytes a row.
 */
#ifndef DT_CSV_H
#define DT_CSV_H

#include <stddef.h>
#include <stdio.h>

#include "../base/xmem.h"

#define CSV_MAX_ROWS 200000     /* rows after the header */
#define CSV_MAX_FIELDS 1000     /* fields in a row */

struct csv_field {
    const char *text;   /* unquoted value, NUL-terminated; "" for an empty field */
    int line;           /* 1-based line where the field starts */
    int col;            /* 1-based byte column where the field starts */
    int quoted;         /* 1 if the field was written in quotes */
};

struct csv_row {
    int line;                   /* line of the row's first field */
    int nfields;                /* >= 1 */
    struct csv_field *fields;   /* nfields entries */
};

struct csv_file {
    char *path;                 /* the path as given, for messages */
    char *text;                 /* arena holding every field's text */
    struct csv_row *rows;       /* rows[0] is the header when there is one */
    int nrows;
};

/* Parse len bytes of text; path is only used in messages.  On success fills
 * *f (which need not be initialised) and returns 0.  On error returns -1
 * with e->msg set and *f empty. */
int csv_parse(struct csv_file *f, const char *path, const char *text, size_t len,
              struct dt_err *e);

/* Read and parse the file at path.  "FILE: cannot open: REASON" when it
 * cannot be read. */
int csv_read(struct csv_file *f, const char *path, struct dt_err *e);

void csv_free(struct csv_file *f);

/* 0 when every field of f is printable UTF-8 on one line (base/text.h), as
 * the catalog's names and sources must be: they reach error lines, tables
 * and JSON.  Else -1 with "FILE:LINE:COL: COLUMN: expected printable UTF-8
 * text on one line, found ...", the column named from the header row. */
int csv_check_text(const struct csv_file *f, struct dt_err *e);

/* Index of the field of row whose text equals name exactly, or -1. */
int csv_column(const struct csv_row *row, const char *name);

/* Write s as one CSV field on f, quoted when it holds a comma, a quote or
 * a line break (a quote doubled), then a comma, or a newline when last. */
void csv_write_field(FILE *f, const char *s, int last);

/* Write s into out (size n) for an error message: at most about 60
 * characters, with ", \ and control characters escaped.  Returns out. */
char *csv_quote_for_msg(char *out, size_t n, const char *s);

#endif
