/* What writing a file the user may edit at the same moment needs of Linux that Swift's Glibc
 * module does not export: renameat2(2), whose flags make "replace it only if it is still what
 * we read" a check the kernel does in one step. */
#ifndef QUICKACTIONS_FILE_EXCHANGE_H
#define QUICKACTIONS_FILE_EXCHANGE_H

/* renameat2(AT_FDCWD, first, AT_FDCWD, second, RENAME_EXCHANGE): the two names swap their
 * files in one step; both must exist. Returns 0, or -1 with errno set (EINVAL where the file
 * system cannot exchange). */
int qa_rename_exchange(const char *first, const char *second);

/* renameat2(AT_FDCWD, from, AT_FDCWD, to, RENAME_NOREPLACE): renames unless `to` exists.
 * Returns 0, or -1 with errno set (EEXIST when `to` exists, EINVAL where the file system
 * cannot check). */
int qa_rename_no_replace(const char *from, const char *to);

#endif
