/*
 * scenario.c - load a scenario file (YAML) into struct scenario.
 *
 * The file is read whole (at most SC_MAX_FILE_BYTES), parsed with libyaml's
 * document API and walked against a fixed schema: every mapping is checked
 * for unknown and duplicate keys, every scalar for its type, range and closed
 * set, then the cross-field rules (train groups, parameter-server placement,
 * prices, measured cluster) are checked.  The first problem found is reported
 * as one line, FILE:LINE:COL: FIELD: expected WHAT, found "WHAT", with the
 * 1-based mark of the offending node (see docs/scenario.md).
 *
 * Inline catalog definitions (catalog.instances, catalog.models) are first
 * validated into a pending list that shadows the catalog.  Only when the whole
 * file is valid are they added to the catalog and every name resolved to a
 * catalog pointer, so a failed load leaves the catalog exactly as it was.
 *
 * Before the tree is built, a pass over libyaml's events bounds the nesting
 * depth, the anchors and the node count (ld_prescan), which keeps libyaml's
 * own worst cases (quadratic in depth and in anchors) away.
 *
 * Cost: O(file size) to parse, twice, plus O(k^2) per mapping of k keys for the
 * duplicate check (k is at most a dozen or so for every known mapping, and an
 * unknown key stops the walk at once), plus a linear catalog search per name.
 * Aliases are shared nodes in libyaml's document, and the walk follows only
 * the schema's bounded depth, so alias bombs and self-referencing anchors
 * cost nothing extra.
 */
#include "scenario.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <stddef.h>
#include <string.h>
#include <strings.h>
#include <yaml.h>

#include "../base/names.h"
#include "../base/units.h"



#define SC_MAX_FILE_BYTES ((size_t)16 << 20) /* a scenario is a few KiB */
#define SC_MAX_CLUSTERS 64
#define SC_MAX_INLINE 1000                   /* inline entries per catalog list */
#define SC_MAX_TEXT 4096                     /* longest free-text string (source) */
#define SC_MAX_DEPTH 32                      /* nesting levels; the schema needs 6 */
#define SC_MAX_ANCHORS 1000                  /* anchors and aliases together */
#define SC_MAX_NODES 200000                  /* scalars, mappings, lists and aliases */
#define FIELD_LEN 256                        /* dotted field path */
#define FOUND_LEN 160                        /* a node as quoted in a message */
#define FOUND_SHOW 60                        /* bytes of a scalar shown before "..." */
#define LIST_LEN 640                         /* "a, b, c" lists of choices */

/* Loader state: the parse tree, the error record and the pending inline entries. */
struct ld {
    const char *file;               /* path as given, for messages */
    yaml_document_t *doc;
    struct catalog *cat;
    struct dt_err *e;
    struct scenario *sc;
    yaml_node_t *root;

    /* inline definitions, validated, added to cat only on success */
    struct cat_instance *inst;      /* owns intra_link_text and source until put */
    int ninst;
    struct cat_model *models;       /* owns source until put */
    int nmodels;

    /* names to resolve once the catalog is final (pointers may move on put) */
    char model_name[48];
    char gpu_name[32];                       /* measured_compute.gpu, "" if absent */
    char cpu_on_name[64];                    /* input.cpu_measured_on, "" if absent */
    char (*group_inst)[64];                  /* [cluster * SC_MAX_GROUPS + group] */

    /* nodes kept for checks that need later sections */
    yaml_node_t *ms_cluster;                 /* workload.measured_step.cluster */
    yaml_node_t *solve_node;                 /* workload.measured_step.solve_for */
    yaml_node_t *receive_node;               /* gradients.ps.receive */
};


/* ---------------------------------------------------------------- messages */

static int ld_fail(struct ld *ld, yaml_mark_t m, const char *field, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* Fill the error record: FILE:LINE:COL: FIELD: WHAT (marks are 0-based). */
static int ld_fail(struct ld *ld, yaml_mark_t m, const char *field, const char *fmt, ...)
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
static const char *ld_found(const yaml_node_t *n, char *buf, size_t cap)
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
static void join_names(char *buf, size_t cap, const char *const *names)
{
    size_t o = 0;
    int i;

    buf[0] = '\0';
    for (i = 0; names[i] && o + 1 < cap; i++)
        o += (size_t)snprintf(buf + o, cap - o, "%s%s", i ? ", " : "", names[i]);
}

/* Append one name to a "a, b, c" list, ending it with "..." when full. */
static void list_add(char *buf, size_t cap, const char *name)
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
static void path_key(char *out, size_t cap, const char *path, const char *key)
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
static void path_idx(char *out, size_t cap, const char *path, int i)
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

static int ld_missing(struct ld *ld, yaml_mark_t at, const char *field)
{
    return ld_fail(ld, at, field, "missing required field");
}

/* ------------------------------------------------------------ tree access */

static yaml_node_t *ld_node(struct ld *ld, int id)
{
    return yaml_document_get_node(ld->doc, id);
}

static int scalar_is(const yaml_node_t *k, const char *s)
{
    return k && k->type == YAML_SCALAR_NODE && k->data.scalar.length == strlen(s) &&
           memcmp(k->data.scalar.value, s, k->data.scalar.length) == 0;
}

/*
 * Check that map is a mapping whose keys are strings, each one of keys and
 * none given twice.  path names map in messages ("" for the document).
 */
static int ld_map(struct ld *ld, yaml_node_t *map, const char *path, const char *const *keys)
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
        path_key(f, sizeof f, path, (const char *)k->data.scalar.value);
        for (i = 0; keys[i]; i++)
            if (scalar_is(k, keys[i]))
                break;
        if (!keys[i]) {
            join_names(list, sizeof list, keys);
            return ld_fail(ld, k->start_mark, f, "unknown key, expected one of %s", list);
        }
        for (q = map->data.mapping.pairs.start; q < p; q++) {
            yaml_node_t *kq = ld_node(ld, q->key);
            if (scalar_is(kq, keys[i]))
                return ld_fail(ld, k->start_mark, f, "duplicate key, already given at %lu:%lu",
                               (unsigned long)kq->start_mark.line + 1,
                               (unsigned long)kq->start_mark.column + 1);
        }
    }
    return 0;
}

/* The value of key in a checked mapping, or NULL; *keyn (if given) gets the key node. */
static yaml_node_t *ld_get(struct ld *ld, yaml_node_t *map, const char *key, yaml_node_t **keyn)
{
    yaml_node_pair_t *p;

    for (p = map->data.mapping.pairs.start; p < map->data.mapping.pairs.top; p++) {
        yaml_node_t *k = ld_node(ld, p->key);
        if (scalar_is(k, key)) {
            if (keyn)
                *keyn = k;
            return ld_node(ld, p->value);
        }
    }
    return NULL;
}

/* Check a list node and its length: 1..max items of WHAT. */
static int ld_list(struct ld *ld, yaml_node_t *n, const char *field, int min, int max,
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

static int list_len(const yaml_node_t *n)
{
    return (int)(n->data.sequence.items.top - n->data.sequence.items.start);
}

static yaml_node_t *list_item(struct ld *ld, const yaml_node_t *n, int i)
{
    return ld_node(ld, n->data.sequence.items.start[i]);
}

/* ----------------------------------------------------------------- scalars */

/*
 * Parse a YAML 1.2 core-schema number: [+-]digits[.digits][(e|E)[+-]digits]
 * (".5" and "5." too).  Returns 0 with *out set, 1 when the text is not a
 * number, 2 when it is a number that is not finite (.nan, .inf, 1e999).
 */
static int num_parse(const yaml_node_t *n, double *out)
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
static int ld_num(struct ld *ld, yaml_node_t *n, const char *field, double lo, int lo_open,
                  double hi, const char *desc, double *out)
{
    char fb[FOUND_LEN];
    double v = 0;
    int r = num_parse(n, &v);

    if (r == 2)
        return ld_fail(ld, n->start_mark, field, "expected a finite number, found %s",
                       ld_found(n, fb, sizeof fb));
    if (r || v < lo || (lo_open && v == lo) || v > hi)
        return ld_fail(ld, n->start_mark, field, "expected %s, found %s", desc,
                       ld_found(n, fb, sizeof fb));
    *out = v;
    return 0;
}

/*
 * An integer in [lo, hi] (written as an integer or as an integral number such
 * as 1e3).  desc says what is expected without the upper bound ("a positive
 * integer"); a value above hi adds "of at most HI".
 */
static int ld_integer(struct ld *ld, yaml_node_t *n, const char *field, double lo, double hi,
                      const char *desc, double *out)
{
    char fb[FOUND_LEN];
    double v = 0;
    int r = num_parse(n, &v);

    if (r == 2)
        return ld_fail(ld, n->start_mark, field, "expected a finite number, found %s",
                       ld_found(n, fb, sizeof fb));
    if (r || v != floor(v) || v < lo)
        return ld_fail(ld, n->start_mark, field, "expected %s, found %s", desc,
                       ld_found(n, fb, sizeof fb));
    if (v > hi)
        return ld_fail(ld, n->start_mark, field, "expected %s of at most %.0f, found %s", desc, hi,
                       ld_found(n, fb, sizeof fb));
    *out = v;
    return 0;
}

static int ld_int(struct ld *ld, yaml_node_t *n, const char *field, int lo, int hi,
                  const char *desc, int *out)
{
    double v;

    if (ld_integer(ld, n, field, lo, hi, desc, &v))
        return -1;
    *out = (int)v;
    return 0;
}

static int ld_bool(struct ld *ld, yaml_node_t *n, const char *field, int *out)
{
    static const char *const yes[] = { "true", "True", "TRUE", "yes", "Yes", "YES", NULL };
    static const char *const no[] = { "false", "False", "FALSE", "no", "No", "NO", NULL };
    char fb[FOUND_LEN];
    int i;

    for (i = 0; yes[i]; i++)
        if (scalar_is(n, yes[i])) {
            *out = 1;
            return 0;
        }
    for (i = 0; no[i]; i++)
        if (scalar_is(n, no[i])) {
            *out = 0;
            return 0;
        }
    return ld_fail(ld, n->start_mark, field, "expected true or false, found %s",
                   ld_found(n, fb, sizeof fb));
}

/* One of a closed set (base/names.h): *out gets the index of the name. */
static int ld_enum(struct ld *ld, yaml_node_t *n, const char *field, const char *(*name)(int),
                   int *out)
{
    char fb[FOUND_LEN], list[LIST_LEN];
    const char *nm;
    int i;

    for (i = 0; (nm = name(i)) != NULL; i++)
        if (scalar_is(n, nm)) {
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
static int ld_str(struct ld *ld, yaml_node_t *n, const char *field, char *out, size_t cap,
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
static int ld_strdup(struct ld *ld, yaml_node_t *n, const char *field, char **out)
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
enum key_kind { KEY_NUM, KEY_INT, KEY_INT_AUTO, KEY_BOOL };

struct key_spec {
    const char *key;
    enum key_kind kind;
    int required;
    double lo;                  /* KEY_NUM: ld_num's lo, lo_open, hi; KEY_INT*: [lo, hi] */
    int lo_open;
    double hi;
    const char *desc;           /* what is expected, for the error line */
    size_t off;                 /* offsetof the double (KEY_NUM) or int in the target */
};

static int ld_keys(struct ld *ld, yaml_node_t *m, const char *path, yaml_mark_t at,
                   const struct key_spec *t, size_t n, void *target)
{
    char f[FIELD_LEN];

    for (size_t i = 0; i < n; i++) {
        const struct key_spec *k = &t[i];
        void *out = (char *)target + k->off;
        yaml_node_t *v = ld_get(ld, m, k->key, NULL);
        int rc = 0;

        path_key(f, sizeof f, path, k->key);
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
            if (scalar_is(v, "auto"))
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
static int ld_entry_name(struct ld *ld, yaml_node_t *m, const char *path, const char *what,
                         const char *list, const char *first_name, size_t stride, int idx,
                         char *out, size_t cap)
{
    char f[FIELD_LEN], desc[64];
    yaml_node_t *v;

    path_key(f, sizeof f, path, "name");
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
static int ld_source(struct ld *ld, yaml_node_t *m, const char *path, char **out)
{
    char f[FIELD_LEN];
    yaml_node_t *v;

    path_key(f, sizeof f, path, "source");
    if ((v = ld_get(ld, m, "source", NULL)))
        return ld_strdup(ld, v, f, out) ? -1 : 0;
    {
        size_t n = strlen(ld->file) + 32;
        *out = x_malloc(n);
        snprintf(*out, n, "defined inline in %s", ld->file);
    }
    return 0;
}


/* ------------------------------------------------------ names and catalog */

static const struct cat_instance *ld_find_instance(struct ld *ld, const char *name)
{
    int i;

    for (i = 0; i < ld->ninst; i++)
        if (strcmp(ld->inst[i].name, name) == 0)
            return &ld->inst[i];
    return catalog_find_instance(ld->cat, name);
}

static const struct cat_model *ld_find_model(struct ld *ld, const char *name)
{
    int i;

    for (i = 0; i < ld->nmodels; i++)
        if (strcmp(ld->models[i].name, name) == 0)
            return &ld->models[i];
    return catalog_find_model(ld->cat, name);
}

/* A GPU model of the catalog; unknown names list the known ones. */
static int ld_gpu(struct ld *ld, yaml_node_t *n, const char *field, const struct cat_gpu **out)
{
    char name[32], list[LIST_LEN] = "";
    int i;

    if (ld_str(ld, n, field, name, sizeof name, 1, "a GPU model"))
        return -1;
    *out = catalog_find_gpu(ld->cat, name);
    if (*out)
        return 0;
    for (i = 0; i < ld->cat->ngpus; i++)
        list_add(list, sizeof list, ld->cat->gpus[i].name);
    return ld_fail(ld, n->start_mark, field, "unknown GPU model \"%s\", expected one of %s", name,
                   list);
}

/* The error for an unknown reference to a WHAT (instance type, model) named
 * name: with the catalog's suggestion sug, or where to define it (list). */
static int ld_unknown_ref(struct ld *ld, yaml_node_t *n, const char *field, const char *what,
                          const char *name, const char *sug, const char *list)
{
    if (*sug)
        return ld_fail(ld, n->start_mark, field, "unknown %s \"%s\", did you mean %s?", what,
                       name, sug);
    return ld_fail(ld, n->start_mark, field,
                   "unknown %s \"%s\", not in the catalog (define it under %s)", what, name,
                   list);
}

static int ld_instance_ref(struct ld *ld, yaml_node_t *n, const char *field,
                           const struct cat_instance **out)
{
    char name[64], sug[LIST_LEN];

    if (ld_str(ld, n, field, name, sizeof name, 1, "an instance type name"))
        return -1;
    if ((*out = ld_find_instance(ld, name)) != NULL)
        return 0;
    catalog_suggest_instance(ld->cat, name, sug, sizeof sug);
    return ld_unknown_ref(ld, n, field, "instance type", name, sug, "catalog.instances");
}

static int ld_model_ref(struct ld *ld, yaml_node_t *n, const char *field,
                        const struct cat_model **out)
{
    char name[48], sug[LIST_LEN];

    if (ld_str(ld, n, field, name, sizeof name, 1, "a model name"))
        return -1;
    if ((*out = ld_find_model(ld, name)) != NULL)
        return 0;
    catalog_suggest_model(ld->cat, name, sug, sizeof sug);
    return ld_unknown_ref(ld, n, field, "model", name, sug, "catalog.models");
}

/* ------------------------------------------------------ inline catalog */

/*
 * A calibration profile named by the scenario (`profile:`, for the instance
 * type the profile names) or by an inline instance type (for that type).
 * A relative path is taken from the scenario's directory.  A file that
 * cannot be read is reported at the scenario's node; a bad profile by its
 * own FILE:LINE:COL line (calibrate/profile.c).
 */
static int ld_profile(struct ld *ld, yaml_node_t *v, const char *field, const char *instance)
{
    char rel[SC_MAX_TEXT], path[SC_MAX_TEXT + 256], fb[FOUND_LEN];
    const char *slash = strrchr(ld->file, '/');
    struct prof_measured m;
    struct scenario *sc = ld->sc;
    FILE *f;

    if (ld_str(ld, v, field, rel, sizeof rel, 1, "a profile path"))
        return -1;
    if (rel[0] == '/' || !slash)
        snprintf(path, sizeof path, "%s", rel);
    else
        snprintf(path, sizeof path, "%.*s/%s", (int)(slash - ld->file), ld->file, rel);
    if (!(f = fopen(path, "rb")))
        return ld_fail(ld, v->start_mark, field, "expected a readable profile, found %s (%s: %s)",
                       ld_found(v, fb, sizeof fb), path, strerror(errno));
    fclose(f);
    if (profile_load(path, &m, ld->e))
        return -1;
    if (instance) {
        snprintf(m.instance, sizeof m.instance, "%s", instance);
    } else if (!m.instance[0]) {
        return ld_fail(ld, v->start_mark, field, "expected a profile naming its instance type "
                       "(dtplan calibrate --instance NAME), found %s", ld_found(v, fb, sizeof fb));
    } else if (!ld_find_instance(ld, m.instance)) {
        return ld_fail(ld, v->start_mark, field, "expected a profile of a known instance type, "
                       "found one of \"%s\" in %s", m.instance, path);
    }
    sc->profiles = x_realloc(sc->profiles, (size_t)(sc->nprofiles + 1) * sizeof *sc->profiles);
    sc->profiles[sc->nprofiles++] = m;
    return 0;
}

/*
 * Profiles named by the catalog (instances.csv's profile column), for the
 * instance types the scenario did not give one for.  Loaded for every such
 * type, so a catalog search uses them too; a bad one is reported by its own
 * FILE:LINE:COL line.
 */
static int ld_catalog_profiles(struct ld *ld)
{
    struct scenario *sc = ld->sc;

    for (int i = 0; i < ld->cat->ninstances; i++) {
        const struct cat_instance *in = &ld->cat->instances[i];
        struct prof_measured m;
        int have = 0;

        if (!in->profile)
            continue;
        for (int k = 0; k < sc->nprofiles && !have; k++)
            have = strcmp(sc->profiles[k].instance, in->name) == 0;
        if (have)
            continue;
        if (profile_load(in->profile, &m, ld->e))
            return -1;
        snprintf(m.instance, sizeof m.instance, "%s", in->name);
        sc->profiles = x_realloc(sc->profiles, (size_t)(sc->nprofiles + 1) * sizeof *sc->profiles);
        sc->profiles[sc->nprofiles++] = m;
    }
    return 0;
}

static void inst_release(struct cat_instance *in)
{
    x_free(in->intra_link_text);
    x_free(in->source);
    in->intra_link_text = NULL;
    in->source = NULL;
}

/* One entry of catalog.instances into *entry, a struct cat_instance (strings
 * owned by it even on error). */
static int ld_inline_instance(struct ld *ld, yaml_node_t *m, const char *path, int idx,
                              void *entry)
{
    struct cat_instance *in = entry;
    static const char *const keys[] = {
        "name", "vcpus", "memory_gib", "gpu_model", "gpu_count", "gpu_mem_gib",
        "intra_node_link", "network_gbps", "efa", "price_usd_h", "spot_usd_h", "cpu_speed",
        "cpu_ghz", "cloud", "region", "source", "profile", NULL
    };
    char f[FIELD_LEN], fb[FOUND_LEN];
    yaml_node_t *v, *gm;

    memset(in, 0, sizeof *in);
    snprintf(in->cloud, sizeof in->cloud, "custom");
    in->vcpus = -1;
    in->mem_gib = NAN;
    in->gpu_mem_gib = NAN;
    in->net_gbps = NAN;
    in->efa = 0;
    in->price_usd_h = NAN;
    in->spot_usd_h = NAN;
    in->cpu_speed = NAN;
    in->cpu_ghz = NAN;
    if (ld_map(ld, m, path, keys))
        return -1;

    static const struct key_spec sizes[] = {
        {"vcpus", KEY_INT, 1, 1, 0, 65536, "a positive integer", offsetof(struct cat_instance, vcpus)},
        {"memory_gib", KEY_NUM, 0, 0, 1, 1e6, "a size in GiB in (0, 1e6]",
         offsetof(struct cat_instance, mem_gib)},
        {"gpu_count", KEY_INT, 0, 0, 0, 64, "a non-negative integer",
         offsetof(struct cat_instance, gpu_count)},
    };
    static const struct key_spec net_price[] = {
        {"network_gbps", KEY_NUM, 0, 0, 1, 1e5, "a rate in Gbit/s in (0, 1e5]",
         offsetof(struct cat_instance, net_gbps)},
        {"efa", KEY_BOOL, 0, 0, 0, 0, NULL, offsetof(struct cat_instance, efa)},
        {"price_usd_h", KEY_NUM, 1, 0, 0, 1e6, "a price in USD per hour in [0, 1e6]",
         offsetof(struct cat_instance, price_usd_h)},
        {"spot_usd_h", KEY_NUM, 0, 0, 0, 1e6, "a price in USD per hour in [0, 1e6]",
         offsetof(struct cat_instance, spot_usd_h)},
        {"cpu_speed", KEY_NUM, 0, 0, 1, 1000, "a relative vCPU speed in (0, 1000]",
         offsetof(struct cat_instance, cpu_speed)},
        {"cpu_ghz", KEY_NUM, 0, 0, 1, 10, "a clock in GHz in (0, 10]",
         offsetof(struct cat_instance, cpu_ghz)},
    };

    if (ld_entry_name(ld, m, path, "instance type", "catalog.instances", ld->inst[0].name,
                      sizeof *ld->inst, idx, in->name, sizeof in->name) ||
        ld_keys(ld, m, path, m->start_mark, sizes, 3, in))
        return -1;

    path_key(f, sizeof f, path, "gpu_model");
    gm = ld_get(ld, m, "gpu_model", NULL);
    if (in->gpu_count > 0 && !gm)
        return ld_fail(ld, m->start_mark, f, "missing required field (gpu_count is %d)",
                       in->gpu_count);
    if (gm && in->gpu_count == 0)
        return ld_fail(ld, gm->start_mark, f, "expected no GPU model with gpu_count 0, found %s",
                       ld_found(gm, fb, sizeof fb));
    if (gm) {
        if (ld_gpu(ld, gm, f, &in->gpu))
            return -1;
        snprintf(in->gpu_model, sizeof in->gpu_model, "%s", in->gpu->name);
        in->gpu_mem_gib = in->gpu->mem_gib;
    } else
        in->gpu_mem_gib = 0;

    path_key(f, sizeof f, path, "gpu_mem_gib");
    if ((v = ld_get(ld, m, "gpu_mem_gib", NULL))) {
        if (in->gpu_count == 0)
            return ld_fail(ld, v->start_mark, f,
                           "expected no GPU memory with gpu_count 0, found %s",
                           ld_found(v, fb, sizeof fb));
        if (ld_num(ld, v, f, 0, 1, 1e4, "a size in GiB in (0, 1e4]", &in->gpu_mem_gib))
            return -1;
    }

    path_key(f, sizeof f, path, "intra_node_link");
    if ((v = ld_get(ld, m, "intra_node_link", NULL))) {
        if (ld_strdup(ld, v, f, &in->intra_link_text))
            return -1;
        in->link = catalog_parse_link(in->intra_link_text);
    } else {
        in->intra_link_text = x_strdup("");
        in->link = in->gpu_count <= 1 ? CAT_LINK_NONE : CAT_LINK_UNKNOWN;
    }

    if (ld_keys(ld, m, path, m->start_mark, net_price,
                sizeof net_price / sizeof net_price[0], in))
        return -1;

    path_key(f, sizeof f, path, "profile");
    if ((v = ld_get(ld, m, "profile", NULL)) && ld_profile(ld, v, f, in->name))
        return -1;

    path_key(f, sizeof f, path, "cloud");
    if ((v = ld_get(ld, m, "cloud", NULL)) &&
        ld_str(ld, v, f, in->cloud, sizeof in->cloud, 1, "a cloud name"))
        return -1;

    path_key(f, sizeof f, path, "region");
    if ((v = ld_get(ld, m, "region", NULL)) &&
        ld_str(ld, v, f, in->region, sizeof in->region, 0, "a region name"))
        return -1;

    return ld_source(ld, m, path, &in->source);
}

static int ld_inline_model(struct ld *ld, yaml_node_t *m, const char *path, int idx,
                           void *entry)
{
    struct cat_model *md = entry;
    static const char *const keys[] = {
        "name", "family", "params", "fwd_gflops", "input", "sparse_params",
        "sparse_bytes_per_sample", "source", NULL
    };
    static const struct key_spec size[] = {
        {"params", KEY_NUM, 1, 0, 1, 1e13, "a parameter count in (0, 1e13]",
         offsetof(struct cat_model, params)},
        {"fwd_gflops", KEY_NUM, 0, 0, 1, 1e9, "GFLOP per sample in (0, 1e9]",
         offsetof(struct cat_model, fwd_gflops)},
    };
    char f[FIELD_LEN];
    yaml_node_t *v;
    int i;

    memset(md, 0, sizeof *md);
    md->fwd_gflops = NAN;
    md->sparse_params = NAN;
    md->sparse_bytes_per_sample = NAN;
    md->act_mib_per_sample = NAN;
    if (ld_map(ld, m, path, keys))
        return -1;

    if (ld_entry_name(ld, m, path, "model", "catalog.models", ld->models[0].name,
                      sizeof *ld->models, idx, md->name, sizeof md->name))
        return -1;

    path_key(f, sizeof f, path, "family");
    if ((v = ld_get(ld, m, "family", NULL))) {
        if (ld_enum(ld, v, f, catalog_family_name, &i))
            return -1;
        snprintf(md->family, sizeof md->family, "%s", catalog_family_name(i));
    }

    if (ld_keys(ld, m, path, m->start_mark, size, 2, md))
        return -1;

    path_key(f, sizeof f, path, "input");
    if ((v = ld_get(ld, m, "input", NULL)) &&
        ld_str(ld, v, f, md->input, sizeof md->input, 0, "an input description"))
        return -1;

    {
        const struct key_spec sparse[] = {
            {"sparse_params", KEY_NUM, 0, 0, 0, md->params, "a count in [0, params]",
             offsetof(struct cat_model, sparse_params)},
            {"sparse_bytes_per_sample", KEY_NUM, 0, 0, 0, 1e12, "bytes in [0, 1e12]",
             offsetof(struct cat_model, sparse_bytes_per_sample)},
        };
        if (ld_keys(ld, m, path, m->start_mark, sparse, 2, md))
            return -1;
    }

    return ld_source(ld, m, path, &md->source);
}

/* Each entry of the checked list v (path "catalog.instances" or
 * "catalog.models") read by entry() into arr[i] (size bytes each); *count
 * is the number of entries that own their strings, for freeing on error. */
static int ld_inline_entries(struct ld *ld, yaml_node_t *v, const char *path, void *arr,
                             size_t size, int *count,
                             int (*entry)(struct ld *, yaml_node_t *, const char *, int, void *))
{
    char f[FIELD_LEN];

    for (int i = 0; i < list_len(v); i++) {
        path_idx(f, sizeof f, path, i);
        *count = i + 1; /* entry i owns its strings from here on */
        if (entry(ld, list_item(ld, v, i), f, i, (char *)arr + (size_t)i * size))
            return -1;
    }
    return 0;
}

static int ld_catalog(struct ld *ld, yaml_node_t *m)
{
    static const char *const keys[] = { "instances", "models", NULL };
    yaml_node_t *v;

    if (ld_map(ld, m, "catalog", keys))
        return -1;
    if ((v = ld_get(ld, m, "instances", NULL))) {
        if (ld_list(ld, v, "catalog.instances", 0, SC_MAX_INLINE, "instance types"))
            return -1;
        ld->inst = x_calloc((size_t)list_len(v), sizeof *ld->inst);
        if (ld_inline_entries(ld, v, "catalog.instances", ld->inst, sizeof *ld->inst, &ld->ninst,
                              ld_inline_instance))
            return -1;
    }
    if ((v = ld_get(ld, m, "models", NULL))) {
        if (ld_list(ld, v, "catalog.models", 0, SC_MAX_INLINE, "models"))
            return -1;
        ld->models = x_calloc((size_t)list_len(v), sizeof *ld->models);
        if (ld_inline_entries(ld, v, "catalog.models", ld->models, sizeof *ld->models,
                              &ld->nmodels, ld_inline_model))
            return -1;
    }
    return 0;
}

/* ------------------------------------------------------------- sections */

static int ld_measured_compute(struct ld *ld, yaml_node_t *m, yaml_mark_t at)
{
    static const char *const keys[] = { "gpu", "step_s", "batch", NULL };
    static const struct key_spec keyv[] = {
        {"step_s", KEY_NUM, 1, 0, 1, 1e6, "a time in seconds in (0, 1e6]",
         offsetof(struct scenario, measured_compute_s)},
        {"batch", KEY_INT, 0, 1, 0, 10000000, "a positive integer",
         offsetof(struct scenario, measured_batch)},
    };
    struct scenario *sc = ld->sc;
    yaml_node_t *v;

    if (ld_map(ld, m, "workload.measured_compute", keys))
        return -1;
    if (!(v = ld_get(ld, m, "gpu", NULL)))
        return ld_missing(ld, at, "workload.measured_compute.gpu");
    if (ld_gpu(ld, v, "workload.measured_compute.gpu", &sc->measured_gpu))
        return -1;
    snprintf(ld->gpu_name, sizeof ld->gpu_name, "%s", sc->measured_gpu->name);
    sc->measured_batch = sc->batch_per_gpu;
    return ld_keys(ld, m, "workload.measured_compute", at, keyv, 2, sc);
}

static int ld_measured_step(struct ld *ld, yaml_node_t *m, yaml_mark_t at)
{
    static const char *const keys[] = { "cluster", "step_s", "solve_for", NULL };
    struct scenario *sc = ld->sc;
    yaml_node_t *v;
    int solve;

    if (ld_map(ld, m, "workload.measured_step", keys))
        return -1;
    if (!(v = ld_get(ld, m, "cluster", NULL)))
        return ld_missing(ld, at, "workload.measured_step.cluster");
    ld->ms_cluster = v; /* resolved once the clusters are known */
    if (!(v = ld_get(ld, m, "step_s", NULL)))
        return ld_missing(ld, at, "workload.measured_step.step_s");
    if (ld_num(ld, v, "workload.measured_step.step_s", 0, 1, 1e6,
               "a time in seconds in (0, 1e6]", &sc->measured_step_s))
        return -1;
    if (!(v = ld_get(ld, m, "solve_for", NULL)))
        return ld_missing(ld, at, "workload.measured_step.solve_for");
    if (ld_enum(ld, v, "workload.measured_step.solve_for", scenario_solve_name, &solve))
        return -1;
    sc->solve_for = solve == 0 ? SC_SOLVE_CPU : SC_SOLVE_COMPUTE;
    ld->solve_node = v;
    return 0;
}

static int ld_workload(struct ld *ld, yaml_node_t *m, yaml_mark_t at)
{
    static const char *const keys[] = {
        "model", "batch_per_gpu", "precision", "grad_accum", "mfu",
        "optimizer_bytes_per_param", "measured_compute", "measured_step", NULL
    };
    static const struct key_spec keyv[] = {
        {"grad_accum", KEY_INT, 0, 1, 0, 100000, "a positive integer",
         offsetof(struct scenario, grad_accum)},
        {"mfu", KEY_NUM, 0, 0, 1, 1, "a fraction in (0, 1]", offsetof(struct scenario, mfu)},
        {"optimizer_bytes_per_param", KEY_NUM, 0, 0, 1, 1e4, "bytes per parameter in (0, 1e4]",
         offsetof(struct scenario, optimizer_bytes_per_param)},
    };
    struct scenario *sc = ld->sc;
    yaml_node_t *v, *k;
    int prec;

    if (ld_map(ld, m, "workload", keys))
        return -1;
    if (!(v = ld_get(ld, m, "model", NULL)))
        return ld_missing(ld, at, "workload.model");
    if (ld_model_ref(ld, v, "workload.model", &sc->model))
        return -1;
    snprintf(ld->model_name, sizeof ld->model_name, "%s", sc->model->name);

    if (!(v = ld_get(ld, m, "batch_per_gpu", NULL)))
        return ld_missing(ld, at, "workload.batch_per_gpu");
    if (ld_int(ld, v, "workload.batch_per_gpu", 1, 10000000, "a positive integer",
               &sc->batch_per_gpu))
        return -1;

    if ((v = ld_get(ld, m, "precision", NULL))) {
        if (ld_enum(ld, v, "workload.precision", catalog_prec_name, &prec))
            return -1;
        sc->precision = (enum cat_prec)prec;
    }
    if (ld_keys(ld, m, "workload", at, keyv, 3, sc))
        return -1;
    if ((v = ld_get(ld, m, "measured_compute", &k)) && ld_measured_compute(ld, v, k->start_mark))
        return -1;
    if ((v = ld_get(ld, m, "measured_step", &k)) && ld_measured_step(ld, v, k->start_mark))
        return -1;
    if (sc->solve_for == SC_SOLVE_COMPUTE && sc->measured_gpu)
        return ld_fail(ld, ld->solve_node->start_mark, "workload.measured_step.solve_for",
                       "expected cpu_cost when workload.measured_compute is given, found "
                       "\"compute\"");
    return 0;
}

/* input may be NULL (section absent); at marks the section's key or the document. */
static int ld_input(struct ld *ld, yaml_node_t *m, yaml_mark_t at)
{
    static const char *const keys[] = {
        "cpu_s_per_sample", "cpu_measured_on", "raw_bytes", "prep_bytes", "loader_workers",
        "prefetch", "reserved_vcpus_per_gpu", "data_workers", "local_with_data_nodes",
        "service_send_cpu_s_per_byte", "service_recv_cpu_s_per_byte", "dataset_samples", "epochs",
        NULL
    };
    struct scenario *sc = ld->sc;
    char fb[FOUND_LEN];
    yaml_node_t *v;

    if (m && ld_map(ld, m, "input", keys))
        return -1;
    v = m ? ld_get(ld, m, "cpu_s_per_sample", NULL) : NULL;
    if (v && sc->solve_for == SC_SOLVE_CPU)
        return ld_fail(ld, v->start_mark, "input.cpu_s_per_sample",
                       "expected no value when workload.measured_step.solve_for is cpu_cost "
                       "(the measurement determines it), found %s", ld_found(v, fb, sizeof fb));
    if (!v && sc->solve_for != SC_SOLVE_CPU)
        return ld_missing(ld, at, "input.cpu_s_per_sample");
    if (v && ld_num(ld, v, "input.cpu_s_per_sample", 0, 0, 3600, "seconds in [0, 3600]",
                    &sc->cpu_s_per_sample))
        return -1;
    if (!m)
        return 0;

    if ((v = ld_get(ld, m, "cpu_measured_on", NULL))) {
        if (sc->solve_for == SC_SOLVE_CPU)
            return ld_fail(ld, v->start_mark, "input.cpu_measured_on",
                           "expected no value when workload.measured_step.solve_for is cpu_cost "
                           "(the solved cost is in reference cores), found %s",
                           ld_found(v, fb, sizeof fb));
        if (ld_instance_ref(ld, v, "input.cpu_measured_on", &sc->cpu_measured_on))
            return -1;
        snprintf(ld->cpu_on_name, sizeof ld->cpu_on_name, "%s", sc->cpu_measured_on->name);
    }
    if ((v = ld_get(ld, m, "raw_bytes", NULL)) &&
        ld_num(ld, v, "input.raw_bytes", 0, 0, 1e10, "a number of bytes in [0, 1e10]",
               &sc->raw_bytes))
        return -1;
    if ((v = ld_get(ld, m, "prep_bytes", NULL)) &&
        ld_num(ld, v, "input.prep_bytes", 0, 0, 1e10, "a number of bytes in [0, 1e10]",
               &sc->prep_bytes))
        return -1;
    if ((v = ld_get(ld, m, "loader_workers", NULL)) && !scalar_is(v, "auto") &&
        ld_int(ld, v, "input.loader_workers", 0, 4096, "a non-negative integer or auto",
               &sc->loader_workers))
        return -1;
    if ((v = ld_get(ld, m, "prefetch", NULL)) &&
        ld_int(ld, v, "input.prefetch", 0, 1000, "a non-negative integer", &sc->prefetch))
        return -1;
    if ((v = ld_get(ld, m, "reserved_vcpus_per_gpu", NULL)) &&
        ld_int(ld, v, "input.reserved_vcpus_per_gpu", 0, 4096, "a non-negative integer",
               &sc->reserved_vcpus_per_gpu))
        return -1;
    if ((v = ld_get(ld, m, "data_workers", NULL)) && !scalar_is(v, "auto") &&
        ld_int(ld, v, "input.data_workers", 1, 4096, "a positive integer or auto",
               &sc->data_workers))
        return -1;
    if ((v = ld_get(ld, m, "local_with_data_nodes", NULL)) &&
        ld_bool(ld, v, "input.local_with_data_nodes", &sc->local_with_data_nodes))
        return -1;
    if ((v = ld_get(ld, m, "service_send_cpu_s_per_byte", NULL)) &&
        ld_num(ld, v, "input.service_send_cpu_s_per_byte", 0, 0, 1, "seconds per byte in [0, 1]",
               &sc->service_send_cpu_s_per_byte))
        return -1;
    if ((v = ld_get(ld, m, "service_recv_cpu_s_per_byte", NULL)) &&
        ld_num(ld, v, "input.service_recv_cpu_s_per_byte", 0, 0, 1, "seconds per byte in [0, 1]",
               &sc->service_recv_cpu_s_per_byte))
        return -1;
    if ((v = ld_get(ld, m, "dataset_samples", NULL)) &&
        ld_num(ld, v, "input.dataset_samples", 0, 1, 1e15, "a sample count in (0, 1e15]",
               &sc->dataset_samples))
        return -1;
    if ((v = ld_get(ld, m, "epochs", NULL)) &&
        ld_num(ld, v, "input.epochs", 0, 1, 1e6, "a number of epochs in (0, 1e6]", &sc->epochs))
        return -1;
    return 0;
}

static int ld_gradients(struct ld *ld, yaml_node_t *m)
{
    static const char *const keys[] = {
        "strategy", "bucket_mb", "buckets_mb", "overlap", "cycle_ms", "precision", "ps", NULL
    };
    static const char *const ps_keys[] = { "count", "placement", "pipeline", "receive", NULL };
    struct scenario *sc = ld->sc;
    yaml_node_t *v, *w;
    double mib;
    int i;

    if (ld_map(ld, m, "gradients", keys))
        return -1;
    if ((v = ld_get(ld, m, "strategy", NULL))) {
        if (ld_enum(ld, v, "gradients.strategy", sim_strategy_name, &i))
            return -1;
        sc->strategy = (enum sim_strategy)i;
    }
    if ((v = ld_get(ld, m, "bucket_mb", NULL))) {
        if (ld_num(ld, v, "gradients.bucket_mb", 0, 1, 65536, "a size in MiB in (0, 65536]",
                   &mib))
            return -1;
        sc->bucket_bytes = mib * DT_MIB;
    }
    if ((v = ld_get(ld, m, "buckets_mb", NULL))) {
        char f[64];
        if (ld_list(ld, v, "gradients.buckets_mb", 1, SC_MAX_BUCKET_LIST, "sizes"))
            return -1;
        sc->nbucket_list = list_len(v);
        for (i = 0; i < sc->nbucket_list; i++) {
            path_idx(f, sizeof f, "gradients.buckets_mb", i);
            if (ld_num(ld, list_item(ld, v, i), f, 0, 1, 65536, "a size in MiB in (0, 65536]", &mib))
                return -1;
            sc->bucket_list[i] = mib * DT_MIB;
        }
    }
    if ((v = ld_get(ld, m, "overlap", NULL)) && ld_bool(ld, v, "gradients.overlap", &sc->overlap))
        return -1;
    if ((v = ld_get(ld, m, "cycle_ms", NULL)) &&
        ld_num(ld, v, "gradients.cycle_ms", 0, 0, 10000, "a period in ms in [0, 10000]", &sc->cycle_ms))
        return -1;
    if ((v = ld_get(ld, m, "precision", NULL))) {
        if (ld_enum(ld, v, "gradients.precision", scenario_grad_prec_name, &i))
            return -1;
        sc->grad_precision = scenario_grad_prec_value(i);
    }
    if ((v = ld_get(ld, m, "ps", NULL))) {
        if (ld_map(ld, v, "gradients.ps", ps_keys))
            return -1;
        if ((w = ld_get(ld, v, "count", NULL)) &&
            ld_int(ld, w, "gradients.ps.count", 1, 4096, "a positive integer", &sc->ps_count))
            return -1;
        if ((w = ld_get(ld, v, "placement", NULL))) {
            if (ld_enum(ld, w, "gradients.ps.placement", scenario_ps_place_name, &i))
                return -1;
            sc->ps_place = (enum sc_ps_place)i;
        }
        if ((w = ld_get(ld, v, "pipeline", NULL)) &&
            ld_bool(ld, w, "gradients.ps.pipeline", &sc->ps_pipeline))
            return -1;
        if ((w = ld_get(ld, v, "receive", NULL))) {
            if (ld_enum(ld, w, "gradients.ps.receive", scenario_ps_receive_name, &i))
                return -1;
            sc->ps_receive = (enum sc_ps_receive)i;
            ld->receive_node = w;
        }
    }
    return 0;
}

/*
 * One group of a cluster.  strategy is the cluster's effective strategy and
 * strategy_field names where it was set, for messages.
 */
static int ld_group(struct ld *ld, yaml_node_t *m, const char *path, enum sim_strategy strategy,
                    const char *strategy_field, struct sc_group *g, char *inst_name)
{
    static const char *const keys[] = { "role", "instance", "count", "spot", NULL };
    struct scenario *sc = ld->sc;
    char f[FIELD_LEN];
    yaml_node_t *v, *iv, *sv;
    const struct cat_instance *in;
    int role = SIM_TRAIN;

    if (ld_map(ld, m, path, keys))
        return -1;
    g->count = 1;
    g->spot = 0;

    path_key(f, sizeof f, path, "role");
    if ((v = ld_get(ld, m, "role", NULL)) && ld_enum(ld, v, f, sim_role_name, &role))
        return -1;
    g->role = (enum sim_role)role;
    if (g->role == SIM_PS && !sim_is_ps(strategy))
        return ld_fail(ld, v->start_mark, f,
                       "a ps group needs %s ps_sync or ps_async, found \"%s\"", strategy_field,
                       sim_strategy_name(strategy));
    if (g->role == SIM_PS && sc->ps_place != SC_PS_DEDICATED)
        return ld_fail(ld, v->start_mark, f,
                       "a ps group needs gradients.ps.placement dedicated, found \"colocated\"");

    path_key(f, sizeof f, path, "instance");
    if (!(iv = ld_get(ld, m, "instance", NULL)))
        return ld_missing(ld, m->start_mark, f);
    if (ld_instance_ref(ld, iv, f, &in))
        return -1;
    snprintf(inst_name, 64, "%s", in->name);
    g->inst = in; /* provisional: resolved again once the catalog is final */
    if (isnan(in->price_usd_h))
        return ld_fail(ld, iv->start_mark, f,
                       "on-demand price of \"%s\" is unknown in the catalog, define it under "
                       "catalog.instances with price_usd_h", in->name);
    if (in->vcpus < 0)
        return ld_fail(ld, iv->start_mark, f,
                       "vCPU count of \"%s\" is unknown in the catalog, define it under "
                       "catalog.instances with vcpus", in->name);
    if (g->role == SIM_TRAIN && in->gpu_count < 0)
        return ld_fail(ld, iv->start_mark, f,
                       "GPU count of \"%s\" is unknown in the catalog, define it under "
                       "catalog.instances with gpu_count", in->name);
    if (g->role == SIM_TRAIN && in->gpu_count > 0 && !in->gpu)
        return ld_fail(ld, iv->start_mark, f,
                       "GPU model \"%s\" of \"%s\" is not in the catalog's GPUs", in->gpu_model,
                       in->name);

    path_key(f, sizeof f, path, "count");
    if ((v = ld_get(ld, m, "count", NULL)) &&
        ld_int(ld, v, f, 1, 100000, "a positive integer", &g->count))
        return -1;

    path_key(f, sizeof f, path, "spot");
    if ((sv = ld_get(ld, m, "spot", NULL)) && ld_bool(ld, sv, f, &g->spot))
        return -1;
    if (g->spot && isnan(in->spot_usd_h))
        return ld_fail(ld, sv->start_mark, f,
                       "spot price of \"%s\" is unknown in the catalog, define spot_usd_h under "
                       "catalog.instances or use spot: false", in->name);
    return 0;
}

static int ld_cluster(struct ld *ld, yaml_node_t *m, int ci)
{
    static const char *const keys[] = { "name", "strategy", "groups", NULL };
    struct scenario *sc = ld->sc;
    struct sc_cluster *c = &sc->clusters[ci];
    char path[FIELD_LEN], f[FIELD_LEN], gp[FIELD_LEN], sf[FIELD_LEN];
    enum sim_strategy strategy = sc->strategy;
    yaml_node_t *v, *gl;
    int i, ntrain = 0, nps = 0;

    path_idx(path, sizeof path, "clusters", ci);
    if (ld_map(ld, m, path, keys))
        return -1;

    path_key(f, sizeof f, path, "name");
    if (!(v = ld_get(ld, m, "name", NULL)))
        return ld_missing(ld, m->start_mark, f);
    if (ld_str(ld, v, f, c->name, sizeof c->name, 1, "a cluster name"))
        return -1;
    for (i = 0; i < ci; i++)
        if (strcmp(sc->clusters[i].name, c->name) == 0)
            return ld_fail(ld, v->start_mark, f,
                           "duplicate cluster name \"%s\", already used by clusters[%d]",
                           c->name, i);

    c->strategy = -1;
    snprintf(sf, sizeof sf, "gradients.strategy");
    path_key(f, sizeof f, path, "strategy");
    if ((v = ld_get(ld, m, "strategy", NULL))) {
        if (ld_enum(ld, v, f, sim_strategy_name, &c->strategy))
            return -1;
        strategy = (enum sim_strategy)c->strategy;
        snprintf(sf, sizeof sf, "%s", f);
    }

    path_key(f, sizeof f, path, "groups");
    if (!(gl = ld_get(ld, m, "groups", NULL)))
        return ld_missing(ld, m->start_mark, f);
    if (ld_list(ld, gl, f, 1, SC_MAX_GROUPS, "groups"))
        return -1;
    c->ngroups = list_len(gl);
    for (i = 0; i < c->ngroups; i++) {
        path_idx(gp, sizeof gp, f, i);
        if (ld_group(ld, list_item(ld, gl, i), gp, strategy, sf, &c->groups[i],
                     ld->group_inst[ci * SC_MAX_GROUPS + i]))
            return -1;
        ntrain += c->groups[i].role == SIM_TRAIN;
        nps += c->groups[i].role == SIM_PS;
        if (c->groups[i].role == SIM_PS && nps > 1)
            return ld_fail(ld, list_item(ld, gl, i)->start_mark, gp,
                           "expected at most one group with role ps in a cluster, found a second");
        /* More than one node: gradients or batches cross the network, whose
         * bandwidth must be known (planner/resolve.c checks the same for the
         * clusters a search builds). */
        if ((c->ngroups > 1 || c->groups[i].count > 1) && isnan(c->groups[i].inst->net_gbps)) {
            yaml_node_t *iv = ld_get(ld, list_item(ld, gl, i), "instance", NULL);
            char ip[FIELD_LEN];
            path_key(ip, sizeof ip, gp, "instance");
            return ld_fail(ld, iv ? iv->start_mark : gl->start_mark, ip,
                           "network bandwidth of \"%s\" is unknown in the catalog and the cluster "
                           "spans more than one node, define network_gbps under catalog.instances",
                           c->groups[i].inst->name);
        }
    }
    if (!ntrain)
        return ld_fail(ld, gl->start_mark, f,
                       "expected at least one group with role train, found none");
    /* In turn is modelled for synchronous dedicated servers; a plan's search
     * may still try the others (planner/resolve.c keeps them together). */
    if (strategy == SIM_PS_ASYNC && sc->ps_receive == SC_PS_IN_TURN)
        return ld_fail(ld, ld->receive_node->start_mark, "gradients.ps.receive",
                       "expected together with %s ps_async (in_turn is modelled for ps_sync), "
                       "found \"in_turn\"", sf);
    if (strategy == SIM_PS_SYNC && sc->ps_receive == SC_PS_IN_TURN && sc->ps_place != SC_PS_DEDICATED)
        return ld_fail(ld, ld->receive_node->start_mark, "gradients.ps.receive",
                       "expected together with gradients.ps.placement colocated (in_turn is "
                       "modelled for dedicated servers), found \"in_turn\"");
    if (sim_is_ps(strategy) && sc->ps_place == SC_PS_DEDICATED && !nps)
        return ld_fail(ld, gl->start_mark, f,
                       "expected a group with role ps (%s %s with gradients.ps.placement "
                       "dedicated), found none", sf, sim_strategy_name(strategy));
    return 0;
}

static int ld_clusters(struct ld *ld, yaml_node_t *l)
{
    struct scenario *sc = ld->sc;
    int i;

    if (ld_list(ld, l, "clusters", 1, SC_MAX_CLUSTERS, "clusters"))
        return -1;
    sc->nclusters = list_len(l);
    sc->clusters = x_calloc((size_t)sc->nclusters, sizeof *sc->clusters);
    ld->group_inst = x_calloc((size_t)sc->nclusters * SC_MAX_GROUPS, sizeof *ld->group_inst);
    for (i = 0; i < sc->nclusters; i++)
        if (ld_cluster(ld, list_item(ld, l, i), i))
            return -1;
    return 0;
}

static int ld_fabric(struct ld *ld, yaml_node_t *m)
{
    static const char *const keys[] = { "oversubscription", NULL };
    yaml_node_t *v;

    if (ld_map(ld, m, "fabric", keys))
        return -1;
    if ((v = ld_get(ld, m, "oversubscription", NULL)) &&
        ld_num(ld, v, "fabric.oversubscription", 1, 0, 1000, "a ratio in [1, 1000]",
               &ld->sc->fabric_oversub))
        return -1;
    return 0;
}

static int ld_objective(struct ld *ld, yaml_node_t *m)
{
    static const char *const keys[] = {
        "minimize", "deadline_h", "budget_usd_h", "max_data_channels", NULL
    };
    struct scenario *sc = ld->sc;
    yaml_node_t *v;
    int o;

    if (ld_map(ld, m, "objective", keys))
        return -1;
    if ((v = ld_get(ld, m, "minimize", NULL))) {
        if (ld_enum(ld, v, "objective.minimize", scenario_objective_name, &o))
            return -1;
        sc->objective = (enum sc_objective)o;
        if (sc->objective == SC_OBJ_COST_TRAIN && isnan(sc->dataset_samples))
            return ld_fail(ld, v->start_mark, "objective.minimize",
                           "cost_to_train needs input.dataset_samples, found none");
    }
    if ((v = ld_get(ld, m, "deadline_h", NULL))) {
        if (ld_num(ld, v, "objective.deadline_h", 0, 1, 1e6, "hours in (0, 1e6]",
                   &sc->deadline_h))
            return -1;
        if (isnan(sc->dataset_samples))
            return ld_fail(ld, v->start_mark, "objective.deadline_h",
                           "a deadline needs input.dataset_samples, found none");
    }
    if ((v = ld_get(ld, m, "max_data_channels", NULL)) &&
        ld_int(ld, v, "objective.max_data_channels", 1, 1000000, "a positive integer",
               &sc->max_data_channels))
        return -1;
    if ((v = ld_get(ld, m, "budget_usd_h", NULL)) &&
        ld_num(ld, v, "objective.budget_usd_h", 0, 1, 1e9, "USD per hour in (0, 1e9]",
               &sc->budget_usd_h))
        return -1;
    if ((v = ld_get(ld, m, "max_data_channels", NULL)) &&
        ld_int(ld, v, "objective.max_data_channels", 1, 1000000, "a positive integer",
               &sc->max_data_channels))
        return -1;
    return 0;
}

static int ld_simulation(struct ld *ld, yaml_node_t *m)
{
    static const char *const keys[] = { "seed", "steps", "warmup", "jitter_cv", NULL };
    struct scenario *sc = ld->sc;
    yaml_node_t *v;
    double seed;

    if (ld_map(ld, m, "simulation", keys))
        return -1;
    if ((v = ld_get(ld, m, "seed", NULL))) {
        if (ld_integer(ld, v, "simulation.seed", 0, 4294967295.0, "a non-negative integer",
                       &seed))
            return -1;
        sc->seed = (unsigned long)seed;
    }
    if ((v = ld_get(ld, m, "steps", NULL)) &&
        ld_int(ld, v, "simulation.steps", 1, 100000, "a positive integer", &sc->steps))
        return -1;
    if ((v = ld_get(ld, m, "warmup", NULL)) &&
        ld_int(ld, v, "simulation.warmup", 0, 10000, "a non-negative integer", &sc->warmup))
        return -1;
    if ((v = ld_get(ld, m, "jitter_cv", NULL)) &&
        ld_num(ld, v, "simulation.jitter_cv", 0, 0, 1, "a coefficient of variation in [0, 1]",
               &sc->jitter_cv))
        return -1;
    return 0;
}

/* workload.measured_step.cluster names one of the clusters. */
static int ld_measured_cluster(struct ld *ld)
{
    struct scenario *sc = ld->sc;
    char name[64], list[LIST_LEN] = "";
    int i;

    if (!ld->ms_cluster)
        return 0;
    if (ld_str(ld, ld->ms_cluster, "workload.measured_step.cluster", name, sizeof name, 1,
               "a cluster name"))
        return -1;
    for (i = 0; i < sc->nclusters; i++) {
        if (strcmp(sc->clusters[i].name, name) == 0) {
            sc->measured_cluster = i;
            return 0;
        }
        list_add(list, sizeof list, sc->clusters[i].name);
    }
    return ld_fail(ld, ld->ms_cluster->start_mark, "workload.measured_step.cluster",
                   "unknown cluster \"%s\", expected one of %s", name, list);
}

/* ------------------------------------------------------ plan: the search */

/*
 * The plan: section (docs/plan.md): what the catalog search may consider.
 * Parsed last, so that it can check the objective and input sections.
 */

/* Some inline or catalog instance type is selected by pattern pat. */
static int ld_plan_name_known(struct ld *ld, const char *pat, char *near, size_t cap)
{
    int i;

    for (i = 0; i < ld->ninst; i++)
        if (catalog_name_matches(pat, ld->inst[i].name))
            return 1;
    for (i = 0; i < ld->cat->ninstances; i++)
        if (catalog_name_matches(pat, ld->cat->instances[i].name))
            return 1;
    catalog_suggest_instance(ld->cat, pat, near, cap);
    return 0;
}

static int ld_plan_names(struct ld *ld, yaml_node_t *l, const char *field)
{
    struct sc_plan *p = &ld->sc->plan;
    char f[FIELD_LEN], near[LIST_LEN];
    int i;

    if (ld_list(ld, l, field, 1, SC_PLAN_MAX_NAMES, "instance types or families"))
        return -1;
    p->ninstances = list_len(l);
    for (i = 0; i < p->ninstances; i++) {
        yaml_node_t *v = list_item(ld, l, i);
        path_idx(f, sizeof f, field, i);
        if (ld_str(ld, v, f, p->instances[i], sizeof p->instances[i], 1,
                   "an instance type or family"))
            return -1;
        if (!ld_plan_name_known(ld, p->instances[i], near, sizeof near))
            return ld_fail(ld, v->start_mark, f,
                           "expected an instance type or family of the catalog, found \"%s\"%s%s%s",
                           p->instances[i], *near ? " (did you mean " : "", near,
                           *near ? "?)" : "");
    }
    return 0;
}

static int ld_plan_regions(struct ld *ld, yaml_node_t *l)
{
    struct sc_plan *p = &ld->sc->plan;
    char f[FIELD_LEN], list[LIST_LEN] = "";
    int i, k, j;

    if (ld_list(ld, l, "plan.regions", 1, SC_PLAN_MAX_REGIONS, "regions"))
        return -1;
    p->nregions = list_len(l);
    for (i = 0; i < p->nregions; i++) {
        yaml_node_t *v = list_item(ld, l, i);
        int found = 0;
        path_idx(f, sizeof f, "plan.regions", i);
        if (ld_str(ld, v, f, p->regions[i], sizeof p->regions[i], 1, "a region"))
            return -1;
        for (k = 0; k < ld->ninst && !found; k++)
            found = strcmp(ld->inst[k].region, p->regions[i]) == 0;
        for (k = 0; k < ld->cat->ninstances && !found; k++)
            found = strcmp(ld->cat->instances[k].region, p->regions[i]) == 0;
        if (found)
            continue;
        for (k = 0; k < ld->cat->ninstances; k++) {
            for (j = 0; j < k; j++)
                if (strcmp(ld->cat->instances[j].region, ld->cat->instances[k].region) == 0)
                    break;
            if (j == k && ld->cat->instances[k].region[0])
                list_add(list, sizeof list, ld->cat->instances[k].region);
        }
        return ld_fail(ld, v->start_mark, f, "expected a region of the catalog (%s), found \"%s\"", list,
                       p->regions[i]);
    }
    return 0;
}

static int ld_plan(struct ld *ld, yaml_node_t *m)
{
    static const char *const keys[] = {
        "instances", "regions", "spot", "max_nodes", "max_gpus", "max_data_nodes", "max_ps",
        "strategies", "bucket_mb", "cpu_training", "budget_usd_h", "deadline_h",
        "max_data_channels", "top", "search_steps", "search_warmup", NULL
    };
    struct scenario *sc = ld->sc;
    struct sc_plan *p = &sc->plan;
    char f[FIELD_LEN];
    yaml_node_t *v, *k;
    int i, s;

    scenario_plan_defaults(p);
    p->present = 1;
    if (m->type == YAML_SCALAR_NODE && m->data.scalar.length == 0)
        return 0; /* "plan:" alone: every default */
    if (ld_map(ld, m, "plan", keys))
        return -1;
    if ((v = ld_get(ld, m, "instances", NULL)) && ld_plan_names(ld, v, "plan.instances"))
        return -1;
    if ((v = ld_get(ld, m, "regions", NULL)) && ld_plan_regions(ld, v))
        return -1;
    if ((v = ld_get(ld, m, "spot", NULL)) && ld_bool(ld, v, "plan.spot", &p->spot))
        return -1;
    if ((v = ld_get(ld, m, "max_nodes", NULL)) &&
        ld_int(ld, v, "plan.max_nodes", 1, 4096, "a positive integer", &p->max_nodes))
        return -1;
    if ((v = ld_get(ld, m, "max_gpus", NULL)) &&
        ld_int(ld, v, "plan.max_gpus", 1, 1000000, "a positive integer", &p->max_gpus))
        return -1;
    if ((v = ld_get(ld, m, "max_data_nodes", NULL)) &&
        ld_int(ld, v, "plan.max_data_nodes", 0, 4096, "a non-negative integer",
               &p->max_data_nodes))
        return -1;
    if ((v = ld_get(ld, m, "max_ps", NULL)) &&
        ld_int(ld, v, "plan.max_ps", 0, 4096, "a non-negative integer", &p->max_ps))
        return -1;
    if ((v = ld_get(ld, m, "strategies", NULL))) {
        if (ld_list(ld, v, "plan.strategies", 1, SIM_NSTRATEGY, "strategies"))
            return -1;
        p->strategies = 0;
        for (i = 0; i < list_len(v); i++) {
            path_idx(f, sizeof f, "plan.strategies", i);
            if (ld_enum(ld, list_item(ld, v, i), f, sim_strategy_name, &s))
                return -1;
            p->strategies |= 1u << s;
        }
    }
    if ((v = ld_get(ld, m, "bucket_mb", NULL))) {
        if (ld_list(ld, v, "plan.bucket_mb", 1, SC_PLAN_MAX_BUCKETS, "sizes"))
            return -1;
        p->nbuckets = list_len(v);
        for (i = 0; i < p->nbuckets; i++) {
            double mib;
            path_idx(f, sizeof f, "plan.bucket_mb", i);
            if (ld_num(ld, list_item(ld, v, i), f, 0, 1, 65536, "a size in MiB in (0, 65536]",
                       &mib))
                return -1;
            p->bucket_bytes[i] = mib * DT_MIB;
        }
    }
    if ((v = ld_get(ld, m, "cpu_training", NULL)) &&
        ld_bool(ld, v, "plan.cpu_training", &p->cpu_training))
        return -1;
    if ((v = ld_get(ld, m, "budget_usd_h", &k))) {
        if (!isnan(sc->budget_usd_h))
            return ld_fail(ld, k->start_mark, "plan.budget_usd_h",
                           "expected one budget, found objective.budget_usd_h too");
        if (ld_num(ld, v, "plan.budget_usd_h", 0, 1, 1e9, "USD per hour in (0, 1e9]",
                   &sc->budget_usd_h))
            return -1;
    }
    if ((v = ld_get(ld, m, "deadline_h", &k))) {
        if (!isnan(sc->deadline_h))
            return ld_fail(ld, k->start_mark, "plan.deadline_h",
                           "expected one deadline, found objective.deadline_h too");
        if (ld_num(ld, v, "plan.deadline_h", 0, 1, 1e6, "hours in (0, 1e6]", &sc->deadline_h))
            return -1;
        if (isnan(sc->dataset_samples))
            return ld_fail(ld, v->start_mark, "plan.deadline_h",
                           "expected input.dataset_samples with a deadline, found none");
    }
    if ((v = ld_get(ld, m, "max_data_channels", &k))) {
        if (sc->max_data_channels > 0)
            return ld_fail(ld, k->start_mark, "plan.max_data_channels",
                           "expected one limit, found objective.max_data_channels too");
        if (ld_int(ld, v, "plan.max_data_channels", 1, 1000000, "a positive integer",
                   &sc->max_data_channels))
            return -1;
    }
    if ((v = ld_get(ld, m, "top", NULL)) &&
        ld_int(ld, v, "plan.top", 1, 1000, "a positive integer", &p->top))
        return -1;
    if ((v = ld_get(ld, m, "search_steps", NULL)) &&
        ld_int(ld, v, "plan.search_steps", 1, 100000, "a positive integer", &p->search_steps))
        return -1;
    if ((v = ld_get(ld, m, "search_warmup", NULL)) &&
        ld_int(ld, v, "plan.search_warmup", 0, 10000, "a non-negative integer",
               &p->search_warmup))
        return -1;
    return 0;
}

/* The whole document, section by section in dependency order. */
static int ld_root(struct ld *ld)
{
    static const char *const keys[] = {
        "name", "catalog", "workload", "input", "gradients", "clusters", "fabric",
        "objective", "simulation", "plan", "profile", NULL
    };
    yaml_node_t *r = ld->root, *v, *k;
    char fb[FOUND_LEN];

    if (r->type != YAML_MAPPING_NODE)
        return ld_fail(ld, r->start_mark, "document",
                       "expected a mapping with workload and clusters, found %s",
                       ld_found(r, fb, sizeof fb));
    if (ld_map(ld, r, "", keys))
        return -1;
    if ((v = ld_get(ld, r, "name", NULL)) &&
        ld_str(ld, v, "name", ld->sc->name, sizeof ld->sc->name, 1, "a name"))
        return -1;
    if ((v = ld_get(ld, r, "catalog", NULL)) && ld_catalog(ld, v))
        return -1;
    if ((v = ld_get(ld, r, "profile", NULL)) && ld_profile(ld, v, "profile", NULL))
        return -1;
    if (!(v = ld_get(ld, r, "workload", &k)))
        return ld_missing(ld, r->start_mark, "workload");
    if (ld_workload(ld, v, k->start_mark))
        return -1;
    if ((v = ld_get(ld, r, "input", &k)) ? ld_input(ld, v, k->start_mark)
                                         : ld_input(ld, NULL, r->start_mark))
        return -1;
    if ((v = ld_get(ld, r, "gradients", NULL)) && ld_gradients(ld, v))
        return -1;
    if (!(v = ld_get(ld, r, "clusters", NULL))) {
        if (!ld_get(ld, r, "plan", NULL)) /* a plan: section searches instead */
            return ld_missing(ld, r->start_mark, "clusters");
    } else if (ld_clusters(ld, v)) {
        return -1;
    }
    if (ld_measured_cluster(ld))
        return -1;
    if ((v = ld_get(ld, r, "fabric", NULL)) && ld_fabric(ld, v))
        return -1;
    if ((v = ld_get(ld, r, "objective", NULL)) && ld_objective(ld, v))
        return -1;
    if ((v = ld_get(ld, r, "simulation", NULL)) && ld_simulation(ld, v))
        return -1;
    if ((v = ld_get(ld, r, "plan", NULL)) && ld_plan(ld, v))
        return -1;
    return ld_catalog_profiles(ld);
}

/*
 * The file is valid: add the inline definitions to the catalog (it takes
 * their strings) and point every reference at the final catalog entries.
 */
static void ld_commit(struct ld *ld)
{
    struct scenario *sc = ld->sc;
    int i, j;

    for (i = 0; i < ld->nmodels; i++) {
        catalog_put_model(ld->cat, &ld->models[i]);
        ld->models[i].source = NULL;
    }
    for (i = 0; i < ld->ninst; i++) {
        catalog_put_instance(ld->cat, &ld->inst[i]);
        ld->inst[i].intra_link_text = NULL;
        ld->inst[i].source = NULL;
    }
    ld->nmodels = ld->ninst = 0;
    sc->catalog = ld->cat;
    sc->model = catalog_find_model(ld->cat, ld->model_name);
    sc->measured_gpu = *ld->gpu_name ? catalog_find_gpu(ld->cat, ld->gpu_name) : NULL;
    sc->cpu_measured_on = *ld->cpu_on_name ? catalog_find_instance(ld->cat, ld->cpu_on_name) : NULL;
    for (i = 0; i < sc->nclusters; i++)
        for (j = 0; j < sc->clusters[i].ngroups; j++)
            sc->clusters[i].groups[j].inst =
                catalog_find_instance(ld->cat, ld->group_inst[i * SC_MAX_GROUPS + j]);
}

/* ---------------------------------------------------------------- entry */

/* Read the whole file into *buf (NUL-terminated); *len excludes the NUL. */
static int ld_read(const char *path, char **buf, size_t *len, struct dt_err *e)
{
    FILE *f = fopen(path, "rb");
    size_t cap = 4096, n = 0, got;
    char *b;
    int rc = -1;

    if (!f)
        return dt_errf(e, "%s: cannot open: %s", path, strerror(errno));
    b = x_malloc(cap);
    for (;;) {
        if (n + 1 >= cap) {
            cap *= 2;
            b = x_realloc(b, cap);
        }
        got = fread(b + n, 1, cap - 1 - n, f);
        n += got;
        if (got == 0)
            break;
        if (n > SC_MAX_FILE_BYTES) {
            dt_errf(e, "%s:1:1: document: expected a scenario of at most %zu MiB, found a "
                    "larger file", path, SC_MAX_FILE_BYTES >> 20);
            goto close_file;
        }
    }
    if (ferror(f)) {
        dt_errf(e, "%s: cannot read: %s", path, strerror(errno));
        goto close_file;
    }
    b[n] = '\0';
    *buf = b;
    *len = n;
    b = NULL;
    rc = 0;
close_file:
    fclose(f);
    x_free(b);
    return rc;
}

/* libyaml's problem as FILE:LINE:COL: malformed YAML: PROBLEM. */
static int ld_yaml_error(struct ld *ld, const yaml_parser_t *p, const char *buf, size_t len)
{
    yaml_mark_t m = p->problem_mark;
    const char *problem = p->problem ? p->problem : "cannot parse";
    size_t i;

    if (p->error == YAML_MEMORY_ERROR)
        problem = "out of memory";
    if (p->error == YAML_READER_ERROR) { /* the reader reports a byte offset only */
        memset(&m, 0, sizeof m);
        for (i = 0; i < p->problem_offset && i < len; i++) {
            if (buf[i] == '\n') {
                m.line++;
                m.column = 0;
            } else
                m.column++;
        }
    }
    return dt_errf(ld->e, "%s:%lu:%lu: malformed YAML: %s", ld->file, (unsigned long)m.line + 1,
                   (unsigned long)m.column + 1, problem);
}

/*
 * First pass over libyaml's events, before the document is built: reject
 * nesting deeper than SC_MAX_DEPTH, more than SC_MAX_ANCHORS anchors and
 * aliases and more than SC_MAX_NODES nodes.  libyaml's scanner spends O(flow
 * depth) per token and its loader O(anchors) per anchor and alias, and a node
 * costs about 100 bytes, so without these bounds a crafted file of a few MiB
 * would keep the loader busy for hours or take gigabytes.  Malformed YAML is
 * reported here with the same message the loader would give.  O(file size).
 */
static int ld_prescan(struct ld *ld, const char *buf, size_t len)
{
    yaml_parser_t p;
    yaml_event_t ev;
    int depth = 0, anchors = 0, nodes = 0, done = 0, rc = -1;
    const char *what = NULL;
    int limit = 0;

    if (!yaml_parser_initialize(&p))
        return dt_errf(ld->e, "%s: cannot start the YAML parser: out of memory", ld->file);
    yaml_parser_set_input_string(&p, (const unsigned char *)buf, len);
    while (!done) {
        if (!yaml_parser_parse(&p, &ev)) {
            ld_yaml_error(ld, &p, buf, len);
            goto free_parser;
        }
        switch (ev.type) {
        case YAML_STREAM_END_EVENT:
            done = 1;
            break;
        case YAML_MAPPING_START_EVENT:
            depth++;
            anchors += ev.data.mapping_start.anchor != NULL;
            break;
        case YAML_SEQUENCE_START_EVENT:
            depth++;
            anchors += ev.data.sequence_start.anchor != NULL;
            break;
        case YAML_MAPPING_END_EVENT:
        case YAML_SEQUENCE_END_EVENT:
            depth--;
            break;
        case YAML_SCALAR_EVENT:
            anchors += ev.data.scalar.anchor != NULL;
            break;
        case YAML_ALIAS_EVENT:
            anchors++;
            break;
        default:
            break;
        }
        nodes += ev.type == YAML_MAPPING_START_EVENT || ev.type == YAML_SEQUENCE_START_EVENT ||
                 ev.type == YAML_SCALAR_EVENT || ev.type == YAML_ALIAS_EVENT;
        if (depth > SC_MAX_DEPTH) {
            what = "levels of nesting";
            limit = SC_MAX_DEPTH;
        } else if (anchors > SC_MAX_ANCHORS) {
            what = "anchors and aliases";
            limit = SC_MAX_ANCHORS;
        } else if (nodes > SC_MAX_NODES) {
            what = "YAML nodes";
            limit = SC_MAX_NODES;
        }
        if (what) {
            ld_fail(ld, ev.start_mark, "document", "expected at most %d %s, found more", limit,
                    what);
            yaml_event_delete(&ev);
            goto free_parser;
        }
        yaml_event_delete(&ev);
    }
    rc = 0;
free_parser:
    yaml_parser_delete(&p);
    return rc;
}

/* Every field at its default; the name is the file name without its extension. */
static void sc_defaults(struct scenario *sc, const char *path)
{
    const char *base = strrchr(path, '/'), *dot;
    char name[sizeof sc->name];
    size_t n;

    base = base ? base + 1 : path;
    dot = strrchr(base, '.');
    n = (dot && dot != base) ? (size_t)(dot - base) : strlen(base);
    if (n >= sizeof name)
        n = sizeof name - 1;
    memcpy(name, base, n);
    name[n] = '\0';
    scenario_defaults(sc, name);
}

int scenario_load(struct scenario *sc, const char *path, struct catalog *cat, struct dt_err *e)
{
    struct ld ld;
    yaml_parser_t parser;
    yaml_document_t doc, extra;
    yaml_node_t *second;
    char *buf = NULL;
    size_t len = 0;
    int rc = -1, i;

    memset(&ld, 0, sizeof ld);
    ld.file = path;
    ld.doc = &doc;
    ld.cat = cat;
    ld.e = e;
    ld.sc = sc;
    sc_defaults(sc, path);

    if (ld_read(path, &buf, &len, e))
        goto out;
    if (ld_prescan(&ld, buf, len))
        goto free_buf;
    if (!yaml_parser_initialize(&parser)) {
        dt_errf(e, "%s: cannot start the YAML parser: out of memory", path);
        goto free_buf;
    }
    yaml_parser_set_input_string(&parser, (const unsigned char *)buf, len);
    if (!yaml_parser_load(&parser, &doc)) { /* libyaml frees doc itself on failure */
        ld_yaml_error(&ld, &parser, buf, len);
        goto free_parser;
    }
    ld.root = yaml_document_get_root_node(&doc);
    if (!ld.root) {
        dt_errf(e, "%s:1:1: document: expected a mapping with workload and clusters, found an "
                "empty document", path);
        goto free_doc;
    }
    if (!yaml_parser_load(&parser, &extra)) {
        ld_yaml_error(&ld, &parser, buf, len);
        goto free_doc;
    }
    second = yaml_document_get_root_node(&extra);
    if (second)
        ld_fail(&ld, second->start_mark, "document",
                "expected a single YAML document, found a second one");
    yaml_document_delete(&extra);
    if (second)
        goto free_doc;

    rc = ld_root(&ld);
    if (rc == 0)
        ld_commit(&ld);

free_doc:
    yaml_document_delete(&doc);
free_parser:
    yaml_parser_delete(&parser);
free_buf:
    x_free(buf);
out:
    for (i = 0; i < ld.ninst; i++)
        inst_release(&ld.inst[i]);
    for (i = 0; i < ld.nmodels; i++)
        x_free(ld.models[i].source);
    x_free(ld.inst);
    x_free(ld.models);
    x_free(ld.group_inst);
    if (rc) {
        x_free(sc->clusters);
        x_free(sc->profiles);
        sc_defaults(sc, path);
    }
    return rc;
}
