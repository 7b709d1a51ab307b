/*
 * units.h - unit constants used across dtplan.  Sizes in the scenario and
 * the reports are binary (MiB, GiB: docs/scenario.md); rates on the wire are
 * decimal (Gbit/s, GB/s: docs/catalog.md).
 */
#ifndef DT_UNITS_H
#define DT_UNITS_H

#define DT_MIB 1048576.0        /* bytes in a MiB */
#define DT_GIB 1073741824.0     /* bytes in a GiB */

#endif
