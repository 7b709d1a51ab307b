/*
 * t_mutate.h - the damage test_fuzz.c does to a file: a growable buffer
 * and the seeded mutations (lines deleted, duplicated, swapped or
 * re-indented, the file cut short, a stray byte, a key misspelt, a value
 * replaced by a hostile one).  Static functions, for test_fuzz.c alone.
 */
#ifndef DT_T_MUTATE_H
#define DT_T_MUTATE_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_rng.h>

struct buf {
    char *p;
    size_t n, cap;
};

static void buf_reserve(struct buf *b, size_t n)
{
    if (n + 1 <= b->cap)
        return;
    while (b->cap < n + 1)
        b->cap = b->cap ? 2 * b->cap : 4096;
    b->p = realloc(b->p, b->cap);
    if (!b->p) {
        perror("test_fuzz");
        exit(2);
    }
}

static void buf_set(struct buf *b, const char *s, size_t n)
{
    buf_reserve(b, n);
    memcpy(b->p, s, n);
    b->n = n;
    b->p[n] = '\0';
}

/* Replace [at, at + len) of b by s (n bytes). */
static void buf_splice(struct buf *b, size_t at, size_t len, const char *s, size_t n)
{
    buf_reserve(b, b->n - len + n);
    memmove(b->p + at + n, b->p + at + len, b->n - at - len + 1);
    memcpy(b->p + at, s, n);
    b->n = b->n - len + n;
}

static int read_file(const char *path, struct buf *b)
{
    FILE *f = fopen(path, "rb");
    char tmp[4096];
    size_t k;

    if (!f)
        return -1;
    b->n = 0;
    buf_reserve(b, 0);
    while ((k = fread(tmp, 1, sizeof tmp, f)) > 0) {
        buf_reserve(b, b->n + k);
        memcpy(b->p + b->n, tmp, k);
        b->n += k;
    }
    b->p[b->n] = '\0';
    fclose(f);
    return 0;
}

static int write_file(const char *path, const struct buf *b)
{
    FILE *f = fopen(path, "wb");
    if (!f)
        return -1;
    if (fwrite(b->p, 1, b->n, f) != b->n) {
        fclose(f);
        return -1;
    }
    return fclose(f);
}

/* ---------------------------------------------------------- mutations */

/* Start and end (past the newline) of line `i` of b; the count of lines. */
static size_t line_count(const struct buf *b)
{
    size_t k = 0;
    for (size_t i = 0; i < b->n; i++)
        k += b->p[i] == '\n';
    return k + (b->n > 0 && b->p[b->n - 1] != '\n');
}

static void line_span(const struct buf *b, size_t line, size_t *s, size_t *e)
{
    size_t i = 0, k = 0;
    while (k < line && i < b->n)
        k += b->p[i++] == '\n';
    *s = i;
    while (i < b->n && b->p[i] != '\n')
        i++;
    *e = i < b->n ? i + 1 : i;
}

static const char *const hostile[] = {
    "nan", ".nan", "NaN", ".inf", "-.inf", "inf", "1e309", "-1e309", "1e-400", "0", "-0",
    "-1", "-0.5", "4294967296", "9223372036854775808", "-2147483649", "0x7fffffff", "1_000",
    "", "~", "null", "[]", "{}", "[1, 2]", "{a: 1}", "\"\"", "''", "true", "yes", "&a x",
    "*a", "*nosuch", "!!binary aGVsbG8=", "!!float x", "|\n  block", ">-", "- item",
    "\"unterminated", "'unterminated", "{unterminated", "[unterminated", "a: b: c",
    "p3.2xlarg", "ml.p4d.24xlarge", "c5.18xlarge", "resnet50", "bert-large", "none",
    "1e6", "100000000", "0.000000001", "3.5e38", "12345678901234567890123",
};

static const char stray[] = {'\0', '\t', '\r', '\xff', '\xc3', ':', '{', '}', '[', ']', '"',
                             '\'', '&', '*', '!', '%', '|', '>', '-', '#', '\n', ' ', ',', '@'};

/* A long string value, to look for fixed-size buffers. */
static void long_value(char *out, size_t cap, gsl_rng *r)
{
    size_t n = 200 + gsl_rng_uniform_int(r, cap - 201);
    for (size_t i = 0; i < n; i++)
        out[i] = (char)('a' + gsl_rng_uniform_int(r, 26));
    out[n] = '\0';
}

enum kind { K_YAML, K_CSV, K_JSON };

/* The span of a value on line [s, e) of a file of kind k: after the first
 * ':' in YAML and JSON, up to a separator; a comma-separated field in CSV. */
static int value_span(const struct buf *b, enum kind k, size_t s, size_t e, gsl_rng *r,
                      size_t *vs, size_t *ve)
{
    if (k == K_CSV) {
        size_t nf = 1, f, i = s;
        for (size_t j = s; j < e; j++)
            nf += b->p[j] == ',';
        f = gsl_rng_uniform_int(r, nf);
        for (size_t seen = 0; seen < f; i++)
            seen += b->p[i] == ',';
        *vs = i;
        while (i < e && b->p[i] != ',' && b->p[i] != '\n')
            i++;
        *ve = i;
        return 0;
    } else {
        char *colon = memchr(b->p + s, ':', e - s);
        size_t i;
        if (!colon)
            return -1;
        i = (size_t)(colon - b->p) + 1;
        while (i < e && b->p[i] == ' ')
            i++;
        *vs = i;
        /* the scalar ends at a flow separator, a comment or the line's end */
        while (i < e && b->p[i] != ',' && b->p[i] != '}' && b->p[i] != '\n' &&
               (k == K_JSON || b->p[i] != '#'))
            i++;
        while (i > *vs && b->p[i - 1] == ' ')
            i--;
        *ve = i;
        return 0;
    }
}

static void mutate_once(struct buf *b, enum kind kd, gsl_rng *r, char *what, size_t wcap)
{
    size_t nl = line_count(b), s, e, s2, e2;
    unsigned long op = gsl_rng_uniform_int(r, 9);
    char tmp[8192];

    if (nl == 0 || b->n == 0) {
        buf_set(b, "x", 1);
        snprintf(what, wcap, "replaced the empty file");
        return;
    }
    line_span(b, gsl_rng_uniform_int(r, nl), &s, &e);
    switch (op) {
    case 0: /* delete a line */
        buf_splice(b, s, e - s, "", 0);
        snprintf(what, wcap, "deleted a line");
        break;
    case 1: { /* duplicate a line */
        size_t n = e - s < sizeof tmp ? e - s : sizeof tmp - 1;
        memcpy(tmp, b->p + s, n);
        buf_splice(b, e, 0, tmp, n);
        snprintf(what, wcap, "duplicated a line");
        break;
    }
    case 2: { /* swap a line with the next */
        size_t n;
        if (e >= b->n)
            break;
        s2 = e;
        e2 = e;
        while (e2 < b->n && b->p[e2] != '\n')
            e2++;
        if (e2 < b->n)
            e2++;
        n = e2 - s;
        if (n >= sizeof tmp)
            break;
        memcpy(tmp, b->p + s2, e2 - s2);
        memcpy(tmp + (e2 - s2), b->p + s, e - s);
        memcpy(b->p + s, tmp, n);
        snprintf(what, wcap, "swapped two lines");
        break;
    }
    case 3: /* cut the file short */
        b->n = gsl_rng_uniform_int(r, b->n);
        b->p[b->n] = '\0';
        snprintf(what, wcap, "cut at byte %zu", b->n);
        break;
    case 4: { /* a stray byte */
        char c = stray[gsl_rng_uniform_int(r, sizeof stray)];
        size_t at = gsl_rng_uniform_int(r, b->n + 1);
        buf_splice(b, at, 0, &c, 1);
        snprintf(what, wcap, "inserted byte 0x%02x at %zu", (unsigned char)c, at);
        break;
    }
    case 5: /* re-indent a line */
        if (gsl_rng_uniform_int(r, 2) && s < b->n && b->p[s] == ' ') {
            buf_splice(b, s, 1, "", 0);
            snprintf(what, wcap, "dedented a line");
        } else {
            buf_splice(b, s, 0, "  ", gsl_rng_uniform_int(r, 2) + 1);
            snprintf(what, wcap, "indented a line");
        }
        break;
    case 6: { /* misspell a key (a header name in CSV) */
        char *colon;
        size_t k0;
        if (kd == K_CSV)
            line_span(b, 0, &s, &e);
        k0 = s;
        colon = kd == K_CSV ? memchr(b->p + s, ',', e - s) : memchr(b->p + s, ':', e - s);
        while (k0 < e && strchr(" -{\"", b->p[k0]))
            k0++;
        if (!colon || (size_t)(colon - b->p) <= k0)
            break;
        b->p[k0 + gsl_rng_uniform_int(r, (size_t)(colon - b->p) - k0)] = (char)('a' + gsl_rng_uniform_int(r, 26));
        snprintf(what, wcap, "misspelt a key");
        break;
    }
    default: { /* replace a value */
        size_t vs, ve;
        const char *v;
        if (value_span(b, kd, s, e, r, &vs, &ve))
            break;
        if (op == 7 || gsl_rng_uniform_int(r, 8) != 0) {
            v = hostile[gsl_rng_uniform_int(r, sizeof hostile / sizeof hostile[0])];
        } else {
            long_value(tmp, 5000, r);
            v = tmp;
        }
        buf_splice(b, vs, ve - vs, v, strlen(v));
        snprintf(what, wcap, "value -> \"%.40s\"", v);
        break;
    }
    }
}

#endif
