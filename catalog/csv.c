/*
 * csv.c - the RFC 4180 reader behind catalog.c (see csv.h).
 *
 * One pass over the bytes.  Field text is copied, unquoted, into one arena of
 * len + 1 bytes: a field never grows when it is unquoted, and the byte that
 * ends it (comma, line break or closing quote) pays for its NUL; the final +1
 * pays for the NUL of a last field that ends at end of file.
 */
#include "csv.h"

#include <assert.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../base/files.h"
#include "../base/text.h"

/* Position of byte i for messages: 1-based column within the current line. */
static int col_of(size_t i, size_t line_start)
{
    return (int)(i - line_start) + 1;
}

static int is_eol(const char *t, size_t i, size_t len)
{
    return t[i] == '\n' || (t[i] == '\r' && i + 1 < len && t[i + 1] == '\n');
}

static void push_field(struct csv_row *row, int *cap, struct csv_field fld)
{
    if (row->nfields == *cap) {
        *cap = *cap ? 2 * *cap : 16;
        row->fields = x_realloc(row->fields, (size_t)*cap * sizeof *row->fields);
    }
    row->fields[row->nfields++] = fld;
}

static void push_row(struct csv_file *f, int *cap, struct csv_row row)
{
    if (f->nrows == *cap) {
        *cap = *cap ? 2 * *cap : 32;
        f->rows = x_realloc(f->rows, (size_t)*cap * sizeof *f->rows);
    }
    f->rows[f->nrows++] = row;
}

int csv_check_text(const struct csv_file *f, struct dt_err *e)
{
    for (int r = 0; r < f->nrows; r++) {
        const struct csv_row *row = &f->rows[r];
        for (int i = 0; i < row->nfields; i++) {
            const struct csv_field *fl = &row->fields[i];
            size_t n = strlen(fl->text), at = text_bad_at(fl->text, n);
            char col[64];
            if (at == n)
                continue;
            if (r > 0 && i < f->rows[0].nfields && text_ok(f->rows[0].fields[i].text))
                snprintf(col, sizeof col, "%s: ", f->rows[0].fields[i].text);
            else
                snprintf(col, sizeof col, "column %d: ", i + 1);
            return dt_errf(e, "%s:%d:%d: %sexpected printable UTF-8 text on one line, found "
                           "\"%.60s\" (byte 0x%02x at offset %zu is a control character or "
                           "not UTF-8)", f->path, fl->line, fl->col, col, fl->text,
                           (unsigned char)fl->text[at], at);
        }
    }
    return 0;
}

int csv_parse(struct csv_file *f, const char *path, const char *text, size_t len,
              struct dt_err *e)
{
    size_t i = 0, o = 0, line_start = 0;
    int line = 1, rows_cap = 0;
    struct csv_row row = {0, 0, NULL};
    char found[96];

    memset(f, 0, sizeof *f);
    f->path = x_strdup(path);
    f->text = x_malloc(len + 1);

    if (len >= 3 && memcmp(text, "\xEF\xBB\xBF", 3) == 0)
        i = line_start = 3;

    while (i < len) {
        int fields_cap = 0;

        /* A blank line between rows is skipped. */
        if (is_eol(text, i, len)) {
            i += text[i] == '\r' ? 2 : 1;
            line++;
            line_start = i;
            continue;
        }

        if (f->nrows > CSV_MAX_ROWS) {  /* the header and CSV_MAX_ROWS rows read */
            dt_errf(e, "%s:%d: more than %d rows", path, line, CSV_MAX_ROWS);
            goto fail;
        }
        row.line = line;
        row.nfields = 0;
        row.fields = NULL;
        for (;;) {
            struct csv_field fld;

            fld.line = line;
            fld.col = col_of(i, line_start);
            fld.text = f->text + o;
            fld.quoted = 0;
            if (i < len && text[i] == '"') {
                int qline = line, qcol = fld.col;

                fld.quoted = 1;
                i++;
                for (;;) {
                    if (i >= len) {
                        dt_errf(e, "%s:%d:%d: expected a closing '\"' for the quoted field "
                                "opened here, found end of file", path, qline, qcol);
                        goto fail;
                    }
                    if (text[i] == '"') {
                        if (i + 1 < len && text[i + 1] == '"') {
                            f->text[o++] = '"';
                            i += 2;
                            continue;
                        }
                        i++;
                        break;
                    }
                    if (text[i] == '\0') {
                        dt_errf(e, "%s:%d:%d: expected text, found a NUL byte", path, line,
                                col_of(i, line_start));
                        goto fail;
                    }
                    if (text[i] == '\n') {
                        line++;
                        line_start = i + 1;
                    }
                    f->text[o++] = text[i++];
                }
                if (i < len && text[i] != ',' && !is_eol(text, i, len)) {
                    char c[2] = {text[i], '\0'};
                    dt_errf(e, "%s:%d:%d: expected ',' or end of line after a closing '\"', "
                            "found \"%s\"", path, line, col_of(i, line_start),
                            csv_quote_for_msg(found, sizeof found, c));
                    goto fail;
                }
            } else {
                while (i < len && text[i] != ',' && !is_eol(text, i, len)) {
                    if (text[i] == '"') {
                        dt_errf(e, "%s:%d:%d: expected no '\"' inside an unquoted field "
                                "(quote the whole field and double the '\"'), found '\"'",
                                path, line, col_of(i, line_start));
                        goto fail;
                    }
                    if (text[i] == '\0') {
                        dt_errf(e, "%s:%d:%d: expected text, found a NUL byte", path, line,
                                col_of(i, line_start));
                        goto fail;
                    }
                    f->text[o++] = text[i++];
                }
            }
            f->text[o++] = '\0';
            if (row.nfields == CSV_MAX_FIELDS) {
                dt_errf(e, "%s:%d:%d: more than %d fields in a row", path, fld.line, fld.col,
                        CSV_MAX_FIELDS);
                goto fail;
            }
            push_field(&row, &fields_cap, fld);

            if (i < len && text[i] == ',') {
                i++;
                continue;               /* another field, possibly empty */
            }
            if (i < len) {              /* end of line: LF or CRLF */
                i += text[i] == '\r' ? 2 : 1;
                line++;
                line_start = i;
            }
            break;
        }
        push_row(f, &rows_cap, row);
        row.fields = NULL;
    }
    assert(o <= len + 1);
    return 0;

fail:
    x_free(row.fields);
    csv_free(f);
    return -1;
}

int csv_read(struct csv_file *f, const char *path, struct dt_err *e)
{
    FILE *fp;
    char *buf;
    size_t len;
    int rc = -1;

    memset(f, 0, sizeof *f);
    fp = file_open_read(path, e);
    if (!fp)
        return -1;
    if (file_read_all(fp, path, FILE_MAX_BYTES, &buf, &len, e) == 0) {
        rc = csv_parse(f, path, buf, len, e);
        x_free(buf);
    }
    fclose(fp);
    return rc;
}

void csv_free(struct csv_file *f)
{
    int r;

    if (!f)
        return;
    for (r = 0; r < f->nrows; r++)
        x_free(f->rows[r].fields);
    x_free(f->rows);
    x_free(f->text);
    x_free(f->path);
    memset(f, 0, sizeof *f);
}

int csv_column(const struct csv_row *row, const char *name)
{
    int c;

    for (c = 0; c < row->nfields; c++)
        if (strcmp(row->fields[c].text, name) == 0)
            return c;
    return -1;
}

char *csv_quote_for_msg(char *out, size_t n, const char *s)
{
    size_t o = 0, shown = 0;
    const size_t max_shown = 60;

    if (n == 0)
        return out;
    for (; *s && o + 8 < n; s++) {
        unsigned char c = (unsigned char)*s;
        if (shown == max_shown)
            break;
        if (c == '"' || c == '\\') {
            out[o++] = '\\';
            out[o++] = (char)c;
        } else if (c == '\n') {
            out[o++] = '\\';
            out[o++] = 'n';
        } else if (c == '\r') {
            out[o++] = '\\';
            out[o++] = 'r';
        } else if (c == '\t') {
            out[o++] = '\\';
            out[o++] = 't';
        } else if (c < 0x20 || c == 0x7f) {
            o += (size_t)snprintf(out + o, n - o, "\\x%02x", c);
        } else {
            out[o++] = (char)c;
        }
        shown++;
    }
    if (*s && o + 4 <= n) {
        memcpy(out + o, "...", 3);
        o += 3;
    }
    out[o < n ? o : n - 1] = '\0';
    return out;
}

void csv_write_field(FILE *f, const char *s, int last)
{
    if (strpbrk(s, ",\"\r\n")) {
        fputc('"', f);
        for (; *s; s++) {
            if (*s == '"')
                fputc('"', f);
            fputc(*s, f);
        }
        fputc('"', f);
    } else {
        fputs(s, f);
    }
    fputc(last ? '\n' : ',', f);
}
