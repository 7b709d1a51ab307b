/*
 * plan_cmd.h - "dtplan plan SCENARIO": search the catalog for clusters.
 */
#ifndef DT_PLAN_CMD_H
#define DT_PLAN_CMD_H

/* argv[0] is "plan".  Returns the process exit status. */
int plan_cmd_main(int argc, char **argv);

#endif
