/*
 * coll_cmd.c - `dtplan collectives` (coll_cmd.h): the all-reduce that NCCL
 * would run on a cluster shape, size by size, as nccl-tests' all_reduce_perf
 * prints it: the algorithm and protocol NCCL's cost model picks
 * (sim/nccl.h), the channels, the time, algbw and busbw.  The shape is an
 * instance type of the catalog, or a GPU with its link and NICs given by
 * flag (a machine the catalog does not hold).  Text or JSON on standard
 * output, or atomically to -o FILE.
 */
#include "coll_cmd.h"
#include "cliutil.h"
#include "../catalog/catalog.h"
#include "../planner/planner.h"
#include "../sim/nccl.h"
#include "../base/text.h"

#include <cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CMD "dtplan collectives"
/* Rows one command prints at most. */
#define MAX_SIZES 10000

static void usage(FILE *f)
{
    fprintf(f,
            "usage: " CMD " (--instance TYPE | --gpu NAME --gpus-per-node N\n"
            "                          [--link nvswitch|nvlink|pcie] [--nvlink-gbs G]\n"
            "                          [--net-gbps G] [--nics N] [--efa | --fabric NAME]) [--nodes N]\n"
            "                          [-b SIZE] [-e SIZE] [-f FACTOR]\n"
            "                          [--coll C] [--algo ALGO] [--proto PROTO] [--catalog DIR]\n"
            "                          [--json] [-o FILE]\n"
            "\n"
            "The collective NCCL would run on N nodes (--coll all_reduce, the default,\n"
            "all_gather, reduce_scatter or all_to_all, the last as point-to-point sends\n"
            "with no algorithm to choose), size by size from -b to -e (each -f\n"
            "times the last; defaults 1M, 1G, 2; suffixes K, M, G, T are powers of 1024), as\n"
            "NCCL 2.30's cost model picks it: algorithm, protocol, channels, time, and\n"
            "nccl-tests' algbw and busbw (docs/collectives.md \"How NCCL chooses\"); on AMD\n"
            "GPUs as RCCL picks it, MSCCL's all-pairs all-reduce included (\"RCCL on AMD\n"
            "Instinct\").  --algo (ring tree nvls nvls_tree pat collnet_direct collnet_chain\n"
            "allpairs) and --proto (LL LL128 Simple) restrict the choice as NCCL_ALGO and\n"
            "NCCL_PROTO do: one alone keeps the best of the other under NCCL's model, both\n"
            "force a pair.  Without --instance, the node is --gpus-per-node GPUs of the\n"
            "catalog's --gpu over --link (default nvswitch; --nvlink-gbs replaces the GPU's\n"
            "NVLink rate per direction, as for a bridge), with --nics NICs (default 1) of\n"
            "--net-gbps in all, over --fabric (ib; ib-sharp, InfiniBand whose switches\n"
            "reduce, where NCCL weighs its CollNet algorithms; roce, efa-p4d, efa-p5,\n"
            "efa-p5en, efa-p6, gpudirect-tcpx, gpudirect-tcpxo, tcp, ...; --efa: EFA as\n"
            "aws-ofi-nccl runs p4d).  -o FILE writes the table or JSON to FILE\n"
            "(all or nothing) instead of standard output.\n"
            "Exit status: 0 ok, 1 cannot write, 2 bad flags or input.\n");
}

/* A size with an optional K, M, G or T suffix (powers of 1024), 1 B to 1 TiB. */
static int take_size(const char *val, void *dst)
{
    char *end;
    double v = strtod(val, &end), m = 1;

    if (end == val)
        return -1;
    if (*end == 'K' || *end == 'k')
        m = 1024.0;
    else if (*end == 'M' || *end == 'm')
        m = 1048576.0;
    else if (*end == 'G' || *end == 'g')
        m = 1073741824.0;
    else if (*end == 'T' || *end == 't')
        m = 1099511627776.0;
    if (m > 1)
        end++;
    v *= m;
    if (*end != '\0' || !(v >= 1 && v <= 1099511627776.0))
        return -1;
    *(double *)dst = floor(v);
    return 0;
}

/* A number in (lo, hi] into *out (dst: a struct num_arg). */
struct num_arg {
    double *out;
    double lo, hi;
};

static int take_num(const char *val, void *dst)
{
    const struct num_arg *a = (const struct num_arg *)dst;
    char *end;
    double v = strtod(val, &end);

    if (end == val || *end != '\0' || !(v > a->lo && v <= a->hi))
        return -1;
    *a->out = v;
    return 0;
}

static const char *link_name(int i)
{
    static const char *const names[] = {"pcie", "nvlink", "nvswitch"};
    return i >= 0 && i < 3 ? names[i] : NULL;
}

/* --coll's names: NCCL's three collectives, then all_to_all (COLL_A2A), which
 * NCCL runs as point-to-point sends with no algorithm to choose. */
#define COLL_A2A NCCL_NCOLL

static const char *coll_name(int i)
{
    return i == COLL_A2A ? "all_to_all" : nccl_coll_name(i);
}

struct coll_args {
    double lo, hi, factor;
    int algo, proto, json, coll;
};

/* What print_rows writes: the model, the sizes and the shape's name. */
struct coll_rows {
    const struct nccl_model *m;
    const struct coll_args *a;
    const char *what;
    const char *fabric;     /* the network's name (catalog/fabric.h), "" none */
};

/* One size of an all-to-all (nccl_alltoall_s): nccl-tests' alltoall counts
 * its busbw as algbw x (n - 1) / n. */
static void print_a2a(FILE *f, const struct nccl_model *m, double s, cJSON *arr)
{
    double n = (double)m->sh.nodes * m->sh.ppn, t = nccl_alltoall_s(&m->sh, s);
    double alg = s / t / 1e9, bus = alg * (n - 1) / n;

    if (arr) {
        cJSON *o = cJSON_CreateObject();
        cJSON_AddNumberToObject(o, "bytes", s);
        cJSON_AddStringToObject(o, "algorithm", "p2p");
        cJSON_AddNumberToObject(o, "time_s", t);
        cJSON_AddNumberToObject(o, "algbw_GBps", alg);
        cJSON_AddNumberToObject(o, "busbw_GBps", bus);
        cJSON_AddStringToObject(o, "chosen_by", "point_to_point");
        cJSON_AddItemToArray(arr, o);
    } else {
        fprintf(f, "%14.0f  %-9s  %-6s  %8s  %12.1f  %10.2f  %10.2f\n", s, "p2p", "-", "-", t * 1e6,
                alg, bus);
    }
}

/* cli_writer: the table or JSON array of a coll_rows (ctx). */
static int print_rows(FILE *f, const void *ctx, struct dt_err *e)
{
    const struct coll_rows *r = ctx;
    const struct nccl_model *m = r->m;
    const struct coll_args *a = r->a;
    const char *what = r->what;
    cJSON *arr = a->json ? cJSON_CreateArray() : NULL;

    (void)e;
    if (!a->json) {
        fprintf(f, "%s: %d node%s x %d GPUs, %d ranks, %s%s%s%s", what, m->sh.nodes,
               m->sh.nodes > 1 ? "s" : "", m->sh.ppn, m->sh.nodes * m->sh.ppn,
               coll_name(a->coll), m->sh.rccl ? " by RCCL" : "",
               m->sh.nodes > 1 && r->fabric[0] ? ", over " : "", m->sh.nodes > 1 ? r->fabric : "");
        /* the network's step overhead (docs/collectives.md "A ring's step period") */
        if (m->sh.nodes > 1 && m->sh.net_step_s[0] > 0)
            fprintf(f, " (a message across it waits %.0f us, %.0f under Simple)",
                    m->sh.net_step_s[0] * 1e6, m->sh.net_step_s[1] * 1e6);
        else if (m->sh.nodes > 1 && m->sh.net_step_s[1] > 0)
            fprintf(f, " (a message across it waits %.0f us under Simple)",
                    m->sh.net_step_s[1] * 1e6);
        if (m->sh.nodes > 2 && a->coll != COLL_A2A && nccl_tuner_name(m->sh.tuner))
            fprintf(f, "; *: the pair the plugin's %s tuner names (above 2 nodes)",
                    nccl_tuner_name(m->sh.tuner));
        fputc('\n', f);
        fprintf(f, "%14s  %-9s  %-6s  %8s  %12s  %10s  %10s\n", "size (B)", "algorithm", "proto",
               "channels", "time (us)", "algbw GB/s", "busbw GB/s");
    }
    for (double s = a->lo; s <= a->hi * (1 + 1e-12); s = floor(s * a->factor)) {
        struct nccl_choice c;
        int rc;

        if (a->coll == COLL_A2A) {
            print_a2a(f, m, s, arr);
            if (floor(s * a->factor) <= s)
                break;
            continue;
        }
        rc = nccl_pick_only(m, s, a->algo, a->proto, &c);
        if (a->json) {
            cJSON *o = cJSON_CreateObject();
            cJSON_AddNumberToObject(o, "bytes", s);
            if (rc == 0) {
                cJSON_AddStringToObject(o, "algorithm", nccl_algo_name(c.algo));
                cJSON_AddStringToObject(o, "protocol", nccl_proto_name(c.proto));
                cJSON_AddNumberToObject(o, "channels", c.channels);
                cJSON_AddNumberToObject(o, "time_s", c.time_s);
                cJSON_AddNumberToObject(o, "latency_s", c.lat_s);
                cJSON_AddNumberToObject(o, "fill_s", c.fill_s);
                cJSON_AddNumberToObject(o, "algbw_GBps", s / c.time_s / 1e9);
                cJSON_AddNumberToObject(o, "busbw_GBps", c.busbw_Bps / 1e9);
                cJSON_AddStringToObject(o, "chosen_by", a->algo >= 0 && a->proto >= 0 ? "forced"
                                        : c.by_tuner ? nccl_tuner_name(m->sh.tuner)
                                        : a->algo >= 0 || a->proto >= 0 ? "restricted"
                                        : c.algo == NCCL_ALLPAIRS ? "msccl"
                                        : m->sh.rccl ? "rccl_model" : "nccl_model");
            } else {
                cJSON_AddStringToObject(o, "error", "the pair is disabled on this shape");
            }
            cJSON_AddItemToArray(arr, o);
        } else if (rc == 0) {
            fprintf(f, "%14.0f  %-9s  %-6s  %8d  %12.1f  %10.2f  %10.2f%s\n", s,
                   nccl_algo_name(c.algo), nccl_proto_name(c.proto), c.channels, c.time_s * 1e6,
                   s / c.time_s / 1e9, c.busbw_Bps / 1e9, c.by_tuner ? " *" : "");
        } else {
            fprintf(f, "%14.0f  disabled on this shape\n", s);
        }
        if (floor(s * a->factor) <= s)
            break;
    }
    if (a->json) {
        char *txt = cJSON_Print(arr);
        fprintf(f, "%s\n", txt);
        cJSON_free(txt);
        cJSON_Delete(arr);
    }
    return ferror(f) ? -1 : 0;
}

/* The node the flags describe when no --instance is given; g holds the
 * GPU, with --nvlink-gbs in place of the catalog's NVLink rate when given. */
static int custom_node(const struct catalog *cat, const char *gpu, unsigned long long ppn,
                       int link, double gbps, unsigned long long nics, int efa,
                       const char *fabric, double nvl, struct cat_gpu *g, struct cat_instance *in)
{
    const struct cat_gpu *cg;

    memset(in, 0, sizeof *in);
    snprintf(in->name, sizeof in->name, "%s x%llu", gpu ? gpu : "?", ppn);
    if (!gpu) {
        fprintf(stderr, CMD ": --gpu: missing, expected a GPU of the catalog (or --instance)\n");
        return -1;
    }
    if (!(cg = catalog_find_gpu(cat, gpu))) {
        text_eprintf(CMD ": --gpu: unknown GPU \"%s\"", gpu);
        return -1;
    }
    *g = *cg;
    if (!isnan(nvl))
        g->nvlink_gbs_dir = nvl;
    in->gpu = g;
    if (ppn == 0) {
        fprintf(stderr, CMD ": --gpus-per-node: missing, expected an integer from 1 to 72\n");
        return -1;
    }
    snprintf(in->gpu_model, sizeof in->gpu_model, "%s", in->gpu->name);
    in->gpu_count = (int)ppn;
    in->vcpus = 1;
    in->link = link == 0 ? CAT_LINK_PCIE : link == 1 ? CAT_LINK_NVLINK : CAT_LINK_NVSWITCH;
    in->net_gbps = gbps;
    in->nics = nics ? (int)nics : 1;
    in->efa = efa;
    in->aws_efa = efa;
    if (fabric) {
        char names[256];
        const struct cat_fabric *fab;
        if (efa) {
            fprintf(stderr, CMD ": --fabric: expected no --efa with a fabric, found both\n");
            return -1;
        }
        if (!(fab = catalog_fabric(fabric))) {
            catalog_fabric_names(names, sizeof names);
            text_eprintf(CMD ": --fabric: expected one of %s, found \"%s\"", names, fabric);
            return -1;
        }
        catalog_set_fabric(in, fab);
    }
    return 0;
}

int coll_cmd_main(int argc, char **argv)
{
    const char *inst = NULL, *gpu = NULL, *catarg = NULL, *what, *output = NULL, *fabric = NULL;
    char domain_what[160];
    int units;
    unsigned long long nodes = 1, ppn = 0, nics = 0;
    int link = 2, efa = 0, rc = CLI_EXIT_INPUT;
    double gbps = NAN, nvl = NAN;
    struct coll_args a = {1048576.0, 1073741824.0, 2, -1, -1, 0, NCCL_ALLREDUCE};
    struct cli_name_arg coll_arg = {coll_name, &a.coll};
    struct cli_name_arg algo_arg = {nccl_algo_name, &a.algo};
    struct cli_name_arg proto_arg = {nccl_proto_name, &a.proto};
    struct cli_name_arg link_arg = {link_name, &link};
    struct num_arg gbps_arg = {&gbps, 0, 1e5}, nvl_arg = {&nvl, 0, 1e5}, f_arg = {&a.factor, 1, 1024};
    const struct args_opt opts[] = {
        {"--instance", NULL, ARGS_VALUE, NULL, NULL, NULL, 0, 0, "an instance type of the catalog",
         cli_take_str, &inst, NULL},
        {"--gpu", NULL, ARGS_VALUE, NULL, NULL, NULL, 0, 0, "a GPU of the catalog", cli_take_str,
         &gpu, NULL},
        {"--gpus-per-node", NULL, ARGS_UINT, NULL, NULL, &ppn, 1, 72, NULL, NULL, NULL, NULL},
        {"--link", NULL, ARGS_VALUE, NULL, NULL, NULL, 0, 0, "one of pcie, nvlink, nvswitch",
         cli_take_name, &link_arg, NULL},
        {"--net-gbps", NULL, ARGS_VALUE, NULL, NULL, NULL, 0, 0,
         "a rate in Gbit/s in (0, 100000]", take_num, &gbps_arg, NULL},
        {"--nvlink-gbs", NULL, ARGS_VALUE, NULL, NULL, NULL, 0, 0,
         "a rate in GB/s per GPU per direction in (0, 100000]", take_num, &nvl_arg, NULL},
        {"--nics", NULL, ARGS_UINT, NULL, NULL, &nics, 1, 256, NULL, NULL, NULL, NULL},
        {"--efa", NULL, ARGS_SWITCH, &efa, NULL, NULL, 0, 0, NULL, NULL, NULL, NULL},
        {"--fabric", NULL, ARGS_VALUE, NULL, NULL, NULL, 0, 0, "a fabric's name", cli_take_str,
         &fabric, NULL},
        {"--nodes", NULL, ARGS_UINT, NULL, NULL, &nodes, 1, 1000000, NULL, NULL, NULL, NULL},
        {"--min-bytes", "-b", ARGS_VALUE, NULL, NULL, NULL, 0, 0, "a size from 1 to 1T",
         take_size, &a.lo, NULL},
        {"--max-bytes", "-e", ARGS_VALUE, NULL, NULL, NULL, 0, 0, "a size from 1 to 1T",
         take_size, &a.hi, NULL},
        {"--step-factor", "-f", ARGS_VALUE, NULL, NULL, NULL, 0, 0, "a factor in (1, 1024]",
         take_num, &f_arg, NULL},
        {"--coll", NULL, ARGS_VALUE, NULL, NULL, NULL, 0, 0,
         "one of all_reduce, all_gather, reduce_scatter, all_to_all", cli_take_name, &coll_arg,
         NULL},
        {"--algo", NULL, ARGS_VALUE, NULL, NULL, NULL, 0, 0,
         "one of tree, ring, nvls, nvls_tree, pat, collnet_direct, collnet_chain", cli_take_name,
         &algo_arg, NULL},
        {"--proto", NULL, ARGS_VALUE, NULL, NULL, NULL, 0, 0, "one of LL, LL128, Simple",
         cli_take_name, &proto_arg, NULL},
        {"--catalog", NULL, ARGS_DIR, NULL, &catarg, NULL, 0, 0, NULL, NULL, NULL, NULL},
        {"--json", NULL, ARGS_SWITCH, &a.json, NULL, NULL, 0, 0, NULL, NULL, NULL, NULL},
        {"--output", "-o", ARGS_FILE, NULL, &output, NULL, 0, 0, NULL, NULL, NULL, NULL},
        {"--help", "-h", ARGS_STOP, NULL, NULL, NULL, 0, 0, NULL, NULL, NULL, NULL},
    };
    const struct args_cmd cmd = {CMD, NULL, opts, (int)(sizeof opts / sizeof *opts), "a flag"};
    const struct args_opt *stop = NULL;
    const char *pos = NULL;
    struct dt_err e = {0};
    struct catalog cat = {0};
    struct cat_instance custom;
    struct cat_gpu cgpu;
    const struct cat_instance *in;
    struct nccl_shape sh;
    struct nccl_model m;
    char *catdir = NULL;
    int r = args_parse(&cmd, argc, argv, &pos, &stop, &e);

    if (r == ARGS_STOPPED) {
        usage(stdout);
        return cli_flush_stdout(CMD);
    }
    if (r == ARGS_BAD) {
        fprintf(stderr, "%s\n", e.msg);
        return CLI_EXIT_INPUT;
    }
    if (a.lo > a.hi) {
        fprintf(stderr, CMD ": -e: expected a size no smaller than -b (%.0f), found %.0f\n", a.lo,
                a.hi);
        return CLI_EXIT_INPUT;
    }
    if (log(a.hi / a.lo) / log(a.factor) > MAX_SIZES - 1) {
        fprintf(stderr, CMD ": -f: expected a factor giving at most %d sizes from -b to -e, "
                "found %.10g\n", MAX_SIZES, a.factor);
        return CLI_EXIT_INPUT;
    }
    if (!(catdir = cli_catalog_find(CMD, catarg, &e)) || cli_catalog_load(CMD, catdir, &cat, &e) != 0) {
        fprintf(stderr, "%s\n", e.msg);
        goto out;
    }
    if (inst) {
        if (fabric || efa) {
            fprintf(stderr, CMD ": %s: expected no %s with --instance (its catalog row names its "
                    "network), found both\n", fabric ? "--fabric" : "--efa",
                    fabric ? "--fabric" : "--efa");
            goto out;
        }
        if (!(in = catalog_find_instance(&cat, inst))) {
            text_eprintf(CMD ": --instance: unknown instance type \"%s\"", inst);
            goto out;
        }
        what = in->name;
    } else {
        if (custom_node(&cat, gpu, ppn, link, gbps, nics, efa, fabric, nvl, &cgpu, &custom) != 0)
            goto out;
        if (nodes > 1 && isnan(gbps)) {
            fprintf(stderr, CMD ": --net-gbps: missing, expected a rate in Gbit/s for %llu "
                    "nodes\n", nodes);
            goto out;
        }
        in = &custom;
        what = custom.name;
    }
    if (plan_nccl_shape(in, (int)nodes, &sh, &e) != 0) {
        fprintf(stderr, CMD ": %s\n", e.msg[0] ? e.msg : "no GPU to reduce over");
        goto out;
    }
    if (nodes * (unsigned long long)sh.ppn < 2) {
        fprintf(stderr, CMD ": one rank: nothing to reduce (give --nodes or more GPUs per node)\n");
        goto out;
    }
    if (a.coll == COLL_A2A && (a.algo >= 0 || a.proto >= 0)) {
        fprintf(stderr, CMD ": %s: expected none with --coll all_to_all (NCCL runs it as "
                "point-to-point sends, no algorithm or protocol to choose), found one\n",
                a.algo >= 0 ? "--algo" : "--proto");
        goto out;
    }
    nccl_model_init(&m, &sh, a.coll == COLL_A2A ? NCCL_ALLREDUCE : (enum nccl_coll)a.coll);
    if ((units = catalog_domain_units(in, (int)nodes)) > 1) {
        /* units of one NVLink domain share it: nodes of that many (plan_nccl_shape) */
        snprintf(domain_what, sizeof domain_what, "%llu x %.80s in NVLink domains of %d", nodes,
                 in->name, units);
        what = domain_what;
    }
    {
        struct coll_rows rows = {&m, &a, what, in->fabric ? in->fabric->name : in->aws_efa ? "EFA" : ""};
        rc = cli_write_output(CMD, output, print_rows, &rows);
    }
out:
    catalog_free(&cat);
    x_free(catdir);
    return rc;
}
