/*
 * domain.c - NVLink domains wider than one instance (catalog.h
 * catalog_add_domains; docs/catalog.md "NVLink domains").
 *
 * A GB200 NVL72 rack is 18 compute trays of 4 GPUs joined by the rack's
 * NVSwitch trays: every one of its 72 GPUs reaches every other over NVLink
 * at its full per-GPU rate.  Clouds rent it two ways: by the rack (AWS's
 * UltraServers, one instance type of 36 or 72 GPUs) or by the tray (GCP's
 * a4x, Azure's ND GB200 v6, Oracle's BM.GPU.GB200.4: a 4-GPU VM, 18 of
 * them a rack).  A type of the second kind says so in its nvlink_domain
 * column, and the catalog gets a derived type beside it: one whole domain,
 * the unit's resources times the units a domain holds, its GPUs one
 * NVSwitch domain.  The planner then places tensor, expert and context
 * parallelism inside it as inside any node, and prices it as the units it
 * rents.  Units rented together share domains too: catalog_domain_units
 * says how many of them a node holds, catalog_domain_part makes that node
 * (planner/resolve.c resolve_domain_nodes).
 */
#include "catalog.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "../base/xmem.h"

static double times(double v, int k)
{
    return isnan(v) ? v : v * k;
}

int catalog_domain_units(const struct cat_instance *u, int count)
{
    int per = u->gpu_count > 0 && !u->unit[0] && u->nvlink_domain > u->gpu_count
                  ? u->nvlink_domain / u->gpu_count : 1;

    for (int k = per < count ? per : count; k > 1; k--)
        if (count % k == 0)
            return k;
    return 1;
}

void catalog_domain_part(const struct cat_instance *u, int k, struct cat_instance *d)
{
    *d = *u;
    snprintf(d->name, sizeof d->name, "%.50s.nvl%d", u->name, k * u->gpu_count);
    snprintf(d->unit, sizeof d->unit, "%s", u->name);
    d->unit_count = k;
    d->vcpus = u->vcpus > 0 ? u->vcpus * k : u->vcpus;
    d->mem_gib = times(u->mem_gib, k);
    d->gpu_count = k * u->gpu_count;
    d->net_gbps = times(u->net_gbps, k);
    d->price_usd_h = times(u->price_usd_h, k);
    d->spot_usd_h = times(u->spot_usd_h, k);
    d->nics = u->nics > 0 ? u->nics * k : u->nics;
    d->profile = NULL;      /* a profile measures the unit, not the domain */
    d->link = CAT_LINK_NVSWITCH;
}

const struct cat_instance *catalog_domain_node(const struct cat_instance *u, int count,
                                               struct cat_instance *part, int *nodes)
{
    int k = catalog_domain_units(u, count);

    *nodes = count / k;
    if (k < 2)
        return u;
    catalog_domain_part(u, k, part);
    return part;
}

/* The whole domain of unit u, into *d (strings newly allocated). */
static void domain_of(const struct cat_instance *u, struct cat_instance *d)
{
    int k = u->nvlink_domain / u->gpu_count;
    char text[512];

    catalog_domain_part(u, k, d);
    snprintf(text, sizeof text, "NVSwitch: one NVLink domain of %d GPUs over %d x %.400s",
             u->nvlink_domain, k, u->name);
    d->intra_link_text = x_strdup(text);
    snprintf(text, sizeof text, "derived: %d x %.100s (%d GPUs each), one NVLink domain of %d "
             "GPUs as its nvlink_domain column says; resources and prices %d times the unit's",
             k, u->name, u->gpu_count, u->nvlink_domain, k);
    d->source = x_strdup(text);
}

void catalog_add_domains(struct catalog *cat)
{
    int n = cat->ninstances;

    for (int i = 0; i < n; i++) {
        struct cat_instance d;
        const struct cat_instance *u = &cat->instances[i];
        if (u->unit[0] || u->gpu_count < 1 || u->nvlink_domain <= u->gpu_count)
            continue;
        domain_of(u, &d);
        if (catalog_find_instance(cat, d.name)) {   /* a row of that name already */
            x_free(d.intra_link_text);      /* domain_of's own (no profile) */
            x_free(d.source);
            continue;
        }
        cat->instances = x_realloc(cat->instances,
                                   (size_t)(cat->ninstances + 1) * sizeof *cat->instances);
        cat->instances[cat->ninstances++] = d;      /* its strings now the catalog's */
    }
}
