/*
 * ld.c - the scenario loader's walk of a libyaml document (ld.h): messages
 * with the offending node's mark, checked mappings and lists, and scalars
 * of each type, range and closed set.
 *
 * Cost: O(k^2) per mapping of k keys for the duplicate check (k is at most a
 * dozen or so for every known mapping, and an unknown key stops the walk at
 * once).
 */
#include "ld.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "../base/names.h"
#include "../base/units.h"

/* ---------------------------------------------------------------- messages */


/* Fill the error record: FILE:LINE:COL: FIELD: WHAT (marks are 0-based). */
int ld_fail(struct ld *ld, yaml_mark_t m, const char *field, const char *fmt, ...)
{
    char what[800];
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    return dt_errf(ld->e, "%s:%lu:%lu: %s: %s", ld->file, (unsigned long)m.line + 1,
                   (unsigned long)m.column + 1, field, what);
}

/*
 * How a node reads in a message: a scalar in double quotes with control bytes,
 * quotes and backslashes escaped and at most FOUND_SHOW bytes shown; a mapping
 * or a list by its kind.  Returns buf.
 */
const char *ld_found(const yaml_node_t *n, char *buf, size_t cap)
{
    const unsigned char *s;
    size_t len, i, o = 0;

    if (!n)
        snprintf(buf, cap, "nothing");
    else if (n->type == YAML_MAPPING_NODE)
        snprintf(buf, cap, "a mapping");
    else if (n->type == YAML_SEQUENCE_NODE)
        snprintf(buf, cap, "a list");
    else {
        s = n->data.scalar.value;
        len = n->data.scalar.length;
        buf[o++] = '"';
        for (i = 0; i < len; i++) {
            unsigned char c = s[i];
            /* cut at a UTF-8 boundary, leaving room for an escape, "...", '"' and NUL */
            if ((i >= FOUND_SHOW || o + 16 >= cap) && (c & 0xc0) != 0x80) {
                memcpy(buf + o, "...", 3);
                o += 3;
                break;
            }
            if (c == '"' || c == '\\') {
                buf[o++] = '\\';
                buf[o++] = (char)c;
            } else if (c == '\n') {
                buf[o++] = '\\';
                buf[o++] = 'n';
            } else if (c == '\t') {
                buf[o++] = '\\';
                buf[o++] = 't';
            } else if (c < 0x20 || c == 0x7f) {
                o += (size_t)snprintf(buf + o, cap - o, "\\x%02x", c);
            } else
                buf[o++] = (char)c;
        }
        buf[o++] = '"';
        buf[o] = '\0';
    }
    return buf;
}

/* "a, b, c" from a NULL-terminated list. */
static void ld_join(char *buf, size_t cap, const char *const *names)
{
    size_t o = 0;
    int i;

    buf[0] = '\0';
    for (i = 0; names[i] && o + 1 < cap; i++)
        o += (size_t)snprintf(buf + o, cap - o, "%s%s", i ? ", " : "", names[i]);
}

/* Append one name to a "a, b, c" list, ending it with "..." when full. */
void ld_list_add(char *buf, size_t cap, const char *name)
{
    size_t o = strlen(buf), n = strlen(name);

    if (o >= 3 && strcmp(buf + o - 3, "...") == 0)
        return;
    if (o + n + 8 >= cap) {
        snprintf(buf + o, cap - o, "%s...", o ? ", " : "");
        return;
    }
    snprintf(buf + o, cap - o, "%s%s", o ? ", " : "", name);
}

/* "path.key", or "key" at the top level; control bytes of a key print as '?'. */
void ld_path_key(char *out, size_t cap, const char *path, const char *key)
{
    size_t n, i;

    snprintf(out, cap, "%s%s", path, *path ? "." : "");
    n = strlen(out);
    for (i = 0; key[i] && i < 64 && n + 1 < cap; i++) {
        unsigned char c = (unsigned char)key[i];
        out[n++] = (c < 0x20 || c == 0x7f) ? '?' : (char)c;
    }
    out[n] = '\0';
}

/* "path[i]"; cap is at least 32 (a long path is cut to leave room for the index). */
void ld_path_idx(char *out, size_t cap, const char *path, int i)
{
    char idx[16];
    size_t n = strlen(path), k;

    snprintf(idx, sizeof idx, "[%d]", i);
    k = strlen(idx);
    if (n + k >= cap)
        n = cap - k - 1;
    memmove(out, path, n);
    memcpy(out + n, idx, k + 1);
}

int ld_missing(struct ld *ld, yaml_mark_t at, const char *field)
{
    return ld_fail(ld, at, field, "missing required field");
}

/* ------------------------------------------------------------ tree access */

static yaml_node_t *ld_node(struct ld *ld, int id)
{
    return yaml_document_get_node(ld->doc, id);
}

int ld_scalar_is(const yaml_node_t *k, const char *s)
{
    return k && k->type == YAML_SCALAR_NODE && k->data.scalar.length == strlen(s) &&
           memcmp(k->data.scalar.value, s, k->data.scalar.length) == 0;
}

/*
 * Check that map is a mapping whose keys are strings, each one of keys and
 * none given twice.  path names map in messages ("" for the document).
 */
int ld_map(struct ld *ld, yaml_node_t *map, const char *path, const char *const *keys)
{
    char f[FIELD_LEN], fb[FOUND_LEN], list[LIST_LEN];
    yaml_node_pair_t *p, *q;
    int i;

    if (map->type != YAML_MAPPING_NODE)
        return ld_fail(ld, map->start_mark, *path ? path : "document",
                       "expected a mapping, found %s", ld_found(map, fb, sizeof fb));
    for (p = map->data.mapping.pairs.start; p < map->data.mapping.pairs.top; p++) {
        yaml_node_t *k = ld_node(ld, p->key);
        if (k->type != YAML_SCALAR_NODE)
            return ld_fail(ld, k->start_mark, *path ? path : "document",
                           "expected a key name, found %s", ld_found(k, fb, sizeof fb));
        ld_path_key(f, sizeof f, path, (const char *)k->data.scalar.value);
        for (i = 0; keys[i]; i++)
            if (ld_scalar_is(k, keys[i]))
                break;
        if (!keys[i]) {
            ld_join(list, sizeof list, keys);
            return ld_fail(ld, k->start_mark, f, "unknown key, expected one of %s", list);
        }
        for (q = map->data.mapping.pairs.start; q < p; q++) {
            yaml_node_t *kq = ld_node(ld, q->key);
            if (ld_scalar_is(kq, keys[i]))
                return ld_fail(ld, k->start_mark, f, "duplicate key, already given at %lu:%lu",
                               (unsigned long)kq->start_mark.line + 1,
                               (unsigned long)kq->start_mark.column + 1);
        }
    }
    return 0;
}

/* The value of key in a checked mapping, or NULL; *keyn (if given) gets the key node. */
yaml_node_t *ld_get(struct ld *ld, yaml_node_t *map, const char *key, yaml_node_t **keyn)
{
    yaml_node_pair_t *p;

    for (p = map->data.mapping.pairs.start; p < map->data.mapping.pairs.top; p++) {
        yaml_node_t *k = ld_node(ld, p->key);
        if (ld_scalar_is(k, key)) {
            if (keyn)
                *keyn = k;
            return ld_node(ld, p->value);
        }
    }
    return NULL;
}

/* Check a list node and its length: 1..max items of WHAT. */
int ld_list(struct ld *ld, yaml_node_t *n, const char *field, int min, int max,
            const char *what)
{
    char fb[FOUND_LEN];
    long len;

    if (n->type != YAML_SEQUENCE_NODE)
        return ld_fail(ld, n->start_mark, field, "expected a list of %d to %d %s, found %s", min,
                       max, what, ld_found(n, fb, sizeof fb));
    len = (long)(n->data.sequence.items.top - n->data.sequence.items.start);
    if (len < min || len > max) {
        if (len == 0)
            snprintf(fb, sizeof fb, "an empty list");
        else
            snprintf(fb, sizeof fb, "%ld %s", len, what);
        return ld_fail(ld, n->start_mark, field, "expected a list of %d to %d %s, found %s", min,
                       max, what, fb);
    }
    return 0;
}

int ld_list_len(const yaml_node_t *n)
{
    return (int)(n->data.sequence.items.top - n->data.sequence.items.start);
}

yaml_node_t *ld_list_item(struct ld *ld, const yaml_node_t *n, int i)
{
    return ld_node(ld, n->data.sequence.items.start[i]);
}

/* ----------------------------------------------------------------- scalars */

/*
 * Parse a YAML 1.2 core-schema number: [+-]digits[.digits][(e|E)[+-]digits]
 * (".5" and "5." too).  Returns 0 with *out set, 1 when the text is not a
 * number, 2 when it is a number that is not finite (.nan, .inf, 1e999).
 */
static int ld_num_parse(const yaml_node_t *n, double *out)
{
    const char *s = (const char *)n->data.scalar.value, *t;
    size_t len = n->data.scalar.length, i = 0;
    int digits = 0;
    double v;

    if (n->type != YAML_SCALAR_NODE || strlen(s) != len)
        return 1;
    t = (*s == '+' || *s == '-') ? s + 1 : s;
    if (!strcasecmp(t, ".nan") || !strcasecmp(t, ".inf") || !strcasecmp(t, "nan") ||
        !strcasecmp(t, "inf") || !strcasecmp(t, "infinity"))
        return 2;
    if (s[i] == '+' || s[i] == '-')
        i++;
    for (; isdigit((unsigned char)s[i]); i++)
        digits++;
    if (s[i] == '.')
        for (i++; isdigit((unsigned char)s[i]); i++)
            digits++;
    if (!digits)
        return 1;
    if (s[i] == 'e' || s[i] == 'E') {
        i++;
        if (s[i] == '+' || s[i] == '-')
            i++;
        if (!isdigit((unsigned char)s[i]))
            return 1;
        while (isdigit((unsigned char)s[i]))
            i++;
    }
    if (i != len)
        return 1;
    v = strtod(s, NULL);
    if (!isfinite(v))
        return 2;
    *out = v;
    return 0;
}

/*
 * A number in [lo, hi] (lo excluded when lo_open).  desc says what is
 * expected, range included ("a fraction in (0, 1]").
 */
/* n as a number into *v: 0; 1 when it is not a number (the caller says
 * what it expected); -1 with the error set when it is not finite. */
static int ld_num_node(struct ld *ld, yaml_node_t *n, const char *field, double *v)
{
    char fb[FOUND_LEN];
    int r = ld_num_parse(n, v);

    if (r == 2)
        return ld_fail(ld, n->start_mark, field, "expected a finite number, found %s",
                       ld_found(n, fb, sizeof fb));
    return r ? 1 : 0;
}

int ld_num(struct ld *ld, yaml_node_t *n, const char *field, double lo, int lo_open,
           double hi, const char *desc, double *out)
{
    char fb[FOUND_LEN];
    double v = 0;
    int r = ld_num_node(ld, n, field, &v);

    if (r < 0)
        return -1;
    if (r || v < lo || (lo_open && v == lo) || v > hi)
        return ld_fail(ld, n->start_mark, field, "expected %s, found %s", desc,
                       ld_found(n, fb, sizeof fb));
    *out = v;
    return 0;
}

/*
 * An integer in [lo, hi] (written as an integer or as an integral number such
 * as 1e3).  desc says what is expected ("a positive integer"); a value
 * above hi adds "of at most HI" unless desc states its range already ("a
 * layer count from 1 to 1000", "a count in [0, 64]"), so the bound is said
 * once.
 */
int ld_integer(struct ld *ld, yaml_node_t *n, const char *field, double lo, double hi,
               const char *desc, double *out)
{
    char fb[FOUND_LEN];
    double v = 0;
    int r = ld_num_node(ld, n, field, &v);

    if (r < 0)
        return -1;
    if (r || v != floor(v) || v < lo)
        return ld_fail(ld, n->start_mark, field, "expected %s, found %s", desc,
                       ld_found(n, fb, sizeof fb));
    if (v > hi && (strstr(desc, " to ") || strchr(desc, ']')))
        return ld_fail(ld, n->start_mark, field, "expected %s, found %s", desc,
                       ld_found(n, fb, sizeof fb));
    if (v > hi)
        return ld_fail(ld, n->start_mark, field, "expected %s of at most %.0f, found %s", desc, hi,
                       ld_found(n, fb, sizeof fb));
    *out = v;
    return 0;
}

int ld_int(struct ld *ld, yaml_node_t *n, const char *field, int lo, int hi,
           const char *desc, int *out)
{
    double v;

    if (ld_integer(ld, n, field, lo, hi, desc, &v))
        return -1;
    *out = (int)v;
    return 0;
}

int ld_bool(struct ld *ld, yaml_node_t *n, const char *field, int *out)
{
    static const char *const yes[] = { "true", "True", "TRUE", "yes", "Yes", "YES", NULL };
    static const char *const no[] = { "false", "False", "FALSE", "no", "No", "NO", NULL };
    char fb[FOUND_LEN];
    int i;

    for (i = 0; yes[i]; i++)
        if (ld_scalar_is(n, yes[i])) {
            *out = 1;
            return 0;
        }
    for (i = 0; no[i]; i++)
        if (ld_scalar_is(n, no[i])) {
            *out = 0;
            return 0;
        }
    return ld_fail(ld, n->start_mark, field, "expected true or false, found %s",
                   ld_found(n, fb, sizeof fb));
}

/* One of a closed set (base/names.h): *out gets the index of the name. */
int ld_enum(struct ld *ld, yaml_node_t *n, const char *field, const char *(*name)(int),
            int *out)
{
    char fb[FOUND_LEN], list[LIST_LEN];
    const char *nm;
    int i;

    for (i = 0; (nm = name(i)) != NULL; i++)
        if (ld_scalar_is(n, nm)) {
            *out = i;
            return 0;
        }
    names_join(name, list, sizeof list);
    return ld_fail(ld, n->start_mark, field, "expected one of %s, found %s", list,
                   ld_found(n, fb, sizeof fb));
}

/*
 * A single-line string of at most cap-1 bytes (and at least one when
 * nonempty) copied into out[cap].  what names it in messages ("a name").
 */
int ld_str(struct ld *ld, yaml_node_t *n, const char *field, char *out, size_t cap,
           int nonempty, const char *what)
{
    char fb[FOUND_LEN];
    size_t len, i;

    if (n->type != YAML_SCALAR_NODE)
        return ld_fail(ld, n->start_mark, field, "expected %s, found %s", what,
                       ld_found(n, fb, sizeof fb));
    len = n->data.scalar.length;
    for (i = 0; i < len; i++) {
        unsigned char c = n->data.scalar.value[i];
        if (c < 0x20 || c == 0x7f)
            return ld_fail(ld, n->start_mark, field, "expected %s on one line, found %s", what,
                           ld_found(n, fb, sizeof fb));
    }
    if (len >= cap || (nonempty && len == 0))
        return ld_fail(ld, n->start_mark, field, "expected %s of %d to %zu characters, found %s",
                       what, nonempty ? 1 : 0, cap - 1, ld_found(n, fb, sizeof fb));
    memcpy(out, n->data.scalar.value, len);
    out[len] = '\0';
    return 0;
}

/* As ld_str, into a new heap string the caller owns. */
int ld_strdup(struct ld *ld, yaml_node_t *n, const char *field, char **out)
{
    char *buf = x_malloc(SC_MAX_TEXT);
    int rc = ld_str(ld, n, field, buf, SC_MAX_TEXT, 0, "a string");

    if (rc == 0)
        *out = x_strdup(buf);
    x_free(buf);
    return rc;
}

/*
 * A mapping's scalar keys, read in table order so that the first bad one is
 * the one reported: a number (ld_num's range and message), an integer
 * (ld_int; KEY_INT_AUTO also takes "auto", which leaves the field alone) or a
 * boolean, each stored at its offset in the target struct.  A required key
 * that is absent is reported at mark `at`.
 */
int ld_keys(struct ld *ld, yaml_node_t *m, const char *path, yaml_mark_t at,
            const struct key_spec *t, size_t n, void *target)
{
    char f[FIELD_LEN];

    for (size_t i = 0; i < n; i++) {
        const struct key_spec *k = &t[i];
        void *out = (char *)target + k->off;
        yaml_node_t *v = ld_get(ld, m, k->key, NULL);
        int rc = 0;

        ld_path_key(f, sizeof f, path, k->key);
        if (!v) {
            if (k->required)
                return ld_missing(ld, at, f);
            continue;
        }
        switch (k->kind) {
        case KEY_NUM:
            rc = ld_num(ld, v, f, k->lo, k->lo_open, k->hi, k->desc, out);
            break;
        case KEY_INT_AUTO:
            if (ld_scalar_is(v, "auto"))
                break;
            /* fall through */
        case KEY_INT:
            rc = ld_int(ld, v, f, (int)k->lo, (int)k->hi, k->desc, out);
            break;
        case KEY_BOOL:
            rc = ld_bool(ld, v, f, out);
            break;
        }
        if (rc)
            return -1;
    }
    return 0;
}

/*
 * The required "name" of catalog entry idx into out (cap bytes), unique
 * among the entries before it: the name of entry i is at
 * first_name + i * stride.  what: "instance type" or "model"; list:
 * "catalog.instances" or "catalog.models".
 */
int ld_entry_name(struct ld *ld, yaml_node_t *m, const char *path, const char *what,
                  const char *list, const char *first_name, size_t stride, int idx,
                  char *out, size_t cap)
{
    char f[FIELD_LEN], desc[64];
    yaml_node_t *v;

    ld_path_key(f, sizeof f, path, "name");
    if (!(v = ld_get(ld, m, "name", NULL)))
        return ld_missing(ld, m->start_mark, f);
    snprintf(desc, sizeof desc, "a%s %s name", what[0] == 'i' ? "n" : "", what);
    if (ld_str(ld, v, f, out, cap, 1, desc))
        return -1;
    for (int i = 0; i < idx; i++)
        if (strcmp(first_name + (size_t)i * stride, out) == 0)
            return ld_fail(ld, v->start_mark, f, "duplicate %s \"%s\", already defined by %s[%d]",
                           what, out, list, i);
    return 0;
}

/* The source of an inline catalog entry: the given text, or where it was defined. */
int ld_source(struct ld *ld, yaml_node_t *m, const char *path, char **out)
{
    char f[FIELD_LEN];
    yaml_node_t *v;

    ld_path_key(f, sizeof f, path, "source");
    if ((v = ld_get(ld, m, "source", NULL)))
        return ld_strdup(ld, v, f, out) ? -1 : 0;
    {
        size_t n = strlen(ld->file) + 32;
        *out = x_malloc(n);
        snprintf(*out, n, "defined inline in %s", ld->file);
    }
    return 0;
}

struct key_spec ld_field_spec(const char *key, int required, size_t off)
{
    const struct cat_field *f = fields_yaml(key);
    struct key_spec k = {key, f->integer ? KEY_INT : KEY_NUM, required, f->lo, f->lo_open,
                         f->hi, f->desc, off};

    return k;
}
