/*
 * files.c - is an input path a readable regular file (files.h).
 */
#include "files.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

const char *file_problem(const char *path)
{
    struct stat st;
    FILE *f;

    if (stat(path, &st) != 0)
        return strerror(errno);
    if (S_ISDIR(st.st_mode))
        return "is a directory";
    if (!S_ISREG(st.st_mode))
        return "is not a regular file";
    if (!(f = fopen(path, "rb")))
        return strerror(errno);
    fclose(f);
    return NULL;
}
