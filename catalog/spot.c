/*
 * spot.c - a spot instance type's interruption band (spot.h).
 *
 * The Advisor labels each type in each region with one of five "frequency
 * of interruption" ranges, "the rate at which Spot has reclaimed capacity
 * during the trailing month" (its feed spot-advisor-data.json, `ranges`:
 * <5%, 5-10%, 10-15%, 15-20%, >20%).  A band is read as its middle, the
 * open top band as its lower bound, and spread evenly over 30 days: a
 * Poisson rate a node-day.  Measured spot fleets churn faster than that
 * (docs/model.md "Goodput").
 */
#include "spot.h"

#include <math.h>
#include <string.h>

static const struct {
    const char *label;
    double month;
} bands[] = {
    {"<5%", 0.025}, {"5-10%", 0.075}, {"10-15%", 0.125}, {"15-20%", 0.175}, {">20%", 0.2},
};

double cat_spot_month(const char *band)
{
    for (size_t i = 0; band && i < sizeof bands / sizeof bands[0]; i++)
        if (!strcmp(band, bands[i].label))
            return bands[i].month;
    return NAN;
}

const char *cat_spot_bands(void)
{
    return "<5%, 5-10%, 10-15%, 15-20% or >20%";
}

double cat_spot_per_day(double month)
{
    return month / 30;
}

/*
 * The notices: AWS, "a warning that is issued two minutes before Amazon EC2
 * stops or terminates your Spot Instance", "on a best effort basis" (EC2
 * User Guide, "Spot Instance interruption notices"); GCP, "30 seconds for
 * Spot VMs" between ACPI soft-off and mechanical off (Compute Engine API,
 * Scheduling.skipGuestOsShutdown); Azure, "evict Azure Spot Virtual Machines
 * with 30 seconds notice" (MicrosoftDocs/azure-docs@02300584
 * articles/virtual-machines/spot-vms.md).
 */
double cat_spot_notice_s(const char *cloud)
{
    if (!cloud)
        return NAN;
    if (!strcmp(cloud, "aws"))
        return 120;
    if (!strcmp(cloud, "gcp") || !strcmp(cloud, "azure"))
        return 30;
    return NAN;
}
