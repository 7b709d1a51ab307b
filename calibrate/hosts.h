/*
 * hosts.h - how many hosts the ranks of an MPI communicator span: ranks
 * that share memory are one host (MPI_COMM_TYPE_SHARED).  Collective over
 * comm.  Inline so that the MPI part and the CUDA object (which reaches no
 * dtplan symbol but sweep_run) share one definition.
 */
#ifndef DT_HOSTS_H
#define DT_HOSTS_H

#include <mpi.h>

static inline int hosts_count(MPI_Comm comm)
{
    MPI_Comm local;
    int lr, first, hosts = 1;

    if (MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &local) != MPI_SUCCESS)
        return 1;
    MPI_Comm_rank(local, &lr);
    first = lr == 0;
    MPI_Allreduce(&first, &hosts, 1, MPI_INT, MPI_SUM, comm);
    MPI_Comm_free(&local);
    return hosts;
}

#endif
