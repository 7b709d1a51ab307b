/*
 * chrome_trace.h - write the simulated steps of every cluster of a plan in the
 * Chrome trace event format (JSON), which Perfetto (ui.perfetto.dev) and
 * chrome://tracing load.  See docs/reports.md.
 *
 * Each cluster is a process; each resource of each group is a thread track
 * (GPU compute, CPU loader workers, PCIe, NIC transmit and receive, GPU link,
 * fabric, the collective's bucket phases); a resource with overlapping
 * activities gets as many lanes as it needs.  Flow arrows join the stages of
 * one input batch and the phases of one gradient bucket; counters give the
 * input queue depth and each resource's utilisation.  Identical ranks are
 * simulated once, and the track names say how many ranks or nodes each
 * track stands for.
 *
 * The writer formats what the planner recorded while it simulated each
 * cluster (struct plan_report's traces, asked for with plan_opts.trace or
 * search_opts.trace).  Library code: never prints except to the stream it
 * is given.
 */
#ifndef DT_CLI_CHROME_TRACE_H
#define DT_CLI_CHROME_TRACE_H

#include <stdio.h>

#include "../planner/planner.h"

/* Spans and samples kept per cluster; beyond it the trace says it was cut. */
#define CHROME_TRACE_MAX_RECORDS 1000000

/* Write the trace of rep to f.  Returns 0, or -1 with e->msg set (rep
 * holds no recording, or f reports an error). */
int chrome_trace_write(FILE *f, const struct plan_report *rep, struct dt_err *e);

#endif
