/*
 * files.h - whether an input path names a file that can be read, checked
 * where the path was given, so that the error names that place (a CSV row,
 * a scenario's line) rather than only the path.
 */
#ifndef DT_FILES_H
#define DT_FILES_H

/* NULL when path is a regular file this process can open for reading; else
 * why not ("No such file or directory", "is a directory", "is not a regular
 * file", ...), a string that stays valid until the next call. */
const char *file_problem(const char *path);

#endif
