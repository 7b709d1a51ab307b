/*
 * skypilot.c - SkyPilot's public instance catalogs read as they are
 * (skypilot-org/skypilot-catalog, catalogs/vN/<cloud>/vms.csv; catalog.h
 * catalog_use_skypilot; docs/catalog.md "SkyPilot catalogs").
 *
 * A vms.csv has a row per instance type, region and availability zone:
 * InstanceType, AcceleratorName, AcceleratorCount, vCPUs, MemoryGiB,
 * GpuInfo (the cloud's description, with each GPU's memory), Price,
 * SpotPrice, Region, AvailabilityZone.  dtplan keeps one entry per type and
 * region, named TYPE@REGION: the on-demand price (the lowest of the zones),
 * the lowest spot price where a zone has one, the cloud from the file's
 * directory (.../aws/vms.csv).  A later file given replaces an earlier
 * one's entry of the same type and region (the latest snapshot last).
 *
 * What SkyPilot does not say (the GPU's speed, the GPU link, the network)
 * comes from dtplan's own tables: the accelerator's row of gpus.csv, named
 * as SkyPilot names it or through the aliases below, and the instance
 * type's row of instances.csv where dtplan has one.  An accelerator dtplan
 * does not know keeps its name, with no GPU (catalog.h: gpu_unknown).
 *
 * O(rows) time, O(types x regions) memory.
 */
#include "../base/files.h"
#include "catalog.h"
#include "csv.h"

#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "../base/xmem.h"

enum { S_TYPE, S_ACC, S_COUNT, S_VCPUS, S_MEM, S_INFO, S_PRICE, S_SPOT, S_REGION, S_ZONE, S_N };
#define SKY_MAX_USD_H 1e6     /* as price_ondemand_usd_h in catalog/fields.c */
static const char *const sky_cols[S_N] = {
    "InstanceType", "AcceleratorName", "AcceleratorCount", "vCPUs", "MemoryGiB", "GpuInfo",
    "Price", "SpotPrice", "Region", "AvailabilityZone"};

/* SkyPilot's accelerator names that differ from gpus.csv's: GCP's a3-mega
 * H100 (more NICs, the same GPU); Azure's A10 is gpus.csv's A10. */
static const char *const aliases[][2] = {
    {"H100-MEGA", "H100"},
    {"H100-80GB", "H100"},
    {"A100-40GB", "A100"},
    {"RTX6000-Ada", "RTX6000Ada"},
    {"H200-141GB", "H200"},
};

/* Accelerators dtplan does not model, by kind: a name's prefix (case
 * ignored) and why.  Any other name gpus.csv lacks: no row yet. */
static const char *const kinds[][3] = {
    {"tpu", "TPU", "TPUs are not modelled (dtplan models GPUs)"},
    {"trainium", "Trainium", "AWS Trainium is not modelled"},
    {"inferentia", "Inferentia", "AWS Inferentia is an inference chip, not modelled"},
    {"gaudi", "Gaudi", "Intel Gaudi is not modelled"},
};

/* The kind of unknown accelerator `name`: an index of kinds[], or the
 * count of kinds for a GPU without a row. */
static size_t kind_of(const char *name)
{
    size_t k = 0;

    while (k < sizeof kinds / sizeof kinds[0] &&
           strncasecmp(name, kinds[k][0], strlen(kinds[k][0])) != 0)
        k++;
    return k;
}

int catalog_unknown_accelerators(const struct catalog *cat, char *buf, size_t len)
{
    size_t nk = sizeof kinds / sizeof kinds[0], o = 0;
    int total = 0;

    buf[0] = '\0';
    for (size_t k = 0; k <= nk; k++) {
        int n = 0, shown = 0;
        for (int i = 0; i < cat->ninstances; i++)
            n += cat->instances[i].gpu_unknown && kind_of(cat->instances[i].gpu_model) == k;
        if (n == 0)
            continue;
        total += n;
        if (o < len)
            o += (size_t)snprintf(buf + o, len - o, "%s%d %s (", o ? "; " : "", n,
                                  k < nk ? kinds[k][1] : "with a GPU gpus.csv has no row for");
        /* the first three names, each once */
        for (int i = 0; i < cat->ninstances && shown < 3; i++) {
            const struct cat_instance *in = &cat->instances[i];
            int seen = 0;
            if (!in->gpu_unknown || kind_of(in->gpu_model) != k)
                continue;
            for (int j = 0; j < i && !seen; j++)
                seen = cat->instances[j].gpu_unknown &&
                       !strcmp(cat->instances[j].gpu_model, in->gpu_model);
            if (!seen && o < len) {
                o += (size_t)snprintf(buf + o, len - o, "%s%s", shown ? ", " : "", in->gpu_model);
                shown++;
            }
        }
        if (o < len)
            o += (size_t)snprintf(buf + o, len - o, "): %s",
                                  k < nk ? kinds[k][2] : "add one (docs/catalog.md)");
    }
    return total;
}

const char *catalog_gpu_alias(const char *sky_name)
{
    for (size_t i = 0; i < sizeof aliases / sizeof aliases[0]; i++)
        if (strcasecmp(aliases[i][0], sky_name) == 0)
            return aliases[i][1];
    return sky_name;
}

/* The files a path names: itself, DIR/vms.csv, or DIR/<cloud>/vms.csv in
 * name order; into *out (allocated), their count. */
static int files_of(const char *path, char ***out)
{
    struct stat st;
    char **v = NULL;
    int n = 0;

    *out = NULL;
    if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
        struct dirent **names = NULL;
        int m = scandir(path, &names, NULL, alphasort);
        char *own = x_malloc(strlen(path) + sizeof "/vms.csv");
        sprintf(own, "%s/vms.csv", path);
        if (stat(own, &st) == 0) {
            v = x_realloc(v, (size_t)(n + 1) * sizeof *v);
            v[n++] = own;
        } else {
            x_free(own);
        }
        for (int i = 0; i < m; i++) {
            char *q = x_malloc(strlen(path) + strlen(names[i]->d_name) + sizeof "//vms.csv");
            sprintf(q, "%s/%s/vms.csv", path, names[i]->d_name);
            if (names[i]->d_name[0] != '.' && stat(q, &st) == 0) {
                v = x_realloc(v, (size_t)(n + 1) * sizeof *v);
                v[n++] = q;
            } else {
                x_free(q);
            }
            free(names[i]);
        }
        free(names);
    } else {
        v = x_malloc(sizeof *v);
        v[n++] = x_strdup(path);
    }
    *out = v;
    return n;
}

static void free_files(char **v, int n)
{
    for (int i = 0; i < n; i++)
        x_free(v[i]);
    x_free(v);
}

int catalog_is_skypilot(const char *path)
{
    struct stat st;
    struct dt_err e;
    FILE *f;
    char line[512], **files;
    int ok;

    if (stat(path, &st) != 0)
        return 0;
    if (S_ISDIR(st.st_mode)) {
        char *p = x_malloc(strlen(path) + sizeof "/instances.csv");
        sprintf(p, "%s/instances.csv", path);
        ok = stat(p, &st) != 0;     /* a dtplan catalog has instances.csv */
        x_free(p);
        if (ok) {
            int n = files_of(path, &files);
            ok = n > 0;
            free_files(files, n);
        }
        return ok;
    }
    if (!(f = file_open_read(path, &e)))
        return 0;
    ok = fgets(line, sizeof line, f) && strstr(line, "InstanceType") &&
         strstr(line, "AcceleratorName");
    fclose(f);
    return ok;
}

/* The cloud a vms.csv belongs to: its directory's name. */
static void cloud_of(const char *path, char *out, size_t len)
{
    const char *end = strrchr(path, '/'), *start;

    out[0] = '\0';
    if (!end)
        return;
    for (start = end; start > path && start[-1] != '/'; start--)
        ;
    snprintf(out, len, "%.*s", (int)(end - start), start);
}

static int sky_err(struct dt_err *e, const struct csv_file *f, const struct csv_field *fld,
                   const char *col, const char *expected)
{
    char found[96];

    return dt_errf(e, "%s:%d:%d: %s: expected %s, found \"%s\"", f->path, fld->line, fld->col,
                   col, expected, csv_quote_for_msg(found, sizeof found, fld->text));
}

/* A number of column c of row r: "" is NAN when empty may be, else an
 * error; negative numbers are errors. */
static int sky_num(const struct csv_file *f, const struct csv_row *r, const int *idx, int c,
                   int empty_ok, const char *expected, double *out, struct dt_err *e)
{
    const struct csv_field *fld = &r->fields[idx[c]];
    char *end;

    if (!fld->text[0] && empty_ok) {
        *out = NAN;
        return 0;
    }
    *out = strtod(fld->text, &end);
    if (!fld->text[0] || *end || !isfinite(*out) || *out < 0)
        return sky_err(e, f, fld, sky_cols[c], expected);
    return 0;
}

/* One GPU's memory from GpuInfo ("'SizeInMiB': 22888", or GCP's and
 * Azure's "MemoryInfo" with "SizeInMiB"), GiB; NAN when absent. */
static double gpu_mem_of(const char *info, double count)
{
    const char *p = strstr(info, "SizeInMiB");
    const char *t = strstr(info, "TotalGpuMemoryInMiB");
    double v;

    if (p && sscanf(p + 9, "%*[^0-9]%lf", &v) == 1 && v > 0)
        return v / 1024;
    if (t && count > 0 && sscanf(t + 19, "%*[^0-9]%lf", &v) == 1 && v > 0)
        return v / 1024 / count;
    return NAN;
}

/* One row as read: its entry's name, its zone, its line. */
struct sky_row {
    char name[64];
    const char *zone;
    int r;                      /* row index in the file */
};

static int by_name_zone(const void *a, const void *b)
{
    const struct sky_row *x = a, *y = b;
    int c = strcmp(x->name, y->name);
    return c ? c : strcmp(x->zone, y->zone) ? strcmp(x->zone, y->zone) : x->r - y->r;
}

static int by_name(const void *a, const void *b)
{
    return strcmp(((const struct cat_instance *)a)->name, ((const struct cat_instance *)b)->name);
}

/* Entry `name` among v's first n, sorted by name, or -1. */
static int find_entry(const struct cat_instance *v, int n, const char *name)
{
    int lo = 0, hi = n - 1;

    while (lo <= hi) {
        int mid = (lo + hi) / 2, c = strcmp(v[mid].name, name);
        if (c == 0)
            return mid;
        if (c < 0)
            lo = mid + 1;
        else
            hi = mid - 1;
    }
    return -1;
}

/* dtplan's facts of instance type `type` from the catalog being replaced:
 * the GPU link, the network, its NICs and processor, and in the same region
 * its spot interruption band. */
static void merge_facts(struct cat_instance *in, const struct cat_instance *old, int nold,
                        const char *type)
{
    for (int i = 0; i < nold; i++) {
        const struct cat_instance *o = &old[i];
        const char *at = strchr(o->name, '@');
        size_t len = at ? (size_t)(at - o->name) : strlen(o->name);
        if (strlen(type) != len || strncmp(o->name, type, len) != 0)
            continue;
        x_free(in->intra_link_text);
        in->intra_link_text = x_strdup(o->intra_link_text ? o->intra_link_text : "");
        in->link = o->link;
        in->net_gbps = o->net_gbps;
        in->efa = o->efa;
        in->aws_efa = o->aws_efa;
        in->fabric = o->fabric;
        in->nics = o->nics;
        in->cpu_ghz = o->cpu_ghz;
        in->cpu_amd = o->cpu_amd;
        memcpy(in->cpu_model, o->cpu_model, sizeof in->cpu_model);
        if (isnan(in->gpu_mem_gib))
            in->gpu_mem_gib = o->gpu_mem_gib;
        if (!strcmp(in->region, o->region))
            memcpy(in->spot_interrupt, o->spot_interrupt, sizeof in->spot_interrupt);
        return;
    }
}

/* Fill entry *in from row r of f (idx: the columns). */
static int fill(const struct catalog *cat, const struct csv_file *f, const int *idx, int r,
                const char *cloud, const char *name, struct cat_instance *in, struct dt_err *e)
{
    const struct csv_row *row = &f->rows[r];
    double cnt, vcpus, mem, price, spot;
    const char *acc = row->fields[idx[S_ACC]].text;
    size_t sl = strlen(f->path) + 64;

    if (sky_num(f, row, idx, S_COUNT, 1, "a GPU count >= 0, or empty", &cnt, e) ||
        sky_num(f, row, idx, S_VCPUS, 1, "a vCPU count > 0, or empty", &vcpus, e) ||
        sky_num(f, row, idx, S_MEM, 1, "a memory size >= 0 in GiB", &mem, e) ||
        sky_num(f, row, idx, S_PRICE, 1, "a price >= 0 in USD an hour, or empty", &price, e) ||
        sky_num(f, row, idx, S_SPOT, 1, "a spot price >= 0 in USD an hour, or empty", &spot, e))
        return -1;
    /* the counts become ints: their range is checked first */
    if (cnt > 64)
        return sky_err(e, f, &row->fields[idx[S_COUNT]], sky_cols[S_COUNT],
                       "a GPU count from 0 to 64, or empty");
    if (vcpus > 65536)
        return sky_err(e, f, &row->fields[idx[S_VCPUS]], sky_cols[S_VCPUS],
                       "a vCPU count from 0 to 65536, or empty");
    if (mem > 1e6)  /* as memory_gib in catalog/fields.c */
        return sky_err(e, f, &row->fields[idx[S_MEM]], sky_cols[S_MEM],
                       "a memory size from 0 to 1e6 GiB");
    /* the bound of instances.csv's prices (fields.c): a price beyond it is
     * a unit mistake, and it would fill a table with hundreds of digits */
    if (price > SKY_MAX_USD_H)
        return sky_err(e, f, &row->fields[idx[S_PRICE]], sky_cols[S_PRICE],
                       "a price from 0 to 1e6 USD an hour, or empty");
    if (spot > SKY_MAX_USD_H)
        return sky_err(e, f, &row->fields[idx[S_SPOT]], sky_cols[S_SPOT],
                       "a spot price from 0 to 1e6 USD an hour, or empty");
    memset(in, 0, sizeof *in);
    snprintf(in->cloud, sizeof in->cloud, "%s", cloud);
    snprintf(in->name, sizeof in->name, "%s", name);
    snprintf(in->region, sizeof in->region, "%s", row->fields[idx[S_REGION]].text);
    in->vcpus = isnan(vcpus) ? -1 : (int)vcpus;     /* GCP's GPUs alone: no host */
    in->mem_gib = mem;
    in->gpu_count = isnan(cnt) ? 0 : (int)cnt;
    snprintf(in->gpu_model, sizeof in->gpu_model, "%s", in->gpu_count > 0 ? acc : "");
    in->gpu_mem_gib = in->gpu_count > 0 ? gpu_mem_of(row->fields[idx[S_INFO]].text, cnt) : NAN;
    in->price_usd_h = price;
    in->spot_usd_h = spot;
    in->net_gbps = NAN;
    in->efa = -1;
    in->nics = -1;
    in->cpu_ghz = NAN;
    in->cpu_speed = NAN;
    in->intra_link_text = x_strdup("");
    in->link = catalog_parse_link("");
    in->source = x_malloc(sl);
    snprintf(in->source, sl, "SkyPilot catalog %s line %d", f->path, row->line);
    if (in->gpu_count > 0) {
        in->gpu = catalog_find_gpu(cat, catalog_gpu_alias(acc));
        in->gpu_unknown = in->gpu == NULL;
        if (in->gpu)
            snprintf(in->gpu_model, sizeof in->gpu_model, "%s", in->gpu->name);
    }
    return 0;
}

/* The lower of two prices, NAN for none. */
static double lower_of(double a, double b)
{
    return isnan(a) ? b : isnan(b) ? a : a < b ? a : b;
}

static void free_entry(struct cat_instance *in)
{
    x_free(in->intra_link_text);
    x_free(in->source);
    x_free(in->profile);
}

/* Read one vms.csv into *v (n entries sorted by name, cap), replacing the
 * entries of earlier files it has too. */
static int read_one(const struct catalog *cat, const char *path, struct cat_instance **v,
                    int *n, int *cap, const struct cat_instance *old, int nold,
                    struct dt_err *e)
{
    struct csv_file f;
    struct sky_row *rows = NULL;
    int idx[S_N], rc = -1, nr = 0, n0 = *n;
    char cloud[24];

    if (csv_read(&f, path, e) != 0)
        return -1;
    if (csv_check_text(&f, e)) {
        csv_free(&f);
        return -1;
    }
    cloud_of(path, cloud, sizeof cloud);
    if (f.nrows < 1) {
        dt_errf(e, "%s:1:1: header: expected SkyPilot's vms.csv columns (%s, ...), found an "
                "empty file", path, sky_cols[0]);
        goto out;
    }
    for (int c = 0; c < S_N; c++)
        if ((idx[c] = csv_column(&f.rows[0], sky_cols[c])) < 0) {
            dt_errf(e, "%s:1:1: header: expected SkyPilot's vms.csv columns InstanceType, "
                    "AcceleratorName, AcceleratorCount, vCPUs, MemoryGiB, GpuInfo, Price, "
                    "SpotPrice, Region, AvailabilityZone; missing \"%s\"", path, sky_cols[c]);
            goto out;
        }
    rows = x_calloc((size_t)f.nrows, sizeof *rows);
    for (int r = 1; r < f.nrows; r++) {
        const struct csv_row *row = &f.rows[r];
        const char *type, *region;
        if (row->nfields != f.rows[0].nfields) {
            dt_errf(e, "%s:%d:1: row: expected %d fields, found %d", path, row->line,
                    f.rows[0].nfields, row->nfields);
            goto out;
        }
        type = row->fields[idx[S_TYPE]].text;
        region = row->fields[idx[S_REGION]].text;
        if ((!type[0] && !row->fields[idx[S_ACC]].text[0]) || !region[0] ||
            strlen(type) + strlen(row->fields[idx[S_ACC]].text) + strlen(region) + 24 >
                sizeof rows[0].name) {
            sky_err(e, &f, &row->fields[idx[region[0] ? S_TYPE : S_REGION]],
                    region[0] ? "InstanceType" : "Region",
                    "an instance type (or an accelerator) and a region, 40 characters at most "
                    "together");
            goto out;
        }
        if (type[0])
            snprintf(rows[nr].name, sizeof rows[nr].name, "%s@%s", type, region);
        else    /* GCP: GPUs to attach to a host, priced alone */
            snprintf(rows[nr].name, sizeof rows[nr].name, "%sx%s@%s",
                     row->fields[idx[S_ACC]].text, row->fields[idx[S_COUNT]].text, region);
        rows[nr].zone = row->fields[idx[S_ZONE]].text;
        rows[nr].r = r;
        nr++;
    }
    if (nr > 1)     /* qsort takes no NULL, even for nothing */
        qsort(rows, (size_t)nr, sizeof *rows, by_name_zone);
    for (int i = 0, cur = -1; i < nr; i++) {
        struct cat_instance in;
        char type[64];
        if (i > 0 && !strcmp(rows[i].name, rows[i - 1].name) &&
            !strcmp(rows[i].zone, rows[i - 1].zone)) {
            const struct csv_row *row = &f.rows[rows[i].r];
            char msg[200];
            snprintf(msg, sizeof msg, "one row for %s zone \"%s\", as at line %d",
                     rows[i].name, rows[i].zone, f.rows[rows[i - 1].r].line);
            sky_err(e, &f, &row->fields[idx[S_TYPE]], "InstanceType", msg);
            goto out;
        }
        if (fill(cat, &f, idx, rows[i].r, cloud, rows[i].name, &in, e))
            goto out;
        if (i > 0 && !strcmp(rows[i].name, rows[i - 1].name)) {
            /* another zone of the same entry: the lowest prices */
            struct cat_instance *c = &(*v)[cur];
            c->price_usd_h = lower_of(c->price_usd_h, in.price_usd_h);
            c->spot_usd_h = lower_of(c->spot_usd_h, in.spot_usd_h);
            free_entry(&in);
            continue;
        }
        snprintf(type, sizeof type, "%s", rows[i].name);
        *strchr(type, '@') = '\0';
        merge_facts(&in, old, nold, type);
        /* an earlier file's entry (among the first n0, sorted) gives way to
         * this later file's; else a new one */
        if ((cur = find_entry(*v, n0, rows[i].name)) >= 0) {
            free_entry(&(*v)[cur]);
        } else {
            if (*n == *cap) {
                *cap = *cap ? 2 * *cap : 256;
                *v = x_realloc(*v, (size_t)*cap * sizeof **v);
            }
            cur = (*n)++;
        }
        (*v)[cur] = in;
    }
    if (*n > 1)     /* a file of a header alone leaves *v NULL */
        qsort(*v, (size_t)*n, sizeof **v, by_name);
    rc = 0;
out:
    x_free(rows);
    csv_free(&f);
    return rc;
}

int catalog_use_skypilot(struct catalog *cat, const char *const *paths, int npaths,
                         struct dt_err *e)
{
    struct cat_instance *v = NULL, *old = cat->instances;
    int n = 0, cap = 0, nold = cat->ninstances, rc = 0;

    for (int p = 0; p < npaths && rc == 0; p++) {
        char **files;
        int nf = files_of(paths[p], &files);
        if (nf == 0)
            rc = dt_errf(e, "%s: no vms.csv there (expected SkyPilot's catalogs/vN/<cloud>/"
                         "vms.csv, or a directory of them)", paths[p]);
        for (int i = 0; i < nf && rc == 0; i++)
            rc = read_one(cat, files[i], &v, &n, &cap, old, nold, e);
        free_files(files, nf);
    }
    if (rc != 0) {
        for (int i = 0; i < n; i++)
            free_entry(&v[i]);
        x_free(v);
        return -1;
    }
    for (int i = 0; i < nold; i++)
        free_entry(&old[i]);
    x_free(old);
    cat->instances = v;
    cat->ninstances = n;
    return 0;
}
