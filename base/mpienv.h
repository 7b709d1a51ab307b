/*
 * mpienv.h - MPI for the subcommands that can run under mpirun (calibrate,
 * plan).  MPI is started only when the process was launched by an MPI
 * launcher (Open MPI's or PMIx's environment variables are set), so a plain
 * "dtplan ..." never pays for MPI_Init or prints its warnings.
 */
#ifndef DT_MPIENV_H
#define DT_MPIENV_H

/* Nonzero when launched by mpirun/mpiexec/srun with PMIx. */
int mpienv_launched(void);

/*
 * Start MPI when launched by a launcher; otherwise do nothing.  Returns 0,
 * or -1 when MPI_Init failed (the message is printed).  Safe to call twice.
 */
int mpienv_init(int *argc, char ***argv);

/* Rank and size in MPI_COMM_WORLD; 0 and 1 without MPI. */
int mpienv_rank(void);
int mpienv_size(void);

/* MPI_Finalize when mpienv_init started MPI. */
void mpienv_finalize(void);

#endif
