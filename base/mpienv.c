/*
 * mpienv.c - start MPI only under an MPI launcher (see mpienv.h).
 */
#include "mpienv.h"

#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

static int started;

int mpienv_launched(void)
{
    static const char *const vars[] = {"OMPI_COMM_WORLD_SIZE", "PMIX_RANK", "PMI_RANK"};
    for (size_t i = 0; i < sizeof vars / sizeof vars[0]; i++) {
        const char *v = getenv(vars[i]);
        if (v && *v)
            return 1;
    }
    return 0;
}

int mpienv_init(int *argc, char ***argv)
{
    int inited = 0;

    if (started || !mpienv_launched())
        return 0;
    MPI_Initialized(&inited);
    if (!inited && MPI_Init(argc, argv) != MPI_SUCCESS) {
        fprintf(stderr, "dtplan: MPI_Init failed\n");
        return -1;
    }
    started = 1;
    return 0;
}

int mpienv_rank(void)
{
    int r = 0;
    if (started)
        MPI_Comm_rank(MPI_COMM_WORLD, &r);
    return r;
}

int mpienv_size(void)
{
    int n = 1;
    if (started)
        MPI_Comm_size(MPI_COMM_WORLD, &n);
    return n;
}

void mpienv_finalize(void)
{
    if (started) {
        MPI_Finalize();
        started = 0;
    }
}
