/*
 * catalog_cmd.c - `dtplan catalog list|import` (catalog_cmd.h; docs/cli.md,
 * docs/catalog.md "SkyPilot catalogs").
 *
 * list: the catalog's instance types (dtplan's, or SkyPilot's vms.csv read
 * over dtplan's GPUs and facts), filtered by GPU, cloud and region, each
 * with what dtplan does not know of it.  import: SkyPilot's vms.csv files
 * written as a dtplan catalog directory (instances.csv, and the gpus.csv
 * and models.csv of the catalog it was read over), each file written to a
 * temporary and renamed; a directory it created is removed again when the
 * import fails, so a failed import leaves nothing behind.
 */
#include "catalog_cmd.h"
#include "cliutil.h"
#include "report.h"
#include "../base/atomic.h"
#include "../base/text.h"
#include "../catalog/catalog.h"

#include <cJSON.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#define CMD "dtplan catalog"

static void usage(FILE *f)
{
    fprintf(f,
            "usage: " CMD " list [--gpu NAME] [--cloud C] [--region R] [--catalog PATH] [--json]\n"
            "                      [-o FILE]\n"
            "       " CMD " storage [--cloud C] [--catalog PATH] [--json] [-o FILE]\n"
            "       " CMD " import FILE|DIR... -o DIR [--catalog PATH]\n"
            "\n"
            "list: the instance types of the catalog (--catalog: a dtplan catalog directory,\n"
            "or SkyPilot's vms.csv, a file or a directory of them, read over the catalog\n"
            "shipped with dtplan), with what dtplan does not know of each (\"missing\").\n"
            "storage: the checkpoint stores of the catalog (storage.csv; goodput.storage\n"
            "names one): each one's rate, per TiB provisioned, whole or a node's, and\n"
            "whether it is the nodes' own disks (local).\n"
            "import: SkyPilot's vms.csv files (skypilot-org/skypilot-catalog,\n"
            "catalogs/vN/<cloud>/vms.csv) written as a dtplan catalog in DIR: one type a\n"
            "region, TYPE@REGION, at its lowest on-demand and spot price, a later file's\n"
            "entry replacing an earlier's; GPUs, models and what dtplan knows of each type\n"
            "from --catalog (default: the shipped catalog).  docs/catalog.md.\n"
            "Every file is written all or nothing (list -o FILE instead of standard output).\n"
            "Exit status: 0 ok, 1 cannot write, 2 bad flags or input.\n");
}

/* What dtplan does not know of `in`, comma-separated into buf. */
static void missing_of(const struct cat_instance *in, char *buf, size_t len)
{
    size_t n = 0;

    buf[0] = '\0';
#define ADD(cond, what) \
    do { if ((cond) && n < len) n += (size_t)snprintf(buf + n, len - n, "%s%s", n ? ", " : "", what); } while (0)
    ADD(in->gpu_unknown, "gpu (accelerator unknown to dtplan)");
    ADD(in->gpu && !(in->gpu->mm_eff > 0), "gpu efficiency (assumed)");
    ADD(in->vcpus < 0, "vcpus");
    ADD(isnan(in->price_usd_h), "price");
    ADD(in->gpu_count > 1 && (!in->intra_link_text || !in->intra_link_text[0]), "gpu link");
    ADD(isnan(in->net_gbps), "network");
    ADD(in->gpu_count > 0 && in->nics < 0, "nics");
#undef ADD
}

static int matches(const struct cat_instance *in, const char *gpu, const char *cloud,
                   const char *region)
{
    if (cloud && strcasecmp(in->cloud, cloud) != 0)
        return 0;
    if (region && strcasecmp(in->region, region) != 0)
        return 0;
    return !gpu || (in->gpu_count > 0 && (strcasecmp(in->gpu_model, gpu) == 0 ||
                                          strcasecmp(in->gpu_model, catalog_gpu_alias(gpu)) == 0));
}

static void cell_num(char *b, size_t len, double v, const char *fmt)
{
    if (isnan(v))
        snprintf(b, len, "-");
    else
        snprintf(b, len, fmt, v);
}

/* What `catalog list` shows: the catalog, its filters and the format. */
struct list_args {
    const struct catalog *cat;
    const char *gpu, *cloud, *region;       /* NULL: any */
    int json;
};

/* The end of a listing: the JSON array arr (NULL: a table) under key, or
 * the count of what the table showed; -1 when f failed. */
static int list_end(FILE *f, cJSON *arr, const char *key, int shown, const char *what)
{
    if (arr) {
        cJSON *root = cJSON_CreateObject();
        char *text;
        cJSON_AddItemToObject(root, key, arr);
        text = cJSON_Print(root);
        fprintf(f, "%s\n", text);
        x_free(text);
        cJSON_Delete(root);
    } else {
        fprintf(f, "%d %s%s\n", shown, what, shown == 1 ? "" : "s");
    }
    return ferror(f) ? -1 : 0;
}

/* cli_writer: the table or JSON of a struct list_args (ctx). */
static int list(FILE *f, const void *ctx, struct dt_err *e)
{
    const struct list_args *la = ctx;
    const struct catalog *cat = la->cat;
    const char *gpu = la->gpu, *cloud = la->cloud, *region = la->region;
    int json = la->json;
    cJSON *arr = json ? cJSON_CreateArray() : NULL;
    int shown = 0;

    (void)e;
    if (!json)
        fprintf(f, "%-32s %-8s %-16s %6s %8s %-22s %3s %7s %9s %9s %-9s %s\n", "instance",
               "cloud", "region", "vCPUs", "mem GiB", "GPU", "n", "GPU GiB", "$/h", "spot $/h",
               "spot int.", "missing");
    for (int i = 0; i < cat->ninstances; i++) {
        const struct cat_instance *in = &cat->instances[i];
        char miss[256], gname[48], mem[16], gmem[16], price[16], spot[16], vc[16];
        if (!matches(in, gpu, cloud, region))
            continue;
        shown++;
        missing_of(in, miss, sizeof miss);
        snprintf(gname, sizeof gname, "%s%s", in->gpu_count > 0 ? in->gpu_model : "-",
                 in->gpu_unknown ? " (unknown)" : "");
        if (json) {
            cJSON *o = cJSON_CreateObject(), *m = cJSON_AddArrayToObject(o, "missing");
            char *tok, *save = NULL;
            cJSON_AddStringToObject(o, "instance", in->name);
            cJSON_AddStringToObject(o, "cloud", in->cloud);
            cJSON_AddStringToObject(o, "region", in->region);
            if (in->vcpus >= 0)
                cJSON_AddNumberToObject(o, "vcpus", in->vcpus);
            else
                cJSON_AddNullToObject(o, "vcpus");
            report_json_num(o, "memory_gib", in->mem_gib);
            cJSON_AddStringToObject(o, "gpu", in->gpu_count > 0 ? in->gpu_model : "");
            cJSON_AddBoolToObject(o, "gpu_known", in->gpu_count == 0 || in->gpu != NULL);
            cJSON_AddNumberToObject(o, "gpu_count", in->gpu_count);
            report_json_num(o, "gpu_mem_gib", in->gpu_mem_gib);
            report_json_num(o, "price_usd_h", in->price_usd_h);
            report_json_num(o, "spot_usd_h", in->spot_usd_h);
            if (in->spot_interrupt[0])
                cJSON_AddStringToObject(o, "spot_interrupt", in->spot_interrupt);
            else
                cJSON_AddNullToObject(o, "spot_interrupt");
            report_json_num(o, "network_gbps", in->net_gbps);
            for (tok = strtok_r(miss, ",", &save); tok; tok = strtok_r(NULL, ",", &save))
                cJSON_AddItemToArray(m, cJSON_CreateString(tok[0] == ' ' ? tok + 1 : tok));
            cJSON_AddItemToArray(arr, o);
            continue;
        }
        cell_num(mem, sizeof mem, in->mem_gib, "%.0f");
        cell_num(gmem, sizeof gmem, in->gpu_mem_gib, "%.1f");
        cell_num(price, sizeof price, in->price_usd_h, "%.4f");
        cell_num(spot, sizeof spot, in->spot_usd_h, "%.4f");
        cell_num(vc, sizeof vc, in->vcpus >= 0 ? in->vcpus : NAN, "%.0f");
        fprintf(f, "%-32s %-8s %-16s %6s %8s %-22s %3d %7s %9s %9s %-9s %s\n", in->name,
                in->cloud, in->region, vc, mem, gname, in->gpu_count, in->gpu_count > 0 ? gmem : "-",
                price, spot, in->spot_interrupt[0] ? in->spot_interrupt : "-", miss[0] ? miss : "-");
    }
    return list_end(f, arr, "instances", shown, "instance type");
}

/* cli_writer: the checkpoint stores of a struct list_args (ctx), --cloud
 * filtering, as a table or JSON. */
static int storage_list(FILE *f, const void *ctx, struct dt_err *e)
{
    const struct list_args *la = ctx;
    const struct catalog *cat = la->cat;
    cJSON *arr = la->json ? cJSON_CreateArray() : NULL;
    int shown = 0;

    (void)e;
    if (!la->json)
        fprintf(f, "%-22s %-8s %12s %10s %10s %-5s %s\n", "storage", "cloud", "MB/s a TiB",
                "GB/s all", "GB/s node", "local", "source");
    for (int i = 0; i < cat->nstorage; i++) {
        const struct cat_storage *st = &cat->storage[i];
        char tib[16], all[16], node[16], src[72];
        if (la->cloud && strcasecmp(st->cloud, la->cloud) != 0)
            continue;
        shown++;
        if (la->json) {
            cJSON *o = cJSON_CreateObject();
            cJSON_AddStringToObject(o, "storage", st->name);
            cJSON_AddStringToObject(o, "cloud", st->cloud);
            report_json_num(o, "per_tib_mbs", st->per_tib_mbs);
            report_json_num(o, "gbs", st->gbs);
            report_json_num(o, "node_gbs", st->node_gbs);
            cJSON_AddBoolToObject(o, "local", st->local);
            cJSON_AddStringToObject(o, "source", st->source ? st->source : "");
            cJSON_AddItemToArray(arr, o);
            continue;
        }
        cell_num(tib, sizeof tib, st->per_tib_mbs, "%.0f");
        cell_num(all, sizeof all, st->gbs, "%.0f");
        cell_num(node, sizeof node, st->node_gbs, "%.2f");
        snprintf(src, sizeof src, "%s", st->source ? st->source : "-");
        if (st->source && strlen(st->source) >= sizeof src)   /* cut at a character's start */
            memcpy(src + text_char_start(src, sizeof src - 4), "...", 4);
        fprintf(f, "%-22s %-8s %12s %10s %10s %-5s %s\n", st->name, st->cloud, tib, all, node,
                st->local ? "yes" : "no", src);
    }
    return list_end(f, arr, "storage", shown, "storage type");
}

/* cli_writer: the bytes of the file named ctx, copied. */
static int copy_file(FILE *f, const void *ctx, struct dt_err *e)
{
    const char *src = ctx;
    char buf[65536];
    FILE *in = fopen(src, "rb");
    size_t n;
    int rc = 0;

    if (!in)
        return dt_errf(e, "%s: cannot open: %s", src, strerror(errno));
    while ((n = fread(buf, 1, sizeof buf, in)) > 0)
        if (fwrite(buf, 1, n, f) != n)
            break;
    if (ferror(in))
        rc = dt_errf(e, "%s: cannot read: %s", src, strerror(errno));
    fclose(in);
    return rc || ferror(f) ? -1 : 0;
}

/* cli_writer: the instance types of the catalog ctx as instances.csv. */
static int write_instances(FILE *f, const void *ctx, struct dt_err *e)
{
    (void)e;
    return catalog_write_instances(f, ctx) != 0 || ferror(f) ? -1 : 0;
}

/* -o DIR of import: a directory, or a name whose directory exists.  0, or
 * -1 after one line. */
static int import_dir_ok(const char *outdir)
{
    struct stat st;

    if (stat(outdir, &st) == 0) {
        if (S_ISDIR(st.st_mode))
            return 0;
        text_eprintf(CMD " import: -o: %s: expected a directory, found %s", outdir,
                     S_ISREG(st.st_mode) ? "a file" : "a file that is not a directory");
        return -1;
    }
    if (errno != ENOENT) {
        text_eprintf(CMD " import: -o: %s: %s", outdir, strerror(errno));
        return -1;
    }
    return 0;
}

static int import(const char *base, const char *const *paths, int n, const char *outdir)
{
    struct catalog cat;
    struct dt_err e = {{0}};
    size_t len = strlen(outdir) + 32, blen = strlen(base) + 32;
    char *dst[4], *src[3];
    int rc, made = 0;

    if (import_dir_ok(outdir) != 0)
        return CLI_EXIT_INPUT;
    if (cli_catalog_load(CMD, base, &cat, &e) != 0) {
        fprintf(stderr, "%s\n", e.msg);
        return CLI_EXIT_INPUT;
    }
    if (catalog_use_skypilot(&cat, paths, n, &e) != 0) {
        fprintf(stderr, "%s\n", e.msg);
        catalog_free(&cat);
        return CLI_EXIT_INPUT;
    }
    {
        /* SkyPilot's files carry no date: the prices are dated the day
         * they are read (SOURCE_DATE_EPOCH's, when set) */
        char today[11];
        report_today(today, sizeof today);
        for (int i = 0; i < cat.ninstances; i++)
            if (!cat.instances[i].price_date[0])
                memcpy(cat.instances[i].price_date, today, sizeof today);
    }
    /* created here only if absent, and removed again if the import fails */
    if (mkdir(outdir, 0777) == 0) {
        made = 1;
    } else if (errno != EEXIST) {
        text_eprintf(CMD " import: -o: cannot create %s: %s", outdir, strerror(errno));
        catalog_free(&cat);
        return CLI_EXIT_INPUT;
    }
    for (int i = 0; i < 4; i++)
        dst[i] = x_malloc(len);
    for (int i = 0; i < 3; i++)
        src[i] = x_malloc(blen);
    snprintf(dst[0], len, "%s/instances.csv", outdir);
    snprintf(dst[1], len, "%s/gpus.csv", outdir);
    snprintf(dst[2], len, "%s/models.csv", outdir);
    snprintf(dst[3], len, "%s/storage.csv", outdir);
    snprintf(src[0], blen, "%s/gpus.csv", base);
    snprintf(src[1], blen, "%s/models.csv", base);
    snprintf(src[2], blen, "%s/storage.csv", base);
    {
        /* a SkyPilot --catalog brings instance types only; storage.csv is
         * optional */
        int own = !catalog_is_skypilot(base), store = own && access(src[2], R_OK) == 0;
        struct cli_output outs[] = {
            {dst[0], write_instances, &cat, "-o"},
            {dst[1], own ? copy_file : NULL, src[0], "-o"},
            {dst[2], own ? copy_file : NULL, src[1], "-o"},
            {dst[3], store ? copy_file : NULL, src[2], "-o"},
        };
        rc = cli_write_outputs(CMD " import", outs, 4);
    }
    if (rc == 0) {
        char why[1024];
        int nu = catalog_unknown_accelerators(&cat, why, sizeof why);
        fprintf(stderr, CMD " import: %d instance types into %s\n", cat.ninstances, outdir);
        if (nu > 0)
            fprintf(stderr, CMD " import: %d of them kept without a GPU, their accelerator not "
                    "modelled: %s\n", nu, why);
    }
    else if (made)
        rmdir(outdir);  /* the writes are all-or-nothing: it is empty */
    for (int i = 0; i < 4; i++)
        x_free(dst[i]);
    for (int i = 0; i < 3; i++)
        x_free(src[i]);
    catalog_free(&cat);
    return rc;
}

int catalog_cmd_main(int argc, char **argv)
{
    const char *gpu = NULL, *cloud = NULL, *region = NULL, *catarg = NULL, *outdir = NULL;
    const char *output = NULL;
    const char **paths = x_calloc((size_t)argc + 1, sizeof *paths);
    int json = 0, npaths = 0, rc = CLI_EXIT_INPUT, is_list, is_storage;
    struct dt_err e = {{0}};
    struct catalog cat = {0};
    char *catdir = NULL;

    if (argc >= 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
        usage(stdout);
        x_free(paths);
        return cli_flush_stdout(CMD);
    }
    if (argc < 2 || (strcmp(argv[1], "list") != 0 && strcmp(argv[1], "import") != 0 &&
                     strcmp(argv[1], "storage") != 0)) {
        dt_errf(&e, CMD ": expected list, storage or import (dtplan catalog --help), found %s%s%s",
                argc < 2 ? "nothing" : "\"", argc < 2 ? "" : argv[1], argc < 2 ? "" : "\"");
        fprintf(stderr, "%s\n", e.msg);
        x_free(paths);
        return CLI_EXIT_INPUT;
    }
    is_storage = !strcmp(argv[1], "storage");
    is_list = !strcmp(argv[1], "list") || is_storage;
    for (int i = 2; i < argc; i++) {
        const char *a = argv[i];
        const char **val = !strcmp(a, "--gpu") && is_list && !is_storage ? &gpu
                           : !strcmp(a, "--cloud") && is_list ? &cloud
                           : !strcmp(a, "--region") && is_list && !is_storage ? &region
                           : !strcmp(a, "--catalog") ? &catarg
                           : !strcmp(a, "-o") && !is_list ? &outdir
                           : (!strcmp(a, "-o") || !strcmp(a, "--output")) && is_list ? &output
                           : NULL;
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            usage(stdout);
            rc = cli_flush_stdout(CMD);
            goto out;
        }
        if (is_list && !strcmp(a, "--json")) {
            json = 1;
        } else if (val) {
            if (i + 1 >= argc || !argv[i + 1][0]) {
                text_eprintf(CMD " %s: %s: expected a value, found nothing", argv[1], a);
                goto out;
            }
            *val = argv[++i];
        } else if (a[0] == '-' && a[1]) {
            text_eprintf(CMD " %s: %s: unknown flag, expected one of %s", argv[1], a,
                    is_storage ? "--cloud, --catalog, --json, -o"
                    : is_list  ? "--gpu, --cloud, --region, --catalog, --json, -o"
                               : "-o, --catalog");
            goto out;
        } else if (is_list) {
            text_eprintf(CMD " %s: %s: expected no file (use --catalog PATH)", argv[1], a);
            goto out;
        } else {
            paths[npaths++] = a;
        }
    }
    if (!(catdir = cli_catalog_find(CMD, catarg, &e))) {
        fprintf(stderr, "%s\n", e.msg);
        goto out;
    }
    if (!is_list) {
        if (npaths == 0 || !outdir) {
            text_eprintf(CMD " import: expected FILE|DIR... and -o DIR, found %s",
                    npaths == 0 ? "no file" : "no -o");
            goto out;
        }
        rc = import(catdir, paths, npaths, outdir);
        goto out;
    }
    if (cli_catalog_load(CMD, catdir, &cat, &e) != 0) {
        fprintf(stderr, "%s\n", e.msg);
        goto out;
    }
    {
        struct list_args la = {&cat, gpu, cloud, region, json};
        rc = is_storage ? cli_write_output(CMD " storage", output, storage_list, &la)
                        : cli_write_output(CMD " list", output, list, &la);
    }
    catalog_free(&cat);
out:
    x_free(catdir);
    x_free(paths);
    return rc;
}
