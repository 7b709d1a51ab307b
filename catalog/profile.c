/*
 * profile.c - calibration profile I/O and validation (profile.h).
 *
 * Validation walks the tree with a path of keys and indices; on an error the
 * path is both printed (cpu.pipelines[0].points[3].time_s) and used to find
 * the value in the text (json_locate), which gives the line and column.
 * Fields a profile may carry beyond those checked here are kept and
 * ignored, so parts can add detail without a schema change.  Cost: O(size)
 * to parse and validate; locating an error rescans the text once.
 * profile_sum.c reduces a profile to the planner's numbers.
 */
#include "profile.h"

#include <cJSON.h>
#include <ctype.h>
#include <errno.h>
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
