/*
 * compute_cmd.h - `dtplan compute`: a model's training throughput on one
 * GPU of each type, operation by operation (planner/compute.h), without a
 * scenario.  docs/cli.md.
 */
#ifndef DT_COMPUTE_CMD_H
#define DT_COMPUTE_CMD_H

int compute_cmd_main(int argc, char **argv);

#endif
