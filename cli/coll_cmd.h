/*
 * coll_cmd.h - `dtplan collectives`: the all-reduce NCCL would run on a
 * cluster shape, size by size, as its cost model picks it (sim/nccl.h),
 * without a scenario.  docs/cli.md.
 */
#ifndef DT_COLL_CMD_H
#define DT_COLL_CMD_H

int coll_cmd_main(int argc, char **argv);

#endif
