/*
 * catwrite.c - a catalog's instance types written as instances.csv
 * (catalog.h catalog_write_instances; docs/catalog.md), the format
 * catalog_load reads back: the columns of catalog.c's table and its
 * optional cpu_ghz, cpu_source, nics, fabric, price_date,
 * nvlink_domain and spot_interrupt; derived NVLink-domain types (domain.c) are left out.  An
 * accelerator dtplan does not know is written "unknown:NAME" so that it
 * reads back as unknown.
 */
#include "catalog.h"
#include "csv.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static void num(FILE *f, double v, int last)
{
    char b[40] = "";

    if (!isnan(v))
        snprintf(b, sizeof b, "%.10g", v);
    csv_write_field(f, b, last);
}

int catalog_write_instances(FILE *f, const struct catalog *cat)
{
    fputs("cloud,instance_type,vcpus,memory_gib,gpu_model,gpu_count,gpu_mem_gib,"
          "intra_node_link,network_gbps,efa,price_ondemand_usd_h,price_spot_usd_h,region,"
          "source,cpu_ghz,cpu_source,nics,fabric,price_date,nvlink_domain,spot_interrupt\n", f);
    for (int i = 0; i < cat->ninstances; i++) {
        const struct cat_instance *in = &cat->instances[i];
        char gpu[48];
        if (in->unit[0])
            continue;       /* derived (domain.c): made again from its unit's row */
        snprintf(gpu, sizeof gpu, "%s%s", in->gpu_unknown ? "unknown:" : "", in->gpu_model);
        csv_write_field(f, in->cloud, 0);
        csv_write_field(f, in->name, 0);
        num(f, in->vcpus >= 0 ? in->vcpus : NAN, 0);
        num(f, in->mem_gib, 0);
        csv_write_field(f, gpu, 0);
        num(f, in->gpu_count >= 0 ? in->gpu_count : NAN, 0);
        num(f, in->gpu_mem_gib, 0);
        csv_write_field(f, in->intra_link_text ? in->intra_link_text : "", 0);
        num(f, in->net_gbps, 0);
        csv_write_field(f, in->efa < 0 ? "" : in->efa == 0 ? "no" : in->aws_efa ? "yes" : "IB", 0);
        num(f, in->price_usd_h, 0);
        num(f, in->spot_usd_h, 0);
        csv_write_field(f, in->region, 0);
        csv_write_field(f, in->source ? in->source : "", 0);
        num(f, in->cpu_ghz, 0);
        csv_write_field(f, in->cpu_amd ? "AMD" : "", 0);
        num(f, in->nics >= 0 ? in->nics : NAN, 0);
        csv_write_field(f, in->fabric ? in->fabric->name : "", 0);
        csv_write_field(f, in->price_date, 0);
        num(f, in->nvlink_domain > 0 ? in->nvlink_domain : NAN, 0);
        csv_write_field(f, in->spot_interrupt, 1);
    }
    return ferror(f) ? -1 : 0;
}
