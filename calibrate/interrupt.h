/*
 * interrupt.h - Ctrl-C during a calibration: rank 0, once it writes a
 * checkpoint (partial), ends its progress line (tty: the line on a
 * terminal) with how to resume, then ends as SIGINT ends a process.  A
 * SIGINT already ignored (a run started in the background) stays ignored.
 */
#ifndef DT_CAL_INTERRUPT_H
#define DT_CAL_INTERRUPT_H

void interrupt_catch(int tty, const char *partial);

#endif
