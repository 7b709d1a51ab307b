/*
 * catalog_cmd.c - `dtplan catalog list|import` (catalog_cmd.h; docs/cli.md,
 * docs/catalog.md "SkyPilot catalogs").
 *
 * list: the catalog's instance types (dtplan's, or SkyPilot's vms.csv read
 * over dtplan's GPUs and facts), filtered by GPU, cloud and region, each
 * with what dtplan does not know of it.  import: SkyPilot's vms.csv files
 * written as a dtplan catalog directory (instances.csv, and the gpus.csv
 * and models.csv of the catalog it was read over), each file written to a
 * temporary and renamed.
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

#define CMD "dtplan catalog"

static void usage(FILE *f)
{
    fprintf(f,
            "usage: " CMD " list [--gpu NAME] [--cloud C] [--region R] [--catalog PATH] [--json]\n"
            "       " CMD " import FILE|DIR... -o DIR [--catalog PATH]\n"
            "\n"
            "list: the instance types of the catalog (--catalog: a dtplan catalog directory,\n"
            "or SkyPilot's vms.csv, a file or a directory of them, read over the catalog\n"
            "shipped with dtplan), with what dtplan does not know of each (\"missing\").\n"
            "import: SkyPilot's vms.csv files (skypilot-org/skypilot-catalog,\n"
            "catalogs/vN/<cloud>/vms.csv) written as a dtplan catalog in DIR: one type a\n"
            "region, TYPE@REGION, at its lowest on-demand and spot price, a later file's\n"
            "entry replacing an earlier's; GPUs, models and what dtplan knows of each type\n"
            "from --catalog (default: the shipped catalog).  docs/catalog.md.\n");
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

static int list(const struct catalog *cat, const char *gpu, const char *cloud,
                const char *region, int json)
{
    cJSON *arr = json ? cJSON_CreateArray() : NULL;
    int shown = 0;

    if (!json)
        printf("%-32s %-8s %-16s %6s %8s %-22s %3s %7s %9s %9s  %s\n", "instance", "cloud",
               "region", "vCPUs", "mem GiB", "GPU", "n", "GPU GiB", "$/h", "spot $/h",
               "missing");
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
        printf("%-32s %-8s %-16s %6s %8s %-22s %3d %7s %9s %9s  %s\n", in->name, in->cloud,
               in->region, vc, mem, gname, in->gpu_count, in->gpu_count > 0 ? gmem : "-",
               price, spot, miss[0] ? miss : "-");
    }
    if (json) {
        cJSON *root = cJSON_CreateObject();
        char *text;
        cJSON_AddItemToObject(root, "instances", arr);
        text = cJSON_Print(root);
        printf("%s\n", text);
        x_free(text);
        cJSON_Delete(root);
    } else {
        printf("%d instance type%s\n", shown, shown == 1 ? "" : "s");
    }
    return fflush(stdout) == 0 && !ferror(stdout) ? CLI_EXIT_OK : CLI_EXIT_PLAN;
}

/* Copy file `name` from dir `from` to dir `to`, through a temporary. */
static int copy_file(const char *from, const char *to, const char *name, struct dt_err *e)
{
    char src[4096], dst[4096], buf[65536], *tmp = NULL;
    FILE *in, *out;
    size_t n;

    snprintf(src, sizeof src, "%s/%s", from, name);
    snprintf(dst, sizeof dst, "%s/%s", to, name);
    if (!(in = fopen(src, "rb")))
        return dt_errf(e, "%s: cannot open: %s", src, strerror(errno));
    if (!(out = atomic_write_open(dst, &tmp, e))) {
        fclose(in);
        return -1;
    }
    while ((n = fread(buf, 1, sizeof buf, in)) > 0)
        fwrite(buf, 1, n, out);
    fclose(in);
    return atomic_write_commit(out, tmp, dst, e);
}

static int import(const char *base, const char *const *paths, int n, const char *outdir)
{
    struct catalog cat;
    struct dt_err e = {{0}};
    char dst[4096], *tmp = NULL;
    FILE *f;
    int rc;

    if (mkdir(outdir, 0777) != 0 && errno != EEXIST) {
        text_eprintf(CMD " import: -o: cannot create %s: %s", outdir, strerror(errno));
        return CLI_EXIT_INPUT;
    }
    if (cli_catalog_load(CMD, base, &cat, &e) != 0) {
        fprintf(stderr, "%s\n", e.msg);
        return CLI_EXIT_INPUT;
    }
    if (catalog_use_skypilot(&cat, paths, n, &e) != 0) {
        fprintf(stderr, "%s\n", e.msg);
        catalog_free(&cat);
        return CLI_EXIT_INPUT;
    }
    snprintf(dst, sizeof dst, "%s/instances.csv", outdir);
    rc = (f = atomic_write_open(dst, &tmp, &e)) ? 0 : -1;
    if (rc == 0 && catalog_write_instances(f, &cat) != 0) {
        atomic_write_abort(f, tmp);
        rc = dt_errf(&e, "%s: cannot write", dst);
    } else if (rc == 0) {
        rc = atomic_write_commit(f, tmp, dst, &e);
    }
    if (rc == 0 && !catalog_is_skypilot(base))
        rc = copy_file(base, outdir, "gpus.csv", &e) || copy_file(base, outdir, "models.csv", &e)
                 ? -1 : 0;
    if (rc != 0)
        fprintf(stderr, CMD " import: %s\n", e.msg);
    else
        fprintf(stderr, CMD " import: %d instance types into %s\n", cat.ninstances, outdir);
    catalog_free(&cat);
    return rc ? CLI_EXIT_PLAN : CLI_EXIT_OK;
}

int catalog_cmd_main(int argc, char **argv)
{
    const char *gpu = NULL, *cloud = NULL, *region = NULL, *catarg = NULL, *outdir = NULL;
    const char **paths = x_calloc((size_t)argc + 1, sizeof *paths);
    int json = 0, npaths = 0, rc = CLI_EXIT_INPUT, is_list;
    struct dt_err e = {{0}};
    struct catalog cat = {0};
    char *catdir = NULL;

    if (argc >= 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
        usage(stdout);
        x_free(paths);
        return CLI_EXIT_OK;
    }
    if (argc < 2 || (strcmp(argv[1], "list") != 0 && strcmp(argv[1], "import") != 0)) {
        dt_errf(&e, CMD ": expected list or import (dtplan catalog --help), found %s%s%s",
                argc < 2 ? "nothing" : "\"", argc < 2 ? "" : argv[1], argc < 2 ? "" : "\"");
        fprintf(stderr, "%s\n", e.msg);
        x_free(paths);
        return CLI_EXIT_INPUT;
    }
    is_list = !strcmp(argv[1], "list");
    for (int i = 2; i < argc; i++) {
        const char *a = argv[i];
        const char **val = !strcmp(a, "--gpu") && is_list ? &gpu
                           : !strcmp(a, "--cloud") && is_list ? &cloud
                           : !strcmp(a, "--region") && is_list ? &region
                           : !strcmp(a, "--catalog") ? &catarg
                           : !strcmp(a, "-o") && !is_list ? &outdir : NULL;
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            usage(stdout);
            rc = CLI_EXIT_OK;
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
                    is_list ? "--gpu, --cloud, --region, --catalog, --json"
                            : "-o, --catalog");
            goto out;
        } else if (is_list) {
            text_eprintf(CMD " list: %s: expected no file (use --catalog PATH)", a);
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
    rc = list(&cat, gpu, cloud, region, json);
    catalog_free(&cat);
out:
    x_free(catdir);
    x_free(paths);
    return rc;
}
