/*
 * catalog_cmd.h - `dtplan catalog list|import`: the catalog's instance
 * types and what dtplan does not know of them; SkyPilot's vms.csv files
 * written as a dtplan catalog.  docs/cli.md, docs/catalog.md.
 */
#ifndef DT_CATALOG_CMD_H
#define DT_CATALOG_CMD_H

int catalog_cmd_main(int argc, char **argv);

#endif
