/*
 * calibrate.h - "dtplan calibrate": measure this machine and write a
 * calibration profile (docs/profile.md).
 */
#ifndef DT_CALIBRATE_H
#define DT_CALIBRATE_H

/* argv[0] is "calibrate".  Returns the process exit status. */
int calibrate_main(int argc, char **argv);

#endif
