/*
 * profile.c - calibration profile I/O and validation (profile.h).
 *
 * Validation walks the tree with a path of keys and indices; on an error the
 * path is both printed (cpu.pipelines[0].points[3].time_s) and used to find
 * the value in the text (json_locate), which gives the line and column.
 * Fields a profile may carry beyond those checked here are kept and
 * ignored, so parts can add detail without a schema change.  Cost: O(size)
 * to parse and validate; locating an error rescans the text once.
 */
#include "profile.h"

#include <cJSON.h>
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../base/atomic.h"
#include "../base/files.h"
#include "../base/text.h"
#include "usl.h"
#include "../base/names.h"

#define PROFILE_MAX_BYTES ((size_t)64 << 20)
#define VP_DEPTH 8

/* ------------------------------------------------------------ locating */

static const char *skip_ws(const char *p, const char *end)
{
    while (p < end && (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r'))
        p++;
    return p;
}

static const char *skip_string(const char *p, const char *end)
{
    p++; /* opening quote */
    while (p < end && *p != '"') {
        if (*p == '\\')
            p++;
        p++;
    }
    return p < end ? p + 1 : end;
}

static const char *skip_value(const char *p, const char *end)
{
    p = skip_ws(p, end);
    if (p >= end)
        return end;
    if (*p == '"')
        return skip_string(p, end);
    if (*p == '{' || *p == '[') {
        int depth = 0;
        while (p < end) {
            if (*p == '"') {
                p = skip_string(p, end);
                continue;
            }
            if (*p == '{' || *p == '[')
                depth++;
            else if (*p == '}' || *p == ']') {
                if (--depth == 0)
                    return p + 1;
            }
            p++;
        }
        return end;
    }
    while (p < end && *p != ',' && *p != '}' && *p != ']' && !isspace((unsigned char)*p))
        p++;
    return p;
}

struct vpath {
    const char *key[VP_DEPTH];  /* NULL: an index */
    int idx[VP_DEPTH];
    int depth;
};

/* Offset of the value at vp in valid JSON text, or of the deepest parent
 * found; where a key is given more than once, the nth (from 1) of the last
 * level's, the first of the others. */
static size_t json_locate_nth(const char *text, size_t len, const struct vpath *vp, int nth)
{
    const char *end = text + len, *p = skip_ws(text, end);

    for (int d = 0; d < vp->depth && p < end; d++) {
        const char *found = NULL;
        if (vp->key[d] && *p == '{') {
            const char *q = skip_ws(p + 1, end);
            size_t kl = strlen(vp->key[d]);
            int seen = 0, want = d == vp->depth - 1 && nth > 1 ? nth : 1;
            while (q < end && *q == '"') {
                const char *ke = skip_string(q, end);
                int match = (size_t)(ke - q) == kl + 2 && !memcmp(q + 1, vp->key[d], kl);
                q = skip_ws(ke, end);
                if (q < end && *q == ':')
                    q = skip_ws(q + 1, end);
                if (match && ++seen == want) {
                    found = q;
                    break;
                }
                q = skip_ws(skip_value(q, end), end);
                if (q < end && *q == ',')
                    q = skip_ws(q + 1, end);
            }
        } else if (!vp->key[d] && *p == '[') {
            const char *q = skip_ws(p + 1, end);
            for (int i = 0; i < vp->idx[d] && q < end; i++) {
                q = skip_ws(skip_value(q, end), end);
                if (q < end && *q == ',')
                    q = skip_ws(q + 1, end);
            }
            found = q;
        }
        if (!found)
            break;
        p = found;
    }
    return (size_t)(p - text);
}

static size_t json_locate(const char *text, size_t len, const struct vpath *vp)
{
    return json_locate_nth(text, len, vp, 1);
}

static void line_col(const char *text, size_t off, int *line, int *col)
{
    *line = 1;
    *col = 1;
    for (size_t i = 0; i < off; i++) {
        if (text[i] == '\n') {
            (*line)++;
            *col = 1;
        } else {
            (*col)++;
        }
    }
}

/* ----------------------------------------------------------- validating */

struct vctx {
    const char *path, *text;
    size_t len;
    struct vpath vp;
    struct dt_err *e;
};

static void vp_name(const struct vpath *vp, const char *last, char *buf, size_t cap)
{
    size_t n = 0;
    buf[0] = '\0';
    for (int d = 0; d < vp->depth && n < cap; d++) {
        if (vp->key[d])
            n += (size_t)snprintf(buf + n, cap - n, "%s%s", n ? "." : "", vp->key[d]);
        else
            n += (size_t)snprintf(buf + n, cap - n, "[%d]", vp->idx[d]);
    }
    if (last && n < cap)
        snprintf(buf + n, cap - n, "%s%s", n ? "." : "", last);
    if (!buf[0])
        snprintf(buf, cap, "document");
}

static void found_text(const cJSON *v, char *buf, size_t cap)
{
    if (!v)
        snprintf(buf, cap, "nothing");
    else if (cJSON_IsString(v))
        snprintf(buf, cap, "\"%.60s\"", v->valuestring);
    else if (cJSON_IsNumber(v))
        snprintf(buf, cap, "%.17g", v->valuedouble);
    else if (cJSON_IsBool(v))
        snprintf(buf, cap, "%s", cJSON_IsTrue(v) ? "true" : "false");
    else if (cJSON_IsNull(v))
        snprintf(buf, cap, "null");
    else if (cJSON_IsArray(v))
        snprintf(buf, cap, "a list");
    else
        snprintf(buf, cap, "an object");
}

/* Error at member `key` of the current object (its value, or the object
 * itself when the member is missing). */
static int vfail(struct vctx *c, const char *key, const cJSON *v, const char *expected)
{
    struct vpath at = c->vp;
    char field[256], found[96];
    int line, col;

    if (key && v && at.depth < VP_DEPTH) {
        at.key[at.depth] = key;
        at.depth++;
    }
    line_col(c->text, json_locate(c->text, c->len, &at), &line, &col);
    vp_name(&c->vp, key, field, sizeof field);
    found_text(v, found, sizeof found);
    return dt_errf(c->e, "%s:%d:%d: %s: expected %s, found %s", c->path, line, col, field,
                   expected, found);
}

static void vpush_key(struct vctx *c, const char *k)
{
    c->vp.key[c->vp.depth] = k;
    c->vp.depth++;
}

static void vpush_idx(struct vctx *c, int i)
{
    c->vp.key[c->vp.depth] = NULL;
    c->vp.idx[c->vp.depth] = i;
    c->vp.depth++;
}

static void vpop(struct vctx *c)
{
    c->vp.depth--;
}

static const cJSON *get(const cJSON *o, const char *k)
{
    return cJSON_GetObjectItemCaseSensitive(o, k);
}

/* Member k of o into *v: 1 when there is a value to check, 0 when absent
 * and optional or null and nullable, -1 (error set, expecting `expected`)
 * when absent and required. */
static int vget(struct vctx *c, const cJSON *o, const char *k, int required, int nullable,
                const char *expected, const cJSON **v)
{
    *v = get(o, k);
    if (!*v)
        return required ? vfail(c, k, NULL, expected) : 0;
    return nullable && cJSON_IsNull(*v) ? 0 : 1;
}

/* Number member in [lo, hi]; optional: absent is fine; nullable: null is fine. */
static int vnum(struct vctx *c, const cJSON *o, const char *k, double lo, double hi, int required,
                int nullable, const char *expected)
{
    const cJSON *v;
    int r = vget(c, o, k, required, nullable, expected, &v);
    if (r <= 0)
        return r;
    if (!cJSON_IsNumber(v) || !(v->valuedouble >= lo && v->valuedouble <= hi))
        return vfail(c, k, v, expected);
    return 0;
}

static int vint(struct vctx *c, const cJSON *o, const char *k, int lo, int required,
                const char *expected)
{
    const cJSON *v;
    int r = vget(c, o, k, required, 0, expected, &v);
    if (r <= 0)
        return r;
    if (!cJSON_IsNumber(v) || v->valuedouble != floor(v->valuedouble) || v->valuedouble < lo ||
        v->valuedouble > 1e9)
        return vfail(c, k, v, expected);
    return 0;
}

static int vstr(struct vctx *c, const cJSON *o, const char *k, int required, int nullable,
                const char *(*choices)(int), const char *expected)
{
    char oneof[160];
    const cJSON *v;
    int r;

    if (choices) {  /* a closed set: "one of a, b, c" */
        memcpy(oneof, "one of ", 8);
        names_join(choices, oneof + 7, sizeof oneof - 7);
        expected = oneof;
    }
    r = vget(c, o, k, required, nullable, expected, &v);
    if (r <= 0)
        return r;
    if (!cJSON_IsString(v))
        return vfail(c, k, v, expected);
    if (!text_ok(v->valuestring))
        return vfail(c, k, v, "printable UTF-8 text on one line");
    if (choices && names_parse(choices, v->valuestring) < 0)
        return vfail(c, k, v, expected);
    return 0;
}

static const char *const transports[] = {"nccl", "mpi", "cmd", NULL};
static const char *transport_name(int i) { return NAMES_AT(transports, i); }

/* Member k must be of the type `is` accepts (or absent when optional);
 * *out receives it. */
static int vtyped(struct vctx *c, const cJSON *o, const char *k, int required,
                  cJSON_bool (*is)(const cJSON *const), const char *expected, const cJSON **out)
{
    const cJSON *v;
    int r = vget(c, o, k, required, 0, expected, &v);
    *out = NULL;
    if (r <= 0)
        return r;
    if (!is(v))
        return vfail(c, k, v, expected);
    *out = v;
    return 0;
}

static int varr(struct vctx *c, const cJSON *o, const char *k, int required, const cJSON **out)
{
    return vtyped(c, o, k, required, cJSON_IsArray, "a list", out);
}

static int vobj(struct vctx *c, const cJSON *o, const char *k, int required, const cJSON **out)
{
    return vtyped(c, o, k, required, cJSON_IsObject, "an object", out);
}

/* Check each item of arr (NULL: none) with fn, the path at k[i]. */
static int vitems(struct vctx *c, const char *k, const cJSON *arr,
                  int (*fn)(struct vctx *, const cJSON *))
{
    const cJSON *it;
    int i = 0;

    vpush_key(c, k);
    cJSON_ArrayForEach(it, arr) {
        vpush_idx(c, i++);
        if (fn(c, it))
            return -1;
        vpop(c);
    }
    vpop(c);
    return 0;
}

int profile_time_ok(double t)
{
    return t >= PROFILE_MIN_TIME_S && t <= PROFILE_MAX_TIME_S;
}

static int v_pipeline_point(struct vctx *c, const cJSON *pt)
{
    if (!cJSON_IsObject(pt))
        return vfail(c, NULL, pt, "an object");
    return vint(c, pt, "workers", 1, 1, "a worker count >= 1") ||
           vnum(c, pt, "time_s", PROFILE_MIN_TIME_S, PROFILE_MAX_TIME_S, 1, 0,
                PROFILE_TIME_EXPECTED) ||
           vnum(c, pt, "samples_per_s", 1e-12, 1e15, 1, 0, "a rate in samples/s > 0") ? -1 : 0;
}

static int v_collective_point(struct vctx *c, const cJSON *pt)
{
    if (!cJSON_IsObject(pt))
        return vfail(c, NULL, pt, "an object");
    return vnum(c, pt, "bytes", 0, 1e15, 1, 0, "a size in bytes >= 0") ||
           vnum(c, pt, "time_s", PROFILE_MIN_TIME_S, PROFILE_MAX_TIME_S, 1, 0,
                PROFILE_TIME_EXPECTED) ? -1 : 0;
}

static int v_gemm(struct vctx *c, const cJSON *it)
{

    if (!cJSON_IsObject(it))
        return vfail(c, NULL, it, "an object");
    return vstr(c, it, "precision", 1, 0, catalog_prec_name, NULL) ||
           vnum(c, it, "tflops", 1e-9, 1e6, 1, 0, "TFLOP/s > 0") ? -1 : 0;
}

static int v_pipeline(struct vctx *c, const cJSON *pl)
{
    const cJSON *pts, *fit;

    if (!cJSON_IsObject(pl))
        return vfail(c, NULL, pl, "an object");
    if (vstr(c, pl, "name", 1, 0, NULL, "a pipeline name") ||
        vstr(c, pl, "command", 0, 1, NULL, "a command or null") ||
        vint(c, pl, "cores", 1, 0, "a core count >= 1") ||
        varr(c, pl, "points", 1, &pts) || vitems(c, "points", pts, v_pipeline_point) ||
        vobj(c, pl, "fit", 0, &fit))
        return -1;
    if (fit) {
        vpush_key(c, "fit");
        if (vnum(c, fit, "lambda_samples_per_s", 1e-12, 1e15, 1, 0, "a rate in samples/s > 0") ||
            vnum(c, fit, "sigma", -1e6, 1e6, 0, 1, "a number or null") ||
            vnum(c, fit, "kappa", -1e6, 1e6, 0, 1, "a number or null") ||
            vstr(c, fit, "quality", 1, 0, usl_quality_name, NULL))
            return -1;
        vpop(c);
    }
    return 0;
}

static int v_collective(struct vctx *c, const cJSON *co)
{
    const cJSON *pts, *ov;

    if (!cJSON_IsObject(co))
        return vfail(c, NULL, co, "an object");
    if (vstr(c, co, "name", 1, 0, NULL, "a collective name") ||
        vstr(c, co, "command", 0, 1, NULL, "a command or null") ||
        vstr(c, co, "transport", 1, 0, transport_name, NULL) ||
        vint(c, co, "ranks", 1, 1, "a rank count >= 1") ||
        vint(c, co, "hosts", 1, 1, "a host count >= 1") ||
        vint(c, co, "servers", 1, 0, "a server count >= 1") ||
        vnum(c, co, "alpha_s", -1e3, 1e3, 0, 1, "a latency in seconds or null") ||
        vnum(c, co, "beta_s_per_byte", -1, 1, 0, 1, "seconds per byte or null") ||
        vnum(c, co, "bus_factor", 1e-9, 1e3, 0, 1, "a bus-bandwidth factor > 0 or null") ||
        varr(c, co, "points", 1, &pts) ||
        vobj(c, co, "pull_overlap", 0, &ov) ||
        vnum(c, co, "comm_slowdown", 0.5, 100, 0, 0, "a factor from 0.5 to 100"))
        return -1;
    if (ov) {
        vpush_key(c, "pull_overlap");
        if (vnum(c, ov, "first_pull_frac", 1e-6, 1, 1, 0, "a fraction in (0, 1]"))
            return -1;
        vpop(c);
    }
    return vitems(c, "points", pts, v_collective_point);
}

static int v_root(struct vctx *c, const cJSON *root)
{
    const cJSON *v, *cpu, *arr, *gpu;

    if (!cJSON_IsObject(root))
        return vfail(c, NULL, root, "a profile object");
    v = get(root, "schema_version");
    if (!v)
        return vfail(c, "schema_version", NULL, "schema version 1");
    if (!cJSON_IsNumber(v) || v->valuedouble != PROFILE_SCHEMA_VERSION)
        return vfail(c, "schema_version", v, "schema version 1");
    if (vstr(c, root, "host", 1, 0, NULL, "a host name") ||
        vstr(c, root, "date", 1, 0, NULL, "a date (ISO 8601)") ||
        vstr(c, root, "instance", 0, 1, NULL, "an instance type name or null") ||
        vobj(c, root, "cpu", 0, &cpu))
        return -1;
    if (cpu) {
        vpush_key(c, "cpu");
        if (varr(c, cpu, "pipelines", 0, &arr) || vitems(c, "pipelines", arr, v_pipeline))
            return -1;
        vpop(c);
    }
    if (vobj(c, root, "gpu", 0, &gpu))
        return -1;
    if (gpu) {
        vpush_key(c, "gpu");
        const cJSON *launch;
        if (varr(c, gpu, "gemm", 0, &arr) || vitems(c, "gemm", arr, v_gemm) ||
            vobj(c, gpu, "bandwidth", 0, &arr) || vobj(c, gpu, "launch", 0, &launch))
            return -1;
        if (launch) {
            vpush_key(c, "launch");
            if (vnum(c, launch, "kernel_s", PROFILE_MIN_TIME_S, 1e-2, 1, 0,
                     "seconds a launch in [1e-12, 0.01]") ||
                vnum(c, launch, "sync_s", PROFILE_MIN_TIME_S, 1, 0, 0,
                     "seconds a synchronisation in [1e-12, 1]"))
                return -1;
            vpop(c);
        }
        vpop(c);
    }
    if (varr(c, root, "collectives", 0, &arr))
        return -1;
    return vitems(c, "collectives", arr, v_collective);
}

/* A member's key and its place among its object's members. */
struct vkey {
    const char *key;
    int at;
};

static int by_key_then_place(const void *a, const void *b)
{
    const struct vkey *x = a, *y = b;
    int k = strcmp(x->key, y->key);

    return k ? k : (x->at > y->at) - (x->at < y->at);
}

/*
 * Every object of the tree at v (at path c->vp) names each key once: cJSON
 * keeps a key given twice as two members and a lookup takes the first, so
 * a profile with one would be read as half of what it says.  The first
 * key in document order that repeats one before it is reported, at its
 * second occurrence.  O(k log k) an object of k keys, by sorting.
 */
static int vdup(struct vctx *c, const cJSON *v)
{
    const cJSON *m;
    int n = 0, i, rc = 0;

    if (!cJSON_IsObject(v) && !cJSON_IsArray(v))
        return 0;
    for (m = v->child; m; m = m->next)
        n++;
    if (cJSON_IsObject(v) && n > 1) {
        struct vkey *k = x_calloc((size_t)n, sizeof *k);
        int first = -1;
        const char *dup = NULL;
        for (m = v->child, i = 0; m; m = m->next, i++) {
            k[i].key = m->string ? m->string : "";
            k[i].at = i;
        }
        qsort(k, (size_t)n, sizeof *k, by_key_then_place);
        for (i = 1; i < n; i++)
            if (!strcmp(k[i].key, k[i - 1].key) && (first < 0 || k[i].at < first)) {
                first = k[i].at;
                dup = k[i].key;
            }
        if (dup) {
            struct vpath at = c->vp;
            char field[256], found[96];
            int line, col, nth = 0;
            for (m = v->child, i = 0; i <= first; m = m->next, i++)
                nth += !strcmp(m->string ? m->string : "", dup);
            if (at.depth < VP_DEPTH) {
                at.key[at.depth] = dup;
                at.depth++;
            }
            line_col(c->text, json_locate_nth(c->text, c->len, &at, nth), &line, &col);
            vp_name(&c->vp, dup, field, sizeof field);
            snprintf(found, sizeof found, "\"%.60s\"", dup);
            rc = dt_errf(c->e, "%s:%d:%d: %s: expected each key once in an object, found %s "
                         "again", c->path, line, col, field, found);
        }
        x_free(k);
        if (rc)
            return rc;
    }
    for (m = v->child, i = 0; m; m = m->next, i++) {
        int pushed = c->vp.depth < VP_DEPTH;
        if (pushed) {
            c->vp.key[c->vp.depth] = cJSON_IsObject(v) ? m->string : NULL;
            c->vp.idx[c->vp.depth] = i;
            c->vp.depth++;
        }
        rc = vdup(c, m);
        if (pushed)
            c->vp.depth--;
        if (rc)
            return rc;
    }
    return 0;
}

int profile_parse(const char *path, const char *text, size_t len, cJSON **root, struct dt_err *e)
{
    const char *end = NULL;
    struct vctx c;
    cJSON *doc;
    int line, col;

    *root = NULL;
    doc = cJSON_ParseWithLengthOpts(text, len, &end, 0);
    if (!doc || skip_ws(end, text + len) != text + len) {
        size_t off = end ? (size_t)(end - text) : 0;
        char found[24];
        int k = 0;
        if (off > len)
            off = len;
        /* cJSON may stop just past the offending character, at a line's
         * end: point at the last character before the blanks instead. */
        if (off < len && (text[off] == '\n' || text[off] == '\r')) {
            size_t b = off;
            while (b > 0 && isspace((unsigned char)text[b - 1]))
                b--;
            if (b > 0)
                off = b - 1;
        }
        line_col(text, off, &line, &col);
        for (size_t i = off; i < len && k < 16 && text[i] != '\n'; i++)
            found[k++] = isprint((unsigned char)text[i]) ? text[i] : '?';
        found[k] = '\0';
        cJSON_Delete(doc);
        if (off >= len)
            return dt_errf(e, "%s:%d:%d: document: expected valid JSON, found the end of the file",
                           path, line, col);
        return dt_errf(e, "%s:%d:%d: document: expected %s, found \"%s\"", path, line, col,
                       doc ? "the end of the document" : "valid JSON", found);
    }
    memset(&c, 0, sizeof c);
    c.path = path;
    c.text = text;
    c.len = len;
    c.e = e;
    if (vdup(&c, doc) || v_root(&c, doc)) {
        cJSON_Delete(doc);
        return -1;
    }
    *root = doc;
    return 0;
}

int profile_read(const char *path, cJSON **root, struct dt_err *e)
{
    FILE *f = file_open_read(path, e);
    size_t n;
    char *buf;
    int rc;

    *root = NULL;
    if (!f)
        return -1;
    rc = file_read_all(f, path, PROFILE_MAX_BYTES, &buf, &n, e);
    fclose(f);
    if (rc)
        return -1;
    if (memchr(buf, '\0', n)) {
        x_free(buf);
        return dt_errf(e, "%s:1:1: document: expected a JSON profile, found binary data", path);
    }
    rc = profile_parse(path, buf, n, root, e);
    x_free(buf);
    return rc;
}

int profile_write(const char *path, const cJSON *root, struct dt_err *e)
{
    char *text = cJSON_Print(root), *tmp = NULL;
    FILE *f;

    if (!text)
        return dt_errf(e, "%s: cannot format the profile: out of memory", path);
    f = atomic_write_open(path, &tmp, e);
    if (!f) {
        cJSON_free(text);
        return -1;
    }
    if (fputs(text, f) < 0 || fputc('\n', f) < 0) {
        atomic_write_abort(f, tmp);
        cJSON_free(text);
        return dt_errf(e, "%s: write failed: %s", path, strerror(errno));
    }
    cJSON_free(text);
    return atomic_write_commit(f, tmp, path, e);
}

/* ---------------------------------------------------------- summarizing */

static double num_or_nan(const cJSON *o, const char *k)
{
    const cJSON *v = get(o, k);
    return cJSON_IsNumber(v) ? v->valuedouble : NAN;
}

/* Integer member k of o, dflt when absent or not an integer an int holds:
 * the value is checked before the conversion, never after. */
static int int_or(const cJSON *o, const char *k, int dflt)
{
    double x = num_or_nan(o, k);

    return x >= INT_MIN && x <= INT_MAX && x == floor(x) ? (int)x : dflt;
}

/* "all_reduce", "AllReduce", "all-reduce" -> "allreduce". */
static void norm_name(const char *s, char *out, size_t cap)
{
    size_t n = 0;
    for (; *s && n + 1 < cap; s++)
        if (isalnum((unsigned char)*s))
            out[n++] = (char)tolower((unsigned char)*s);
    out[n] = '\0';
}

int profile_coll_shape(const char *name, int k, double *steps, double *factor)
{
    char n[64];

    norm_name(name, n, sizeof n);
    if (strstr(n, "allreduce")) {
        *steps = 2.0 * (k - 1);
        *factor = 2.0 * (k - 1) / k;
    } else if (strstr(n, "allgather") || strstr(n, "reducescatter")) {
        *steps = k - 1;
        *factor = (double)(k - 1) / k;
    } else if (strstr(n, "broadcast")) {
        *steps = 1;
        *factor = 1;
    } else if (strstr(n, "pushpull")) {
        /* push, then pull: one message each way; the part's bus factor
         * (2 max(1, w/s)) carries the servers' incast */
        *steps = 2;
        *factor = 2;
    } else {
        return -1;
    }
    return 0;
}

/* Per-hop latency and per-rank bus bandwidth from t = alpha + beta S of a
 * collective over k ranks (profile_coll_shape, docs/profile.md). */
static int coll_to_link(const char *name, int k, double alpha, double beta, double bus_factor,
                        double *hop_alpha, double *Bps)
{
    double steps, factor;

    if (profile_coll_shape(name, k, &steps, &factor))
        return -1;
    if (k < 2 || !(beta > 0) || isnan(alpha))
        return -1;
    if (alpha < 0)
        alpha = 0; /* an intercept below zero is the fit's noise: no latency */
    if (bus_factor > 0)
        factor = bus_factor; /* the part's own factor, when it wrote one */
    *hop_alpha = alpha / steps;
    *Bps = factor / beta;
    return 0;
}

/* The hops the intercept alpha of collective `name` over k ranks on `hosts`
 * hosts covers, as a ring runs it (sim/coll_ring.c): network and host-link
 * steps, into m (docs/profile.md "Reproducing the measured layout"). */
static void coll_hops(const char *name, int k, int hosts, double alpha, struct prof_measured *m)
{
    double steps, factor, per;

    m->net_hops = m->intra_hops = 0;
    m->net_fit_alpha_s = isnan(alpha) ? NAN : fmax(0, alpha);
    if (profile_coll_shape(name, k, &steps, &factor) || k < 2 || hosts < 2 || hosts > k)
        return;
    per = steps / (k - 1);          /* 2 an all-reduce, 1 a gather or scatter */
    if (per != 1 && per != 2) {     /* broadcast, push/pull: one message a step */
        m->net_hops = steps;
        return;
    }
    m->net_hops = per * (hosts - 1);
    m->intra_hops = per * (k - hosts);
}

/* An all-reduce entry's own fit and layout into f; none for the others. */
static void fit_of(const cJSON *it, const char *name, int k, int hosts, struct prof_fit *f)
{
    char n[64];
    double a = num_or_nan(it, "alpha_s"), b = num_or_nan(it, "beta_s_per_byte");

    memset(f, 0, sizeof *f);
    norm_name(name, n, sizeof n);
    if (!strstr(n, "allreduce") || isnan(a) || !(b > 0) || k < 2 || hosts < 1)
        return;
    f->alpha_s = fmax(0, a);
    f->beta_s = b;
    f->ranks = k;
    f->hosts = hosts;
}

/* Keep entry `it`'s points (sorted by size; the later of equal sizes wins). */
static void curve_from(const cJSON *it, int chunks, struct prof_curve *c)
{
    const cJSON *p;
    double alpha = num_or_nan(it, "alpha_s");

    memset(c, 0, sizeof *c);
    c->bus_factor = num_or_nan(it, "bus_factor");
    c->chunks = chunks > 0 ? chunks : 1;
    if (!(c->bus_factor > 0) || isnan(alpha))
        return;
    c->alpha_s = fmax(0, alpha); /* as coll_to_link: not below zero */
    cJSON_ArrayForEach(p, get(it, "points")) {
        double b = num_or_nan(p, "bytes"), t = num_or_nan(p, "time_s");
        int i, n = c->npts;
        if (!(b > 0) || !(t > 0) || n == PROF_MAX_POINTS)
            continue;
        for (i = 0; i < n && c->bytes[i] <= b; i++)
            ;
        if (i > 0 && c->bytes[i - 1] == b) { /* a size again: the later time wins */
            c->time_s[i - 1] = t;
            continue;
        }
        memmove(&c->bytes[i + 1], &c->bytes[i], sizeof(double) * (size_t)(n - i));
        memmove(&c->time_s[i + 1], &c->time_s[i], sizeof(double) * (size_t)(n - i));
        c->bytes[i] = b;
        c->time_s[i] = t;
        c->npts++;
    }
}

double profile_link_at(const struct prof_curve *c, double msg_bytes, double fitted, double line)
{
    double S = msg_bytes * c->chunks, t, f;
    int i;

    if (c->npts < 2 || !(S >= c->bytes[0]) || !(S <= c->bytes[c->npts - 1]))
        return fitted;
    for (i = 0; i + 2 < c->npts && c->bytes[i + 1] < S; i++)
        ;
    f = (log(S) - log(c->bytes[i])) / (log(c->bytes[i + 1]) - log(c->bytes[i]));
    t = exp(log(c->time_s[i]) + f * (log(c->time_s[i + 1]) - log(c->time_s[i])));
    if (!(t - c->alpha_s > 0))
        return fitted;
    /* Never above the line rate: a size that ran faster did so on a burst
     * after the idle gap between timed operations (a token bucket's), which
     * back-to-back buckets do not get. */
    return fmin(line > 0 ? line : INFINITY, c->bus_factor * S / (t - c->alpha_s));
}

void profile_summarize(const cJSON *root, const char *path, struct prof_measured *m)
{
    const cJSON *v, *it, *arr;
    int best_net = -1, best_intra = -1, best_ps = -1;

    memset(m, 0, sizeof *m);
    snprintf(m->path, sizeof m->path, "%s", path);
    m->cpu_lambda = m->cpu_sigma = m->cpu_kappa = NAN;
    for (int p = 0; p < CAT_NPREC; p++)
        m->gemm_tflops[p] = NAN;
    m->net_alpha_s = m->net_Bps = m->intra_alpha_s = m->intra_Bps = m->net_fit_alpha_s = NAN;
    m->net_ps_alpha_s = m->net_ps_Bps = m->ps_first_pull_frac = NAN;
    if (cJSON_IsString(v = get(root, "instance")))
        snprintf(m->instance, sizeof m->instance, "%s", v->valuestring);
    if (cJSON_IsString(v = get(root, "host")))
        snprintf(m->host, sizeof m->host, "%s", v->valuestring);
    if (cJSON_IsString(v = get(root, "date")))
        snprintf(m->date, sizeof m->date, "%s", v->valuestring);

    arr = get(get(root, "cpu"), "pipelines");
    cJSON_ArrayForEach(it, arr) {
        const cJSON *fit = get(it, "fit"), *q;
        if (!cJSON_IsString(v = get(it, "name")) || strcmp(v->valuestring, "builtin-image") ||
            !cJSON_IsObject(fit))
            continue;
        m->cpu_lambda = num_or_nan(fit, "lambda_samples_per_s");
        m->cpu_sigma = num_or_nan(fit, "sigma");
        m->cpu_kappa = num_or_nan(fit, "kappa");
        m->cpu_cores = int_or(it, "cores", 0);
        if (cJSON_IsString(q = get(fit, "quality")))
            snprintf(m->cpu_quality, sizeof m->cpu_quality, "%s", q->valuestring);
    }

    m->comm_slowdown = NAN;
    m->launch_s = num_or_nan(get(get(root, "gpu"), "launch"), "kernel_s");
    arr = get(get(root, "gpu"), "gemm");
    cJSON_ArrayForEach(it, arr) {
        int p = catalog_prec_parse(get(it, "precision")->valuestring);
        double t = num_or_nan(it, "tflops");
        if (p >= 0 && (isnan(m->gemm_tflops[p]) || t > m->gemm_tflops[p]))
            m->gemm_tflops[p] = t;
    }

    /* Links: the user's own collective (transport "cmd", --coll-cmd) wins,
     * as it is what the workload shares its gradients with; then the
     * collective with the most ranks, a ring all-reduce on a tie (the
     * simulator's ring model).  Fits marked poor are not used. */
    arr = get(root, "collectives");
    cJSON_ArrayForEach(it, arr) {
        int k = int_or(it, "ranks", 0), hosts = int_or(it, "hosts", 0), score;
        const char *tr = get(it, "transport")->valuestring, *nm = get(it, "name")->valuestring;
        double a, B;
        /* a GEMM beside NCCL's all-reduce, over the GEMM alone (nccl_overlap.cu) */
        if (!strcmp(nm, "nccl_all_reduce") && num_or_nan(it, "comm_slowdown") > 0)
            m->comm_slowdown = num_or_nan(it, "comm_slowdown");
        if (cJSON_IsTrue(get(it, "poor_fit")) ||
            coll_to_link(nm, k, num_or_nan(it, "alpha_s"), num_or_nan(it, "beta_s_per_byte"),
                         num_or_nan(it, "bus_factor"), &a, &B)) {
            if (!m->unused[0])
                snprintf(m->unused, sizeof m->unused, "%s %s, %d ranks: %s", tr, nm, k,
                         cJSON_IsTrue(get(it, "poor_fit")) ? "a poor fit" : "no fit");
            continue;
        }
        if (hosts < 2 && strcmp(tr, "nccl") != 0 && !strstr(nm, "pushpull")) {
            /* the user's own stack or MPI on one host: no network in it, and
             * the GPU links come from NCCL's entries */
            if (!m->unused[0])
                snprintf(m->unused, sizeof m->unused, "%s %s, %d ranks on 1 host: no network "
                         "measured", tr, nm, k);
            continue;
        }
        score = 2 * k + (strstr(nm, "ring") != NULL) + (strcmp(tr, "cmd") ? 0 : 1 << 24);
        if (strstr(nm, "pushpull")) {
            /* parameter servers' one-way streams: the link of PS strategies */
            if (hosts > 1 && score > best_ps) {
                best_ps = score;
                curve_from(it, int_or(it, "servers", 0), &m->ps_curve);
                m->net_ps_alpha_s = a;
                m->net_ps_Bps = B;
                m->ps_first_pull_frac = num_or_nan(get(it, "pull_overlap"), "first_pull_frac");
                snprintf(m->net_ps_from, sizeof m->net_ps_from, "%s %s, %d ranks on %d hosts", tr,
                         nm, k, hosts);
            }
        } else if (hosts > 1 && score > best_net) {
            best_net = score;
            curve_from(it, k, &m->net_curve);
            m->net_alpha_s = a;
            m->net_Bps = B;
            coll_hops(nm, k, hosts, num_or_nan(it, "alpha_s"), m);
            fit_of(it, nm, k, hosts, &m->net_ar);
            snprintf(m->net_from, sizeof m->net_from, "%s %s, %d ranks on %d hosts", tr, nm, k,
                     hosts);
        } else if (hosts == 1 && !strcmp(tr, "nccl") && score > best_intra) {
            best_intra = score;
            m->intra_alpha_s = a;
            m->intra_Bps = B;
            fit_of(it, nm, k, hosts, &m->intra_ar);
            snprintf(m->intra_from, sizeof m->intra_from, "%s %s, %d GPUs", tr, nm, k);
        }
    }
}

int profile_load(const char *path, struct prof_measured *m, struct dt_err *e)
{
    cJSON *root;

    if (profile_read(path, &root, e))
        return -1;
    profile_summarize(root, path, m);
    cJSON_Delete(root);
    return 0;
}

double profile_cpu_speed(const struct prof_measured *m, double n)
{
    double x;

    if (!(m->cpu_lambda > 0))
        return NAN;
    if (n < 1)
        n = 1;
    if (isnan(m->cpu_sigma) || isnan(m->cpu_kappa))
        x = m->cpu_lambda;
    else
        x = usl_eval(m->cpu_lambda, m->cpu_sigma, m->cpu_kappa, n) / n;
    return x > 0 ? x / PROFILE_REF_SAMPLES_PER_S : NAN;
}
